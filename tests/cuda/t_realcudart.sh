# t_realcudart.sh - NVIDIA's own CUDA runtimes, which answer without a
# device or a driver: libcudart.so.13 (CUDA 13.0, the toolkit's), linked
# by the program, and libcudart.so.12 (CUDA 12.4, Debian's libcudart12,
# fetched into the cache by tests/realrocm/fetch.sh), dlopened by it
# after start-up as torch opens its runtime.  Every wrapped runtime
# function the runtime has that returns a cudaError_t, called by
# prog_rtcalls, gives the same result and leaves the same last error with
# the shim as without it, under no policy, trace, stream0, pool and all
# (stream0 and pool serve CUDA: their own calls, to cudart here as no
# driver is loaded, must not change a result or the last error; stderr
# not compared); the trace has one record a call.  The 12.4 part is
# skipped when Debian's archive cannot be reached (fetch.sh's 77), failed
# when LBSHIM_ROCM_REQUIRE=1 (CI).
. tests/cuda/lib.sh
RT=$CUDA_HOME/lib64/libcudart.so.13
[ -e "$RT" ] || { echo "no $RT"; exit 77; }
top=$PWD
cd "$TMP"
# same NAME LIBDIR PROG...: PROG's lines alike with and without the shim
same() {
	name=$1 dir=$2
	shift 2
	LD_LIBRARY_PATH=$dir timeout 120 "$@" >"$TMP/plain" 2>"$TMP/plain.err" ||
		fail "$name without the shim: $(cat "$TMP/plain.err")"
	n=$(grep -c . "$TMP/plain")
	[ "$n" -ge 100 ] || fail "$name: only $n calls"
	grep -q '^cudaMalloc 35 ' "$TMP/plain" ||
		fail "$name: not the driverless answer: $(grep '^cudaMalloc ' "$TMP/plain")"
	for p in none trace stream0 pool all; do
		rm -f "$TMP/t.$p.lbt"
		LBSHIM_POLICIES=$p LBSHIM_TRACE=$TMP/t.$p.lbt LD_PRELOAD=$SHIM \
			LD_LIBRARY_PATH=$dir timeout 120 "$@" \
			>"$TMP/$p" 2>"$TMP/$p.err" || fail "$name, $p: exit $?"
		diff "$TMP/plain" "$TMP/$p" >"$TMP/diff" ||
			fail "$name, $p: results differ: $(head -5 "$TMP/diff")"
	done
	# the trace saw them, one record each
	"$LBTRACE" print "$TMP/t.trace.lbt" >"$TMP/print" ||
		fail "$name: lbtrace print"
	expect_eq "$name: records" "$(grep -c 'pid:' "$TMP/print")" "$((2 * n))"
	echo "ok: $name: $n calls alike under every policy"
}
same "libcudart.so.13" "$CUDA_HOME/lib64" "$T/prog_rtcalls"

sh "$top/tests/realrocm/fetch.sh" cudart12 2>"$TMP/fetch"
case $? in
0) ;;
77) echo "libcudart.so.12 not tested: $(tail -n 1 "$TMP/fetch")"; exit 0 ;;
*) fail "fetching libcudart12: $(tail -n 3 "$TMP/fetch")" ;;
esac
RC=${LBSHIM_ROCM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/lbshim-rocm}
D12=$RC/cudart12/root/usr/lib/x86_64-linux-gnu
[ -e "$D12/libcudart.so.12" ] || fail "no libcudart.so.12 in $D12"
same "libcudart.so.12 ($(grep '^libcudart12 ' "$RC/cudart12/packages" | cut -d' ' -f2), dlopened)" \
	"$D12" "$T/prog_rtcalls_dl" libcudart.so.12
