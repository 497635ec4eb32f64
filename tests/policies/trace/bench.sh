#!/bin/sh
# bench.sh BUILD - the trace policy's cost per call over the shim's
# pass-through, on the fake runtime (tests/policies/trace/fakehip.c), in a tight
# loop and paced (~1 us between calls, a real HIP call's rate).  Each run
# is its own process with its own file.  Prints only, never fails.
B=$1
FAKE=$B/trace/fake
PROG=$B/trace/bench_trace
SHIM=$B/liblbshim.so
T=$(mktemp -d "${TMPDIR:-/tmp}/lbshim-bench.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
val() { echo " $1" | sed -n "s/.* $2=\([0-9.]*\).*/\1/p"; }
run() { # run NAME ARGS... (env before)
	name=$1; shift
	rm -f "$T"/*.lbt
	env LD_LIBRARY_PATH="$FAKE" LD_PRELOAD="$SHIM" "$@"
}

pass=$(run pass "$PROG" 7 1000000)
pass_p=$(run pass "$PROG" 1 2000000 paced)
file=$(run file LBSHIM_POLICIES=trace LBSHIM_TRACE="$T/b.lbt" "$PROG" 7 1000000)
size=$(stat -c %s "$T/b.lbt" 2>/dev/null || echo 0)
file_p=$(run file LBSHIM_POLICIES=trace LBSHIM_TRACE="$T/b.lbt" "$PROG" 1 2000000 paced)
ring=$(run ring LBSHIM_POLICIES=trace LBSHIM_TRACE="$T/r.lbt" LBSHIM_TRACE_RING=1M \
	"$PROG" 7 1000000)
ring_p=$(run ring LBSHIM_POLICIES=trace LBSHIM_TRACE="$T/r.lbt" LBSHIM_TRACE_RING=1M \
	"$PROG" 1 2000000 paced)
for l in "pass-through:$pass" "pass-through paced:$pass_p" "trace:$file" \
	 "trace paced:$file_p" "trace ring 1M:$ring" "trace ring paced:$ring_p"; do
	echo "bench-trace: ${l%%:*}: ${l#*:}"
done
awk -v p="$(val "$pass" mean_ns)" -v t="$(val "$file" mean_ns)" \
    -v r="$(val "$ring" mean_ns)" \
    -v pp="$(val "$pass_p" paced_p50_ns)" -v tp="$(val "$file_p" paced_p50_ns)" \
    -v pm="$(val "$pass_p" paced_mean_ns)" -v tm="$(val "$file_p" paced_mean_ns)" \
    -v p99="$(val "$file_p" paced_p99_ns)" -v rp="$(val "$ring_p" paced_mean_ns)" \
    -v s="$size" -v n="$(val "$file" calls)" 'BEGIN {
	printf "bench-trace: added per traced call, paced: median %.1f ns, mean %.1f ns (ring: %.1f); p99 of a traced call %.1f ns (goal: <= 25 ns added, p99 < 100 ns)\n", tp - pp, tm - pm, rp - pm, p99
	printf "bench-trace: added per call, tight loop: %.1f ns (file: includes the kernel supplying fresh file pages), %.1f ns (ring)\n", t - p, r - p
	if (n > 0) printf "bench-trace: %.1f bytes per record (%d bytes for %d calls)\n", s / n, s, n
}'
