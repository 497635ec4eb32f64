#!/bin/sh
# t_gpu_cpu.sh - the GPU suite's programs (tests/gpu/progs, the shared
# cudart builds of make gpu-bundle) on hipemu's CUDA face: the CPU
# counterpart of make check-gpu.  Each program's own checks must hold,
# and each must measure what the suite reads: the two-thread case's IMU
# waits behind the camera on the legacy stream; the pool loop and the
# reuse case compute every result right; the fault kills the process
# (on hipemu the twin's bad store is a CPU fault).
. tests/gpu/lib.sh

# The two-thread case: 20 IMU steps, 20 ms camera kernels.  On the legacy
# stream each IMU sync waits for the camera's kernel in flight, so the
# median wait is milliseconds (a lone IMU kernel is microseconds here).
on_face "$G/twothread_shared" 20 20 >"$TMP/two" 2>&1 ||
	fail "twothread: rc $? $(cat "$TMP/two")"
grep -q 'imu_ok=1 cam_ok=1' "$TMP/two" || fail "twothread results: $(cat "$TMP/two")"
p50=$(val "$TMP/two" imu_sync_p50_ms)
awk -v p="$p50" 'BEGIN { exit !(p >= 1) }' ||
	fail "twothread: the IMU's median sync is $p50 ms on the legacy stream: it should wait behind the camera's 20 ms kernels"

on_face "$G/poolloop_shared" 300 4096 >"$TMP/pool" 2>&1 ||
	fail "poolloop: rc $? $(cat "$TMP/pool")"
[ "$(val "$TMP/pool" wrong)" = 0 ] || fail "poolloop: $(cat "$TMP/pool")"

on_face "$G/reuse_shared" 5 65536 >"$TMP/reuse" 2>&1 ||
	fail "reuse: rc $? $(cat "$TMP/reuse")"
[ "$(val "$TMP/reuse" wrong)" = 0 ] || fail "reuse: $(cat "$TMP/reuse")"

on_face "$G/launch_shared" 200 >"$TMP/launch" 2>&1 ||
	fail "launch: rc $? $(cat "$TMP/launch")"
grep -q 'mean_us=' "$TMP/launch" || fail "launch: $(cat "$TMP/launch")"

on_face "$G/fault_shared" >"$TMP/fault" 2>&1
rc=$?
# 139: SIGSEGV of the twin's store (128 + 11); the program never got to
# its own abort() (134) or to exit 4 (no fault reported).
[ $rc = 139 ] || fail "fault: rc $rc, want 139 (SIGSEGV): $(cat "$TMP/fault")"
echo "PASS: the GPU suite's programs on hipemu's CUDA face"
