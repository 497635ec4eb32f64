# t_face.sh - nvcc-built programs (shared cudart) and a driver-API program
# on hipemu's CUDA face run right under the shim, with no policy and
# under trace, stream0, pool and all: the same output and exit status as
# without it, and with no policy or the trace alone the same calls
# reaching the face, but for the layouts the trace asks of the driver
# once a kernel (stream0 and pool make calls of their own and serve
# some of the program's: t_policies.sh).  A program with nvcc's default, static cudart
# is left unharmed: on the face it cannot start (only NVIDIA's driver has
# the tables it asks for), and it fails the same way with the shim.
. tests/cuda/lib.sh
cd "$TMP"
# calls FILE: the counts of a HIPEMU_STATS file, one a line, sorted, less
# the kernel-layout queries the trace makes at a kernel's first launch
# (shim/rt_cuda.c, lb_cu_params)
calls() {
	counts "$1" | sort |
		grep -Ev '^(cuFuncGetParamInfo|cudaGetFuncBySymbol|cuKernelGetFunction) '
}
check() { # NAME CMD...
	name=$1
	shift
	HIPEMU_STATS=$TMP/$name.stats on_face "$@" >"$TMP/$name.out" \
		2>"$TMP/$name.err"
	rc=$?
	for p in none trace stream0 pool all; do
		HIPEMU_STATS=$TMP/$name.$p.stats LBSHIM_POLICIES=$p \
			LBSHIM_TRACE=$TMP/$name.$p.lbt LD_PRELOAD=$SHIM \
			on_face "$@" >"$TMP/$name.$p" 2>"$TMP/$name.$p.err"
		got=$?
		# streams checks the legacy stream's own order within a
		# thread, which stream0 keeps (issue 34): no exception
		expect_eq "$name under $p: exit" "$got" "$rc"
		# stdout, and stderr less the shim's own lines (the static
		# program prints a value it never wrote: not compared)
		cat "$TMP/$name.out" "$TMP/$name.err" |
			sed 's/(c\[[0-9]*\] = [^)]*)//' >"$TMP/a"
		cat "$TMP/$name.$p" "$TMP/$name.$p.err" | grep -v '^lbshim: ' |
			sed 's/(c\[[0-9]*\] = [^)]*)//' >"$TMP/b"
		diff "$TMP/a" "$TMP/b" >/dev/null ||
			fail "$name under $p: output $(cat "$TMP/$name.$p")"
		# (the static program dies: its statistics are not whole;
		# stream0 and pool call the face themselves)
		case $name/$p in static/* | */stream0 | */pool | */all) ;;
		*)	[ "$(calls "$TMP/$name.stats")" = \
			  "$(calls "$TMP/$name.$p.stats")" ] ||
				fail "$name under $p: other calls reached the face" ;;
		esac
	done
	echo "$name: exit $rc under every policy"
}
check vecadd "$HT/vecadd"
check streams "$HT/streams"
check ptsz "$HT/ptsz"
check drv "$HT/drv" "$HT/kern.cubin"
check static "$T/vecadd_static"
! grep -q 'does not serve CUDA' "$TMP/vecadd.stream0.err" ||
	fail "stream0 refused: $(cat "$TMP/vecadd.stream0.err")"
