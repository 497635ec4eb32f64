# t_cuda_driver.sh - a program that calls the driver API directly (cc
# against cuda.h, linked with the toolkit's stub) runs on the face:
# drv.c checks the module, launches, parameter layout, entry-point
# lookups, errors, and that the runtime's and the driver's memory,
# streams and events are one device's.
. tests/hipemu/cuda/lib.sh
HIPEMU_STATS=$TMP/stats on_face "$T/drv" "$T/kern.cubin" >"$TMP/out" 2>&1 ||
	fail "drv: $(cat "$TMP/out")"
expect_eq "cuLaunchKernel calls" "$(calls "$TMP/stats" cuLaunchKernel)" 4
expect_eq "cuMemAlloc_v2 calls" "$(calls "$TMP/stats" cuMemAlloc_v2)" 5
expect_eq "cudaMalloc calls" "$(calls "$TMP/stats" cudaMalloc)" 1
[ "$(calls "$TMP/stats" cuGetProcAddress_v2)" -ge 10 ] ||
	fail "entry points not looked up through cuGetProcAddress_v2"
exit 0
