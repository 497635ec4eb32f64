#!/bin/sh
# t_gpu_policies.sh - the policies on CUDA, with the GPU suite's programs
# (tests/gpu/progs, shared cudart) on hipemu's CUDA face: what make
# check-gpu shows on the GPU, shown here on the CPU.
#   - twothread under stream0: the IMU's median sync at least 10 times
#     shorter than on the legacy stream (15 ms against some 0.03 ms on
#     this machine: the margin is wide), both threads' results right,
#     every IMU launch remapped (stream=0x0->S in the trace);
#   - poolloop under pool: every result right, every allocation after
#     the first served by the pool (pool=hit), and no free fenced: each
#     comes after a synchronous copy to the host that waited for the
#     step's kernel;
#   - reuse under pool: no sum wrong although each freed block's kernel
#     still runs when the next allocation comes; the pool hands blocks
#     back (an allocation returns a block an earlier round freed), but
#     never one whose kernel still runs (same_block=0: the fence);
#   - handoff under stream0: a block handed to another thread with no
#     event, written by its kernel or a set while the first thread's
#     kernel still reads it: ordered, every sum right; apart: nothing
#     ordered;
#   - callcost under trace: its put<<<>>>(p, 7) records its arguments,
#     laid out by the driver and typed by put's signature;
#   - fault under trace and under all three: lbtrace crash names
#     bad_store as the last launch before the sync in flight (or, where
#     the face ran the kernel before its launch returned, the launch is
#     in flight and the fault's frame is bad_store's twin).
. tests/gpu/lib.sh
# under POLICIES NAME CMD...: CMD under the shim, its trace in NAME.lbt
under() {
	p=$1 n=$2
	shift 2
	LBSHIM_POLICIES=$p LBSHIM_TRACE=$TMP/$n.lbt LD_PRELOAD=$SHIM \
		on_face "$@"
}
# json NAME: the trace's records, one JSON object a line
json() { "$LBTRACE" print --json "$TMP/$1.lbt"; }

# ---- the two-thread case ----
on_face "$G/twothread_shared" 20 20 >"$TMP/two" 2>&1 ||
	fail "twothread: rc $? $(cat "$TMP/two")"
under stream0,trace two "$G/twothread_shared" 20 20 >"$TMP/two.s0" 2>&1 ||
	fail "twothread under stream0: rc $? $(cat "$TMP/two.s0")"
grep -q 'imu_ok=1 cam_ok=1' "$TMP/two.s0" ||
	fail "twothread under stream0: results $(cat "$TMP/two.s0")"
leg=$(val "$TMP/two" imu_sync_p50_ms)
s0=$(val "$TMP/two.s0" imu_sync_p50_ms)
awk -v l="$leg" -v s="$s0" 'BEGIN { exit !(s * 10 <= l) }' ||
	fail "twothread: IMU sync p50 $s0 ms under stream0, $leg ms legacy: not 10x shorter"
json two | grep '"api":"__cudaLaunchKernel"' | grep 'imu_step' >"$TMP/imu"
n=$(grep -c . "$TMP/imu")
[ "$n" = 20 ] || fail "twothread: $n IMU launches recorded, want 20"
r=$(grep -c '"stream":"0x0","stream_used":"0x[1-9a-f]' "$TMP/imu")
[ "$r" = 20 ] || fail "twothread: $r of 20 IMU launches remapped: $(head -1 "$TMP/imu")"
echo "twothread: IMU sync p50 $leg ms legacy, $s0 ms under stream0"

# ---- the pool's hot loop ----
under pool,trace loop "$G/poolloop_shared" 300 4096 >"$TMP/loop" 2>&1 ||
	fail "poolloop under pool: rc $? $(cat "$TMP/loop")"
[ "$(val "$TMP/loop" wrong)" = 0 ] || fail "poolloop: $(cat "$TMP/loop")"
hits=$(json loop | grep '"api":"cudaMalloc"' | grep -c '"pool":"hit"')
[ "$hits" -ge 299 ] || fail "poolloop: $hits of 300 cudaMalloc served by the pool"
# Each step's synchronous copy to the host waited for the step's kernel:
# no free found pending work, so none recorded a fence (pool_fence.c,
# "Syncs"); reuse below, whose frees come while kernels run, finds it.
LBSHIM_LOG=info under pool loop2 "$G/poolloop_shared" 300 4096 >"$TMP/loop2" 2>&1 ||
	fail "poolloop under pool: rc $? $(cat "$TMP/loop2")"
grep -q 'pool: 0 frees found pending work' "$TMP/loop2" ||
	fail "poolloop: frees after a synchronous copy fenced: $(grep 'pending' "$TMP/loop2")"
echo "poolloop: wrong=0, $hits of 300 allocations from the pool, no fence after a sync"

# ---- reuse under asynchronous kernels ----
under pool,trace reuse "$G/reuse_shared" 10 65536 >"$TMP/reuse" 2>&1 ||
	fail "reuse under pool: rc $? $(cat "$TMP/reuse")"
[ "$(val "$TMP/reuse" wrong)" = 0 ] || fail "reuse: $(cat "$TMP/reuse")"
[ "$(val "$TMP/reuse" same_block)" = 0 ] ||
	fail "reuse: a block handed back while its kernel ran: $(cat "$TMP/reuse")"
LBSHIM_LOG=info under pool reuse2 "$G/reuse_shared" 10 65536 >"$TMP/reuse2" 2>&1
n=$(sed -n 's/.*pool: \([0-9]*\) frees found pending work.*/\1/p' "$TMP/reuse2")
[ "${n:-0}" -ge 5 ] && [ "$(val "$TMP/reuse2" wrong)" = 0 ] ||
	fail "reuse: ${n:-no} frees found pending work (no sync before them): $(cat "$TMP/reuse2")"
