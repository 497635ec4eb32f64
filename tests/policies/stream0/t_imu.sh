# Two threads: the IMU thread's hipStreamSynchronize(0) waits for the camera
# thread's 300 ms kernel without the policy, not under stream0 (at least
# 10 times shorter); the count of narrowed syncs says so at
# LBSHIM_LOG=info.
. tests/policies/stream0/lib.sh
both imu
# The IMU's 10 ms of kernels against the camera's 300 ms one: its sync is
# at least 10 times shorter than on the legacy stream (about 30 times on
# an idle machine), also with the launch-level check ordering nothing
# here (the two threads share no memory).
ms() { sed -n 's/^imu sync \([0-9.]*\) ms.*/\1/p' "$1"; }
awk -v a="$(ms "$T/legacy.out")" -v b="$(ms "$T/pt.out")" \
	'BEGIN { exit !(b > 0 && a / b >= 10) }' ||
	fail "IMU sync $(ms "$T/pt.out") ms under stream0, $(ms "$T/legacy.out") ms legacy: not 10 times shorter"
grep -q "dependencies on other threads' pending work ordered" "$T/pt.err" &&
	grep -q "stream0: [1-9][0-9]* dependencies" "$T/pt.err" &&
	fail "the IMU was ordered after the camera"
LBSHIM_LOG=info perthread "$D/s0_test" imu perthread >/dev/null 2>"$T/info" ||
	{ cat "$T/info"; fail "imu at LBSHIM_LOG=info"; }
cat "$T/info"
grep -q 'stream0: thread [0-9]*: [1-9][0-9]* of [0-9]* null-stream syncs' "$T/info" ||
	fail "no thread with a nonzero hazard count"
grep -q 'stream0: 2 threads, [1-9][0-9]* of ' "$T/info" ||
	fail "no nonzero total"
exit 0
