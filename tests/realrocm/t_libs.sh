# t_libs.sh - AMD's libraries built against 6.4 and 7.2 called through
# their entry points (prog_libs.c: a handle or plan, a call, its
# release), with the shim under every policy set and without it: the
# same exit status, output and errors.  Without a device these are the
# libraries' error paths (MIOpen: "No device"), and the runtime's.
#
# make check: MIOpen, rocFFT, hipBLAS, hipSOLVER, hipSPARSELt (7.2; no 6.4
# build in Debian).  rocBLAS and rocSOLVER, which MIOpen, hipBLAS and
# hipSOLVER link, are 250 to 630 MB each: stand-ins take their place,
# built here with every rocblas_ / rocsolver_ function those libraries
# import, each answering 0 (they make no HIP call).  With RR_BIG=1
# (make check-realrocm-big): the same on the real rocBLAS and rocSOLVER,
# plus rocBLAS itself, hipBLASLt and RCCL (7.2; 6.4: rocBLAS).
. tests/realrocm/lib.sh
sets="6.4 7.2"
[ "${RR_BIG:-0}" = 1 ] && sets="6.4-big 7.2-big"
rr_need $sets

# stand_ins SET DIR: librocblas.so.N and librocsolver.so.0 in DIR.
stand_ins() {
	lib=$(rr_root "$1")/usr/lib/x86_64-linux-gnu
	users="$lib/libMIOpen.so.1 $(ls "$lib"/libhipblas.so.[0-9] \
		"$lib"/libhipsolver.so.[0-9])"
	for x in rocblas rocsolver; do
		# shellcheck disable=SC2086
		so=$(readelf -d $users | grep -o "lib$x\.so\.[0-9]*" | sort -u)
		[ -n "$so" ] || fail "$1: no library needs lib$x"
		# shellcheck disable=SC2086
		nm -D --undefined-only $users | awk -v p="^${x}_" '{
			s = $2; sub(/@.*/, "", s); if (s ~ p) print s }' |
			sort -u | awk '{ print "int " $1 "(void) { return 0; }" }' \
			>"$2/$x.c"
		${CC:-cc} -shared -fPIC -fno-builtin -w -o "$2/$so" "$2/$x.c" \
			-Wl,-soname,"$so" || fail "$1: stand-in $so"
	done
}

for s in $sets; do
	base=${s%-big}
	d=$TMP/$s
	mkdir -p "$d"
	lp=$(rr_path "$s")
	libs="MIOPEN:MIOpen ROCFFT:rocfft HIPBLAS:hipblas HIPSOLVER:hipsolver"
	libs="$libs HIPSPARSELT:hipsparselt"
	case $s in
	*-big) libs="MIOPEN:MIOpen HIPBLAS:hipblas HIPSOLVER:hipsolver ROCBLAS:rocblas"
	       [ "$s" = 7.2-big ] && libs="$libs HIPBLASLT:hipblaslt RCCL:rccl" ;;
	*) stand_ins "$s" "$d"; lp=$lp:$d ;;
	esac
	for l in $libs; do
		name=${l%%:*} file=${l#*:}
		so=$(cd "$(rr_path "$s" | cut -d: -f1)" 2>/dev/null &&
			ls "lib$file".so.[0-9] 2>/dev/null | head -n 1)
		[ -n "$so" ] || so=$(cd "$(rr_root "$base")/usr/lib/x86_64-linux-gnu" &&
			ls "lib$file".so.[0-9] 2>/dev/null | head -n 1)
		if [ -z "$so" ]; then
			echo "ROCm $s: no lib$file in Debian's build"
			continue
		fi
		rr_cc "$s" "$d/$name" tests/realrocm/prog_libs.c -DLIB_$name \
			-I"$(rr_root "$base")/usr/include" \
			-L"$(rr_path "$s" | cut -d: -f1)" -l:"$so"
		# RCCL starts its lines with host:pid:tid, which differ
		run() {
			"$(rr_ldso "$base")" --library-path "$lp" "$@" "$d/$name" \
				>"$d/$name.$p.out" 2>"$d/$name.$p.err"
			echo $? >"$d/$name.$p.rc"
			sed -i -E 's/^[^ :]+:[0-9]+:[0-9]+ /HOST:PID:TID /' \
				"$d/$name.$p.out" "$d/$name.$p.err"
		}
		p=plain
		run
		# It ran (hipBLASLt's handle exits the process, status 1,
		# without a device: its error line is all there is).
		grep -q "hipGetLastError" "$d/$name.plain.out" ||
			grep -q "no ROCm-capable device" "$d/$name.plain.err" ||
			fail "$s $name: did not run: $(tail -3 "$d/$name.plain.err")"
		for p in none trace stream0 pool all; do
			LBSHIM_POLICIES=$p LBSHIM_TRACE=$d/$name.%p.lbt \
				LBSHIM_LOG=error run --preload "$SHIM"
			for x in rc out err; do
				diff "$d/$name.plain.$x" "$d/$name.$p.$x" >"$d/diff" ||
					fail "ROCm $s $name, LBSHIM_POLICIES=$p: $x differs" \
					"(< alone, > with the shim): $(head -8 "$d/diff")"
			done
		done
		echo "ROCm $s $so: $(sed 's/(.*)//' "$d/$name.plain.out" |
			tr '\n' ' ')exit $(cat "$d/$name.plain.rc"):" \
			"the same under none, trace, stream0, pool, all"
	done
done
exit 0