# blocks handed back: an allocation's pointer that an earlier free freed
json reuse | grep '"api":"cuda\(Malloc\|Free\)"' |
	sed 's/.*"api":"\([a-zA-Z]*\)".*"ptr":"\([^"]*\)".*/\1 \2/' |
	awk '$1 == "cudaFree" { f[$2] = 1 } $1 == "cudaMalloc" && f[$2] { n++ }
	     END { print n + 0 }' >"$TMP/back"
[ "$(cat "$TMP/back")" -ge 5 ] ||
	fail "reuse: only $(cat "$TMP/back") blocks handed back by the pool"
echo "reuse: wrong=0, $(cat "$TMP/back") blocks handed back, none while its kernel ran"

# ---- a launch's arguments, laid out by the driver ----
# callcost's last launch, put<<<>>>(p, 7) by the cudaKernel_t of nvcc 13's
# stub: the trace asks the face for put's layout (shim/kreg.c,
# lb_kp_rt_plan: cudaGetFuncBySymbol, cuFuncGetParamInfo; the face's
# runtime calls cuInit, which its driver wants first, as the real cudart
# does) and lbtrace types the words by put's signature
under trace cc "$G/callcost_shared" 100 >"$TMP/cc" 2>&1 ||
	fail "callcost under trace: rc $? $(cat "$TMP/cc")"
"$LBTRACE" print "$TMP/cc.lbt" | grep -q '__cudaLaunchKernel(kernel=put(int\* 0x[0-9a-f]*, int 7),' ||
	fail "put's arguments: $("$LBTRACE" print "$TMP/cc.lbt" | grep 'kernel=put')"
echo "callcost: put's launch records its arguments (int* 0x..., int 7)"

# ---- a block handed to another thread with no event ----
# handoff: thread A's pending slow_sum reads X; thread B, handed X with no
# event (PyTorch's caching allocator's reuse), writes it on the null
# stream.  Under stream0 each thread has its own stream: the check must
# order B's write behind A's read, for a kernel's pointer argument (the
# layout from the face's driver, shim/kreg.c lb_kp_rt_plan) as for a
# set; B's own block (apart) orders nothing.  Fails with the kernel's
# pointers unread (wrong sums, 0 ordered).
for m in kernel set apart; do
	LBSHIM_LOG=info under stream0 ho "$G/handoff_shared" $m 5 >"$TMP/ho" 2>&1 ||
		fail "handoff $m under stream0: rc $? $(cat "$TMP/ho")"
	[ "$(val "$TMP/ho" wrong)" = 0 ] || fail "handoff $m: $(grep handoff: "$TMP/ho")"
	n=$(sed -n "s/.*stream0: \([0-9]*\) dependencies on other threads' pending work ordered,.*/\1/p" "$TMP/ho")
	case $m in apart) want=0 ;; *) want=5 ;; esac
	[ "${n:-0}" = $want ] || fail "handoff $m: ${n:-no} dependencies ordered, want $want: $(cat "$TMP/ho")"
	! grep -q 'hazard' "$TMP/ho" || fail "handoff $m: a hazard: $(cat "$TMP/ho")"
done
echo "handoff: kernel and set 5 of 5 ordered, apart 0; every sum right"
# The shim's own cudaGetFuncBySymbol (a kernel's layout) failing must not
# show in the program's cudaGetLastError after its launch, under the
# trace alone too, whose calls lasterr.c keeps no shadow of (rt_cuda.c,
# lb_cu_own_failed): handoff checks it after each launch (exit 3)
for p in trace stream0 trace,stream0,pool; do
	HIPEMU_FAIL=cudaGetFuncBySymbol:1:hipErrorInvalidDeviceFunction \
		under $p hof "$G/handoff_shared" set 2 >"$TMP/hof" 2>&1 ||
		fail "the shim's failed layout query under $p: rc $? $(cat "$TMP/hof")"
done
echo "handoff: a failed layout query leaves the program's last error alone"

# ---- a fault, explained ----
for p in trace trace,stream0,pool; do
	rm -f "$TMP/fault.lbt"
	under $p fault "$G/fault_shared" >"$TMP/fault" 2>&1
	rc=$?
	[ $rc = 139 ] || fail "fault under $p: rc $rc, want 139: $(cat "$TMP/fault")"
	"$LBTRACE" crash "$TMP/fault.lbt" >"$TMP/crash" 2>&1 ||
		fail "lbtrace crash under $p: $(cat "$TMP/crash")"
	grep -q 'SIGSEGV' "$TMP/crash" || fail "fault under $p: no signal: $(cat "$TMP/crash")"
	last=$(grep '__cudaLaunchKernel' "$TMP/crash" | tail -1)
	case $last in
	*'kernel=bad_store(int* 0x'*) ;;
	*'in flight'*)
		# hipemu's worker may run the kernel, and fault, before the
		# launch returns: then the launch is the call in flight (its
		# record has no kernel yet) and the fault's frame is the
		# kernel's twin
		grep -q 'twin__Z9bad_storePi' "$TMP/crash" ||
			fail "fault under $p: in the launch, no bad_store: $(cat "$TMP/crash")" ;;
	*) fail "fault under $p: the last launch is not bad_store: $last" ;;
	esac
	grep -q 'in flight' "$TMP/crash" || fail "fault under $p: no call in flight"
done
echo "fault: lbtrace crash names bad_store under trace and all three"
