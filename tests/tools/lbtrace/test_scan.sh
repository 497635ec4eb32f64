#!/bin/sh
# The statistics' pass reads a trace in the file's order, the threads'
# blocks interleaved, with the scan riding along (lbtrace summary); it
# must find what the scan in thread order finds (scan_test.c): on each
# generated trace, on the same with its threads' blocks woven the other
# way round, and on two threads of crashes whose frames cross blocks
# (40 crashes, and 90: more than the 64 a file keeps).  And the reads of
# the block headers at open (one io_uring) against pread.
BUILD=${BUILD:-build}
G=$BUILD/tests/tools/lbtrace/gen_trace
S=$BUILD/tests/tools/lbtrace/scan_test
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
rc=0
for k in basic crash crashreg hang term kargs ring remap truncated; do
	"$G" $k "$W/$k.lbt" || exit 1
	"$S" weave "$W/$k.lbt" "$W/$k.w.lbt" || exit 1
	for f in "$W/$k.lbt" "$W/$k.w.lbt"; do
		"$S" compare "$f" 2>"$W/err" ||
			{ echo "FAIL: $k ($f)"; cat "$W/err"; rc=1; }
	done
done
for n in 20 45; do
	"$S" crashes "$W/basic.lbt" "$W/c$n.lbt" $n || exit 1
	"$S" compare "$W/c$n.lbt" ||
		{ echo "FAIL: crashes $n"; rc=1; }
	# and lbtrace lists them in thread order
	"${LBTRACE:-$BUILD/lbtrace}" crash "$W/c$n.lbt" |
		sed -n 's/^thread: \([0-9]*\) .*/\1/p' | uniq -c >"$W/threads"
	[ "$(wc -l <"$W/threads")" = 2 ] ||
		{ echo "FAIL: crashes $n: threads not in order"; cat "$W/threads"; rc=1; }
done
# the block headers' reads at open: the same bytes through the ring and
# through pread, zeros past the end
"$S" strided "$W/basic.lbt" || { echo "FAIL: strided reads"; rc=1; }
[ $rc = 0 ] && echo "ok: both scans agree"
exit $rc
