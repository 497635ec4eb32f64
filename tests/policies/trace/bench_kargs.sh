#!/bin/sh
# bench_kargs.sh BUILD - the cost a launch's argument record (KARGS) adds
# to a traced launch on the fake runtime (bench_kargs.c): launches of
# kernels with 32, 48 and 100 (cut at 56) bytes of arguments against
# launches of one without a plan, traced into a ring (the record path's
# own cost) and into a file (with the file pages the extra record uses).
# Prints only, never fails.
B=$1
T=$(mktemp -d "${TMPDIR:-/tmp}/lbshim-bench.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
run() { # run LABEL ENV...
	label=$1; shift
	out=$(env LD_LIBRARY_PATH="$B/trace/fake" LD_PRELOAD="$B/liblbshim.so" \
		LBSHIM_POLICIES=trace LBSHIM_TRACE="$T/k.lbt" "$@" \
		"$B/trace/bench_kargs" "$B/trace/tkargs.fatbin" 20000)
	rm -f "$T/k.lbt"
	val() { echo " $out" | sed -n "s/.* $1=\([0-9.]*\).*/\1/p"; }
	awk -v l="$label" -v n="$(val none_ns)" -v s="$(val scale_ns)" \
	    -v m="$(val mix_ns)" -v b="$(val big_ns)" 'BEGIN {
		printf "bench-kargs: %s: launch without arguments recorded %.1f ns; added by the arguments: %.1f ns (32 B in 4 args), %.1f ns (48 B in 7), %.1f ns (100 B, cut at 56) (goal: <= 10 ns for <= 64 B)\n", l, n, s - n, m - n, b - n
	}'
}
run "ring 1M" LBSHIM_TRACE_RING=1M
run "file"
