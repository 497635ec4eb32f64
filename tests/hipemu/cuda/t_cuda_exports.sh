# t_cuda_exports.sh - the CUDA face's libraries are shaped as NVIDIA's:
# libcudart.so.13 has its soname and its one version node, and exports
# under it only functions NVIDIA's libcudart.so.13 exports (under the same
# version); libcuda.so.1 has the driver's soname and exports, unversioned,
# only functions of the toolkit's libcuda stub; the core exports nothing
# of HIP's.  And what an nvcc-built program needs is there.
. tests/hipemu/cuda/lib.sh
REAL=$CUDA_HOME/lib64/libcudart.so.13
STUB=$CUDA_HOME/lib64/stubs/libcuda.so
[ -f "$REAL" ] && [ -f "$STUB" ] || { echo "no $REAL or $STUB"; exit 77; }

soname() { readelf -d "$1" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p'; }
vdefs() { readelf -V "$1" | sed -n '/Version definition/,/Version needs/p' |
	sed -n 's/.*Flags: \([A-Za-z]*\).*Name: \(.*\)/\1 \2/p'; }
# defined dynamic symbols as NAME@VERSION (VERSION empty: unversioned)
defs() { readelf --dyn-syms -W "$1" | awk '$7 != "UND" && NF >= 8 &&
	$5 == "GLOBAL" { s = $8; sub(/@@/, "@", s)
	if (s !~ /@/) s = s "@"; print s }' | sort -u; }

expect_eq "cudart soname" "$(soname "$FACE/libcudart.so.13")" libcudart.so.13
expect_eq "cudart versions" "$(vdefs "$FACE/libcudart.so.13")" \
	"$(vdefs "$REAL")"
defs "$REAL" >"$TMP/real"
defs "$FACE/libcudart.so.13" >"$TMP/face"
extra=$(comm -13 "$TMP/real" "$TMP/face")
[ -z "$extra" ] || fail "cudart exports NVIDIA's does not: $extra"
n=$(wc -l <"$TMP/face")
[ "$n" -ge 90 ] || fail "only $n cudart exports"
for f in cudaMalloc cudaMemcpyAsync_ptsz cudaMemcpy_ptds __cudaLaunchKernel \
	__cudaLaunchKernel_ptsz __cudaRegisterFatBinary __cudaRegisterFunction \
	__cudaPushCallConfiguration __cudaPopCallConfiguration __cudaGetKernel \
	__cudaInitModule cudaGetLastError; do
	grep -qx "$f@libcudart.so.13" "$TMP/face" || fail "cudart lacks $f"
done

expect_eq "driver soname" "$(soname "$FACE/libcuda.so.1")" "$(soname "$STUB")"
expect_eq "driver versions" "$(vdefs "$FACE/libcuda.so.1")" "$(vdefs "$STUB")"
defs "$STUB" >"$TMP/stub"
defs "$FACE/libcuda.so.1" >"$TMP/drv"
extra=$(comm -13 "$TMP/stub" "$TMP/drv")
[ -z "$extra" ] || fail "libcuda exports the stub does not: $extra"
for f in cuInit cuGetProcAddress cuGetProcAddress_v2 cuMemAlloc_v2 \
	cuLaunchKernel cuLaunchKernel_ptsz cuStreamSynchronize \
	cuCtxGetCurrent; do
	grep -qx "$f@" "$TMP/drv" || fail "libcuda lacks $f"
done

expect_eq "the core's exports" "$(defs "$FACE/libhipemu.so")" "hipemu_face@"
echo "cudart: $n exports; libcuda: $(wc -l <"$TMP/drv")"
