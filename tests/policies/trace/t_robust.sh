# Bad pointers the runtime never reads (here: the fake runtime ignores
# them) must not make the shim read them either: file and live mode.
. "$(dirname "$0")/lib.sh"

plain "$PROG" badnames >plain.out 2>&1
want=$?
LBSHIM_POLICIES=trace LBSHIM_TRACE=b.lbt LBSHIM_TRACE_LIVE=1 \
	traced "$PROG" badnames >out 2>err
got=$?
[ "$got" = "$want" ] || fail "exit $got, $want without the shim: $(cat err)"
cmp -s out plain.out || fail "output differs"
expect '__hipRegisterFunction \(0x[0-9a-f]+, 0x[0-9a-f]+, 0x8, 0x10, ' err
expect 'hipModuleLoad \(0x[0-9a-f]+, 0x8\) ret=' err
"$DUMP" b.lbt >dump
# The unreadable name is not kept: the runtime is asked instead.
expect "^call .* api=__hipRegisterFunction ret=0 .* name=_Z12unregisteredv$" dump
expect "^call .* api=hipLaunchKernel .* kernel=_Z12unregisteredv " dump
expect "^call .* api=hipModuleLoad ret=301 .* a1=0x0 " dump
echo ok
