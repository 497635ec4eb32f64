# Two threads: the IMU thread's hipStreamSynchronize(0) waits for the camera
# thread's 300 ms kernel without the policy, not under stream0; the hazard
# count says so at LBSHIM_LOG=info.
. tests/policies/stream0/lib.sh
both imu
LBSHIM_LOG=info perthread "$D/s0_test" imu perthread >/dev/null 2>"$T/info" ||
	{ cat "$T/info"; fail "imu at LBSHIM_LOG=info"; }
cat "$T/info"
grep -q 'stream0: thread [0-9]*: [1-9][0-9]* of [0-9]* null-stream syncs' "$T/info" ||
	fail "no thread with a nonzero hazard count"
grep -q 'stream0: 2 threads, [1-9][0-9]* of ' "$T/info" ||
	fail "no nonzero total"
exit 0
