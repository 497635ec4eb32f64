#!/bin/sh
# bench_gpu.sh - the second table of `make bench`: the workloads on
# hipemu with its costs set to a GPU's (the CUDA analogues measured on an
# H200: empty launch 4.1 us, idle sync 1.6 us, malloc+free 84 us, event
# record 0.3 us, event or stream query 1.5 us).  Each
# figure is a policy's overhead per call, median of REPS interleaved
# rounds of the per-round difference against the runtime alone: there a
# policy calls the runtime itself (stream0 its own streams and their
# syncs, the pool its fence events and queries), which is what users pay
# on a GPU.  A second run without the shim (+none2) shows the noise.
# Printed only.
B=${BUILD:-build}
REPS=${BENCH_REPS:-5}
X=$(cd "$B" && pwd)/bench/lbbench
SHIM=$(cd "$B" && pwd)/liblbshim.so
EMU=$(cd "$B" && pwd)/hipemu
TWINS=$(cd "$B" && pwd)/tests/policies/stream0/libs0twins.so
T=$(mktemp -d "${TMPDIR:-/tmp}/lbshim-bgpu.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
export LD_LIBRARY_PATH="$EMU" HIPEMU_KERNELS="$TWINS" HIPEMU_COST_MODE=busy \
	HIPEMU_COST_LAUNCH_NS=4100 HIPEMU_COST_SYNC_NS=1600 \
	HIPEMU_COST_MALLOC_NS=42000 HIPEMU_COST_FREE_NS=42000 \
	HIPEMU_COST_RECORD_NS=300 HIPEMU_COST_QUERY_NS=1500
progress() { [ -t 2 ] && printf "$@" >&2; return 0; }
OPS="launch record query sync pair refree realloc"
POLS="none trace stream0 pool all none2"

for r in $(seq "$REPS"); do
	progress '\r  gpu round %s of %s' "$r" "$REPS"
	for op in $OPS; do
		n=2000
		case $op in pair | refree | realloc) n=300 ;; esac
		for p in $POLS; do
			if [ $p = none ] || [ $p = none2 ]; then
				set -- env
			else
				set -- env LD_PRELOAD="$SHIM" LBSHIM_POLICIES=$p \
					LBSHIM_TRACE="$T/t.lbt"
			fi
			rm -f "$T"/*.lbt
			"$@" "$X" gpu $op $n 2>>"$T/stderr" |
				sed -n 's/.* p50=\([0-9.]*\) .*/\1/p' >>"$T/$op.$p"
		done
	done
done
progress '\r%40s\r' ''
med() { sort -n | awk '{ v[NR] = $1 } END { if (!NR) { print "-"; exit }
	printf "%.2f\n", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# The median of a configuration's rounds, in us (file $T/OP.POLICY).
us() { awk '{ printf "%.2f\n", $1 / 1000 }' "$T/$1" | med; }
echo
echo "on hipemu with a GPU's costs (launch 4.1 us, sync 1.6 us, malloc+free 84 us,"
echo "event record 0.3 us, event or stream query 1.5 us):"
echo "us per call with no shim; then each policy's overhead in us per call"
printf '%-34s %9s' "call (median of the per-call times)" "runtime"
for p in $POLS; do [ $p = none ] || printf ' %9s' "+$p"; done
echo
for op in $OPS; do
	case $op in
	launch) l="empty kernel launch on stream 0" ;;
	record) l="hipEventRecord on stream 0" ;;
	query) l="hipStreamQuery(0), idle" ;;
	sync) l="hipStreamSynchronize(0), idle" ;;
	pair) l="hipMalloc(4 KiB) + hipFree" ;;
	refree) l="hipFree after a launch" ;;
	realloc) l="then hipMalloc(4 KiB)" ;;
	esac
	printf '%-34s %9s' "$l" "$(us "$op.none")"
	for p in $POLS; do
		[ $p = none ] && continue
		printf ' %9s' "$(paste -d' ' "$T/$op.$p" "$T/$op.none" |
			awk '{ printf "%.2f\n", ($1 - $2) / 1000 }' | med)"
	done
	echo
done
echo "(+none2: the runtime alone again, the noise floor of each row; a negative"
echo " overhead beyond it is a call the policy answers without the runtime: the"
echo " pool's hits, stream0's sync of its own idle stream)"
# The pool's own cost where it calls the runtime, beside a launch: its
# free after a launch records a fence event on each stream with work since
# the last fence (here the null stream), its next allocation looks at the
# fences (a query while the oldest is pending).  The pool's own medians.
echo "pool alone, us per call: hipFree after a launch $(us refree.pool) (its fence),"
echo " the next hipMalloc $(us realloc.pool), a hipMalloc + hipFree with no work between"
echo " $(us pair.pool); an empty launch, no shim: $(us launch.none)"
[ -s "$T/stderr" ] && { echo "stderr of the runs:"; sort "$T/stderr" | uniq -c | head -5; }
exit 0
