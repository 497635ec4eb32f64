# The allocation calls that take a hipExtent by value (hipMalloc3D,
# hipMalloc3DArray), the deprecated host aliases and hipGetDeviceProperties,
# on hipemu: one live line each with the extent printed as {w,h,d}, and a
# record with the pointer and size (bytes asked for) or the device.
. "$(dirname "$0")/lib.sh"

EMU=${EMU_DIR:-$BUILD/hipemu}
PT=$BUILD/tests/policies/pool
[ -f "$EMU/libamdhip64.so.5" ] && [ -x "$PT/pool_test" ] ||
	{ echo "hipemu or the pool test program not built"; exit 77; }
export HIPEMU_KERNELS=$PT/libpooltwins.so
on_emu() {	# on_emu NAME CMD...: traced and live on hipemu
	n=$1; shift
	LBSHIM_POLICIES=trace LBSHIM_TRACE=$n.lbt LBSHIM_TRACE_LIVE=1 \
		LD_LIBRARY_PATH=$EMU LD_PRELOAD="$SHIM" "$@" >$n.out 2>$n.err ||
		fail "$n: exit $? $(cat $n.out $n.err)"
	"$BUILD/lbtrace" print --json $n.lbt >$n.json || fail "$n: lbtrace"
}
# json NAME API SIZE: API's record has a pointer and that size.
json() {
	expect "\"api\":\"$2\",\"ret\":0,.*\"ptr\":\"0x[0-9a-f]*[1-9a-f][0-9a-f]*\",\"size\":$3," $1.json
}
mib32=33554432
on_emu 3d "$PT/pool_test" starve 3d
expect ' hipMalloc3D \(0x[0-9a-f]+, \{1024,8192,4\}\) ret=0 \(hipSuccess\) ' 3d.err
json 3d hipMalloc3D $mib32
on_emu 3da "$PT/pool_test" starve 3darray
expect ' hipMalloc3DArray \(0x[0-9a-f]+, 0x[0-9a-f]+, \{1024,2048,4\}, 0\) ' \
	3da.err
json 3da hipMalloc3DArray $mib32	# 4-byte elements
for k in hostalloc:hipHostAlloc mallochost:hipMallocHost \
	memallochost:hipMemAllocHost; do
	on_emu ${k%%:*} "$PT/pool_test" starve ${k%%:*}
	expect " ${k#*:} \(0x[0-9a-f]+, $mib32(, 0)?\) ret=0 " ${k%%:*}.err
	json ${k%%:*} ${k#*:} $mib32
done
# hipMallocHost's block goes back through the deprecated hipFreeHost
expect ' hipFreeHost \(0x[0-9a-f]+\) ret=0 \(hipSuccess\) ' mallochost.err
expect '"api":"hipFreeHost","ret":0,.*"ptr":"0x[0-9a-f]*[1-9a-f]' mallochost.json
# hipcc's vecadd asks for device 0's properties.
[ -x "$BUILD/hipemu/vecadd" ] || { echo "vecadd not built"; exit 77; }
HIPEMU_KERNELS=$BUILD/hipemu/libvecadd_twin.so \
	on_emu props "$BUILD/hipemu/vecadd"
expect ' hipGetDeviceProperties \(0x[0-9a-f]+, 0\) ret=0 \(hipSuccess\) ' props.err
expect '"api":"hipGetDeviceProperties",.*"device_id":0' props.json
echo ok
