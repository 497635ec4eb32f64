# A hipcc-built program on hipemu: its registration, launch (with the
# kernel's mangled name, grid, block and stream) and copies are recorded,
# and it computes the same result as without the shim.
. "$(dirname "$0")/lib.sh"

EMU=${EMU_DIR:-$BUILD/hipemu}
[ -f "$EMU/libamdhip64.so.5" ] && [ -x "$BUILD/trace/tkern" ] ||
	{ echo "hipemu or hipcc not built"; exit 77; }
export HIPEMU_KERNELS=$BUILD/trace/libtkern_twin.so
LD_LIBRARY_PATH=$EMU "$BUILD/trace/tkern" >plain.out 2>&1 || fail "plain: $(cat plain.out)"
LBSHIM_POLICIES=trace LBSHIM_TRACE=k.lbt LD_LIBRARY_PATH=$EMU LD_PRELOAD="$SHIM" \
	"$BUILD/trace/tkern" >out 2>err || fail "traced: exit $? $(cat out err)"
cmp -s out plain.out || fail "output differs: $(cat out)"
expect "^sum=768.0$" out
"$DUMP" k.lbt >dump
expect "^call .* api=__hipRegisterFunction ret=0 .* name=_Z5scalePffi$" dump
s=$(sed -n 's/^call .* api=hipStreamCreate ret=0 .* a0=\(0x[0-9a-f]*\) .*/\1/p' dump)
[ -n "$s" ] || fail "no stream"
expect "^call .* api=__hipPushCallConfiguration ret=0 .* stream=$s used=$s a0=0x0 a1=0x100000004 a2=0x1000100400001 " dump
expect "^call .* api=hipLaunchKernel ret=0 .* stream=$s used=$s .* kernel=_Z5scalePffi shmem=0 grid=4,1,1 block=64,1,1$" dump
expect "^call .* api=hipMemcpy ret=0 .* note=2 .* a2=0x400 " dump
expect "^call .* api=hipStreamSynchronize ret=0 .* stream=$s " dump
expect "^header .* flags=0x1 " dump
echo ok
