#!/bin/sh
# Work the program waited for needs no fence (pool_fence.c, "Syncs"):
# allocate, a kernel on the thread's stream, hipStreamSynchronize or
# hipDeviceSynchronize, free: no free finds pending work; without the
# wait every free does (the kernel still runs), and each waits for it.
. "$(dirname "$0")/lib.sh"
pending() {
	sed -n 's/.*pool: \([0-9]*\) frees found pending work.*/\1/p' "$T/$1.err"
}
for k in stream device none; do
	LBSHIM_LOG=info run "s-$k" pool "$P" syncs $k
done
[ "$(pending s-stream)" = 0 ] ||
	fail "after hipStreamSynchronize: $(pending s-stream) frees found pending work"
[ "$(pending s-device)" = 0 ] ||
	fail "after hipDeviceSynchronize: $(pending s-device) frees found pending work"
n=$(pending s-none)
[ "${n:-0}" -ge 30 ] || fail "without a wait: ${n:-no} of 40 frees found pending work"
echo "pending frees: 0 after a stream sync, 0 after a device sync, $n of 40 without"
