# bench.sh - bench-stream0: the ns a remapped call adds, and the IMU
# thread's sync latency with and without the policy.  Printed only.
. tests/policies/stream0/lib.sh
export HIPEMU_COST_MALLOC_NS=0 HIPEMU_COST_FREE_NS=0 HIPEMU_COST_LAUNCH_NS=0 \
	HIPEMU_COST_SYNC_NS=0
echo "bench-stream0 (hipemu, zero costs)"
LD_PRELOAD= "$D/s0_bench" calls >"$T/raw" || fail "calls without the shim"
legacy "$D/s0_bench" calls >"$T/none" || fail "calls without the policy"
perthread "$D/s0_bench" calls >"$T/s0" || fail "calls under stream0"
v() { sed -n "s/^calls $2 \([0-9.]*\) ns/\1/p" "$1"; }
printf '  %-34s %10s %10s %10s\n' "ns per call" "no shim" "no policy" "stream0"
for c in "GetFlags user" "GetFlags null" "Query user" "Query null"; do
	printf '  %-34s %10s %10s %10s\n' "$c" "$(v "$T/raw" "$c")" \
		"$(v "$T/none" "$c")" "$(v "$T/s0" "$c")"
done
awk -v a="$(v "$T/s0" "GetFlags user")" -v b="$(v "$T/s0" "GetFlags null")" \
	'BEGIN { printf "  added per remapped call (GetFlags null - user, stream0): %.1f ns\n", b - a }'
echo "  two threads, camera 30 ms kernels on the null stream:"
legacy "$D/s0_bench" imu | sed 's/^/    without the policy: /'
perthread "$D/s0_bench" imu | sed 's/^/    under stream0:      /'
exit 0
