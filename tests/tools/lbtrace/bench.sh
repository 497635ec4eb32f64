#!/bin/sh
# bench.sh - lbtrace's speed on a generated trace (make bench-lbtrace):
# records per second for summary and print --json (and print), by wall
# time and by CPU time (user + sys: steadier on a busy machine), printed,
# never asserted.  Goals (issue 16): summary >= 60 M records/s, print
# --json >= 5 M/s on one core.  BENCH_RECORDS sets the trace size (10 M:
# a 640 MB file).  `make bench` measures the same, interleaved.
BUILD=${BUILD:-build}
N=${BENCH_RECORDS:-10000000}
D=$BUILD/tests/tools/lbtrace/bench
mkdir -p $D
f=$D/big.lbt
# written by this run: in the page cache as a trace just written is (one
# kept from an earlier run is cached however memory went since)
rm -f $f $D/big.n
"$BUILD/tests/tools/lbtrace/gen_trace" big $f "$N" >/dev/null || exit 1
sync $f # its writeback done, not running beside the timings
for cmd in summary "print --json" print; do
	/usr/bin/time -f "%e %U %S" -o $D/time.txt "$BUILD/lbtrace" $cmd $f >/dev/null ||
		exit 1
	read -r wall user sys <$D/time.txt
	echo "$cmd" "$wall" "$user" "$sys" "$N" | sed 's/print --json/print_--json/' |
	awk '{ cpu = $3 + $4; if (cpu <= 0) cpu = 0.001; if ($2 <= 0) $2 = 0.001
	       printf "bench-lbtrace: %-13s %9d records  wall %7.3f s %7.2f M/s  cpu %7.3f s %7.2f M/s\n",
		      $1, $5, $2, $5 / $2 / 1e6, cpu, $5 / cpu / 1e6 }'
done
