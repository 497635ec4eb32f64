# Under stream0 and pool (on hipemu) the records show what they did: the
# stream used, REMAPPED, SERVED, the pool's note, the header's policy bits.
. "$(dirname "$0")/lib.sh"

EMU=${EMU_DIR:-$BUILD/hipemu}
[ -f "$EMU/libamdhip64.so.5" ] || { echo "hipemu not built"; exit 77; }
run() { env "$@" LD_LIBRARY_PATH="$EMU" LD_PRELOAD="$SHIM" "$PROG" async; }

if [ -d "$OLDPWD/policies/stream0" ] || nm "$SHIM" | grep -q lb_policy_stream0; then
	run LBSHIM_POLICIES=trace,stream0 LBSHIM_TRACE=s.lbt 2>err || fail "stream0: exit $?"
	"$DUMP" s.lbt >s.dump
	expect "^header .* policies=3 " s.dump
	# the soname (.so.5) tells the last-error rule: the core did not ask
	# the runtime its version (that would start it before the program)
	expect "^header .* flags=0x1 " s.dump
	expect "^runtime kind=1 version=0 known=0 .* lib=$EMU/libamdhip64\.so\.5$" s.dump
	"$BUILD/lbtrace" summary s.lbt >s.sum 2>&1 || fail "lbtrace summary: exit $?"
	expect "^  runtime: HIP, version not known, $EMU/libamdhip64\.so\.5$" s.sum
	expect "^call .* api=hipMemsetAsync ret=0 .* flags=1 note=0 stream=0x0 used=0x[1-9a-f][0-9a-f]* " s.dump
	expect "^call .* api=hipStreamSynchronize ret=0 .* flags=1 .* stream=0x0 used=0x[1-9a-f]" s.dump
	expect "^call .* api=hipMalloc ret=0 .* flags=0 .* stream=0x0 used=0x0 " s.dump
fi
if nm "$SHIM" | grep -q lb_policy_pool; then
	run LBSHIM_POLICIES=trace,pool LBSHIM_TRACE=p.lbt 2>err || fail "pool: exit $?"
	"$DUMP" p.lbt >p.dump
	expect "^header .* policies=5 " p.dump
	expect "^runtime kind=1 version=0 known=0 " p.dump
	expect "^call .* api=hipMalloc ret=0 .* flags=2 note=[12] .* a0=0x[1-9a-f]" p.dump
	expect "^call .* api=hipFree ret=0 .* flags=2 note=[12] " p.dump
fi
run LBSHIM_POLICIES=trace LBSHIM_TRACE=t.lbt 2>err || fail "trace: exit $?"
"$DUMP" t.lbt >t.dump
expect "^call .* api=hipMalloc ret=0 dev=0 flags=0 note=0 " t.dump
# trace alone never calls the runtime for itself: no version
expect "^runtime kind=1 version=0 known=0 " t.dump
expect "^call .* api=hipMemsetAsync ret=0 .* flags=0 note=0 stream=0x0 used=0x0 " t.dump
echo ok
