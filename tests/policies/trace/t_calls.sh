# Every call becomes one record with the right API, arguments, result,
# device, stream and kernel name; the header says who wrote the file.
. "$(dirname "$0")/lib.sh"

plain "$PROG" calls >plain.out || fail "plain run failed"
LBSHIM_POLICIES=trace LBSHIM_RUN_ID=42 RANK=3 traced "$PROG" calls \
	>out 2>err || fail "traced run exit $?"
# The program is unaffected: same output but for the pid and handles.
[ "$(grep -v '^pid=' out)" = "$(grep -v '^pid=' plain.out)" ] ||
	fail "output differs under the shim"
[ -s err ] && { cat err; fail "the shim printed something"; }
pid=$(sed -n 's/^pid=//p' out)
d=$(sed -n 's/^d=0x//p' out)
s=$(sed -n 's/^s=0x//p' out)
f=$(sed -n 's/^f=0x//p' out)
file=lbshim.$pid.lbt
[ -f "$file" ] || fail "no $file"
[ "$(stat -c %a "$file")" = 600 ] || fail "mode $(stat -c %a "$file")"
"$DUMP" "$file" >dump || fail "dump failed"

expect "^header version=2 pid=$pid ppid=$$ flags=0x1 " dump
# Format 2: every API's name in the table after the header, the runtime
# (HIP, 1) and its library as the loader opened it; its version is not
# asked under trace alone (the core asks only for stream0 and pool).
n=$(sed -n 's/^header .* api_count=\([0-9]*\) .*/\1/p' dump)
[ "${n:-0}" -gt 200 ] || fail "api_count '$n'"
expect "^runtime kind=1 version=0 known=0 header_size=[0-9]+ names=$n names_len=[0-9]+ lib=.*/trace/fake/libamdhip64\.so\.5$" dump
"$BUILD/lbtrace" summary "$file" >summary 2>&1 || fail "lbtrace summary: exit $?"
expect "^  runtime: HIP, version not known, .*/trace/fake/libamdhip64\.so\.5$" summary
expect "^header .* rank=3 policies=1 run_id=42 .*cmdline=.*tprog calls$" dump
apis=$(sed -n 's/^call .* api=\([^ ]*\) .*/\1/p' dump | tr '\n' ' ')
want="hipSetDevice hipMalloc hipMalloc hipStreamCreate hipMemcpyAsync \
hipMemset __hipRegisterFatBinary __hipRegisterFunction hipLaunchKernel \
hipLaunchKernel hipLaunchKernel hipModuleLoadData hipModuleGetFunction \
hipModuleLaunchKernel hipSetDevice hipDeviceSynchronize hipGetDevice \
hipStreamDestroy hipFree "
[ "$apis" = "$want" ] || fail "calls: $apis"
expect "api=hipMalloc ret=0 dev=0 .* a0=0x$d a1=0x1000 a2=0x0 " dump
expect "api=hipMalloc ret=2 .* a0=0x0 a1=0x20000000000 " dump
expect "api=hipStreamCreate ret=0 .* a0=0x$s " dump
expect "api=hipMemcpyAsync ret=0 dev=0 flags=0 note=1 stream=0x$s used=0x$s a0=0x$d .* a2=0x1000 " dump
expect "api=hipMemset ret=0 .* stream=0x0 used=0x0 a0=0x$d a1=0x7 a2=0x64 " dump
expect "api=__hipRegisterFunction ret=0 .* name=_Z7kernelAv$" dump
[ "$(count "api=hipLaunchKernel .*stream=0x$s .* kernel=_Z7kernelAv shmem=128 grid=2,3,4 block=64,1,1$" dump)" = 2 ] ||
	fail "registered launches"
expect "api=hipLaunchKernel .*stream=0x0 .* kernel=_Z12unregisteredv shmem=0 grid=2,3,4 block=64,1,1$" dump
expect "api=hipModuleGetFunction ret=0 .* a0=0x$f .* name=modkern$" dump
expect "api=hipModuleLaunchKernel ret=0 .* kernel=modkern shmem=0 grid=5,6,7 block=8,9,10$" dump
# The device follows the thread's hipSetDevice calls.
expect "api=hipSetDevice ret=0 dev=2 .* a0=0x2 " dump
expect "api=hipDeviceSynchronize ret=0 dev=2 " dump
expect "api=hipGetDevice ret=0 dev=2 .* a0=0x2 " dump
expect "api=hipFree ret=0 dev=2 .* a0=0x$d " dump
# Time runs forward within the thread, and every call took >= 0 ns.
sed -n 's/^call .* t0=\([0-9]*\).*/\1/p' dump | awk '
	NR > 1 && $1 < prev { bad = 1 } { prev = $1 } END { exit bad }' ||
	fail "t0 goes backwards"
echo ok
