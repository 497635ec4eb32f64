# t_imports.sh - every HIP function that AMD's libraries built against
# 6.4 and 7.2 import (nm -D --undefined-only) and that takes a stream
# (its prototype in that release's own headers: tests/shim/
# stream_apis.py), allocates, frees, launches or synchronizes (by name:
# Malloc, Alloc, Free, Launch, Synchronize; not the queries among them,
# Get or Retain, nor hipMemAddressReserve / hipMemAddressFree, which
# reserve and release address space, not memory: hipMemCreate and
# hipMemRelease do that) is exported by the shim.  The
# libraries: MIOpen, rocFFT, hipBLAS, hipSOLVER, hipSPARSELt (7.2 only:
# Debian has no 6.4 build); with RR_BIG=1 (make check-realrocm-big) also
# rocBLAS, rocSOLVER, hipBLASLt and RCCL from the big sets.  Their other
# HIP imports (queries) are listed, not required.
. tests/realrocm/lib.sh
sets="6.4 7.2"
[ "${RR_BIG:-0}" = 1 ] && sets="$sets 6.4-big 7.2-big"
rr_need $sets
nm -D --defined-only "$SHIM" | awk '{ print $3 }' | sort >"$TMP/shim"
for s in $sets; do
	inc=$(rr_root "${s%-big}")/usr/include/hip
	python3 tests/shim/stream_apis.py "$inc/hip_runtime_api.h" \
		"$inc/hip_ext.h" >"$TMP/stream.$s" || fail "$s: stream_apis.py"
	[ -s "$TMP/stream.$s" ] || fail "$s: no stream-taking function in $inc"
	case $s in
	*-big) libs="librocblas.so.* librocsolver.so.* libhipblaslt.so.* librccl.so.*" ;;
	*) libs="libMIOpen.so.1 librocfft.so.0 libhipblas.so.* libhipsolver.so.* libhipsparselt.so.0" ;;
	esac
	dir=$(rr_root "$s")/usr/lib/x86_64-linux-gnu
	for pat in $libs; do
		# the file the soname names (libfoo.so.N, not libfoo.so.N.M)
		lib=$(ls "$dir"/$pat 2>/dev/null | grep -E '\.so\.[0-9]+$' | head -n 1)
		if [ -z "$lib" ]; then
			echo "ROCm $s: no $pat in Debian's build"
			continue
		fi
		nm -D --undefined-only "$lib" | awk '{ s = $2; sub(/@.*/, "", s);
			if (s ~ /^_?_?hip[A-Z]/) print s }' | sort -u >"$TMP/imp"
		{
			join "$TMP/imp" "$TMP/stream.$s"
			grep -E 'Malloc|Alloc|Free|Launch|Synchronize' "$TMP/imp" |
				grep -vE 'Get|Retain|Address'
		} | sort -u >"$TMP/must"
		miss=$(comm -23 "$TMP/must" "$TMP/shim" | tr '\n' ' ')
		[ -z "$miss" ] ||
			fail "ROCm $s $(basename "$lib") imports, the shim lacks: $miss"
		other=$(comm -23 "$TMP/imp" "$TMP/must" | comm -23 - "$TMP/shim" |
			tr '\n' ' ')
		echo "ROCm $s $(basename "$lib"): $(wc -l <"$TMP/imp") HIP imports," \
			"$(wc -l <"$TMP/must") with a stream or that allocate, free," \
			"launch or synchronize, all wrapped; not wrapped: ${other:-none}"
	done
done
exit 0
