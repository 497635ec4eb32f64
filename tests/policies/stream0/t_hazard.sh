# The launch-level check of remap mode (s0_hz.c): a block handed from one
# thread to another as PyTorch's caching allocator does, read by the first
# thread's pending work and written by the second's, is a dependency that
# the shim orders: the writing call's stream waits for the reader's, so A
# reads 7 as on the legacy stream (today's check only counted it, and A
# read 9).  It is counted once as ordered, marked "ordered" on the writing
# call's trace record, and no hazard line is printed; also when the write
# follows submissions stream0 answered without its hook (shim/fast.h).
# With an event or a sync between them, or when the ranges do not
# overlap, nothing is ordered.  Only a dependency that cannot be ordered
# (the runtime refuses the wait) is a hazard, named in the exit line.
# LBSHIM_STREAM0_CHECK=off orders and counts nothing, and neither does
# syncs mode (whose device order is the legacy one).
. tests/policies/stream0/lib.sh
P=$D/s0_hz
# touched: the exit line's count of hazards (0 if none)
touched() {
	n=$(sed -n 's/.* \([0-9]*\) launches, copies or sets touched memory.*/\1/p' "$T/e")
	echo "${n:-0}"
}
# ordered: the exit line's count of dependencies ordered (0 if none)
ordered() {
	n=$(sed -n "s/.*stream0: \([0-9]*\) dependencies on other threads' pending work ordered.*/\1/p" "$T/e")
	echo "${n:-0}"
}
# hz SCENARIO ORDER [VAR=VALUE...]: runs it under stream0; stderr in $T/e
hz() {
	s=$1 o=$2
	shift 2
	env "$@" LD_PRELOAD="$SHIM" LBSHIM_POLICIES=stream0 "$P" "$s" "$o" \
		>"$T/o" 2>"$T/e" || { cat "$T/o" "$T/e"; fail "$s $o under stream0"; }
}
NOWAIT=HIPEMU_FAIL=hipStreamWaitEvent:1+:hipErrorInvalidHandle
for s in copy set; do
	legacy "$P" $s none >"$T/o" 2>&1 || { cat "$T/o"; fail "$s without the policy"; }
	grep -q ": read 7$" "$T/o" || fail "$s without the policy: $(cat "$T/o")"
	case $s in copy) api=hipMemsetAsync ;; set) api=hipMemcpy ;; esac
	# none, and the write after submissions the core answered (fast.h)
	for o in none callback; do
		hz $s $o
		grep -q ": read 7$" "$T/o" || { cat "$T/e"; fail "$s $o: $(cat "$T/o")"; }
		[ "$(ordered)" = 1 ] || { cat "$T/e"; fail "$s $o: $(ordered) ordered, want 1"; }
		grep -q "hazards:" "$T/e" && { cat "$T/e"; fail "$s $o: a hazard line"; }
	done
	echo "$s none callback: read 7, 1 dependency ordered, no hazard"
	for o in event evsync sync devsync free disjoint; do
		hz $s $o
		[ "$(ordered)" = 0 ] && [ "$(touched)" = 0 ] ||
			{ cat "$T/e"; fail "$s $o: $(ordered) ordered, $(touched) hazards, want 0"; }
		grep -q ": read 7$" "$T/o" || fail "$s $o: $(cat "$T/o")"
	done
	echo "$s event evsync sync devsync free disjoint: nothing ordered"
	# the runtime refuses the wait: the dependency stays a hazard
	hz $s none $NOWAIT
	[ "$(touched)" = 1 ] || { cat "$T/e"; fail "$s none, no wait: $(touched) hazards, want 1"; }
	grep -q "hazards: .*; first in $api " "$T/e" ||
		{ cat "$T/e"; fail "$s none: the exit line names no $api"; }
	echo "$s none, wait refused: 1 hazard, first in $api"
	hz $s none LBSHIM_STREAM0_CHECK=off
	[ "$(ordered)" = 0 ] && [ "$(touched)" = 0 ] ||
		{ cat "$T/e"; fail "$s none with LBSHIM_STREAM0_CHECK=off counted"; }
	hz $s none LBSHIM_STREAM0_MODE=syncs
	[ "$(ordered)" = 0 ] && [ "$(touched)" = 0 ] ||
		{ cat "$T/e"; fail "$s none in syncs mode counted"; }
	grep -q ": read 7$" "$T/o" || fail "$s none in syncs mode: $(cat "$T/o")"
done
echo "LBSHIM_STREAM0_CHECK=off, syncs mode: nothing ordered or counted"
# Rows of later releases, where the runtime has them (a profile): the
# read of hipMemcpy2DAsync_spt (5.3) is checked, hipEventRecordWithFlags
# (6.4) orders like hipEventRecord.
newer() {
	LD_PRELOAD="$SHIM" LBSHIM_POLICIES=stream0 "$P" "$1" "$2" >"$T/o" 2>"$T/e"
	rc=$?
	[ $rc = 77 ] && { cat "$T/o"; return 1; }
	[ $rc = 0 ] || { cat "$T/o" "$T/e"; fail "$1 $2 under stream0"; }
}
if newer set_spt none; then
	[ "$(ordered)" = 1 ] || { cat "$T/e"; fail "set_spt none: $(ordered) ordered, want 1"; }
	grep -q ": read 7$" "$T/o" || fail "set_spt none: $(cat "$T/o")"
	echo "set_spt none: 1 ordered"
fi
if newer copy evflags; then
	[ "$(ordered)" = 0 ] || { cat "$T/e"; fail "copy evflags: $(ordered) ordered, want 0"; }
	grep -q ": read 7$" "$T/o" || fail "copy evflags: $(cat "$T/o")"
	echo "copy evflags: nothing ordered"
fi
# The marks on the trace records: the writing call, not the reading one;
# "ordered" for a dependency ordered, "hazard" for one that could not be.
[ -x "$B/lbtrace" ] || { echo "no $B/lbtrace: trace mark not checked"; exit 0; }
mark() {
	rm -f "$T/t.lbt"
	env "$@" LBSHIM_TRACE="$T/t.lbt" LD_PRELOAD="$SHIM" LBSHIM_POLICIES=trace,stream0 \
		"$P" copy none >/dev/null 2>"$T/e" || fail "copy none under trace,stream0: $(cat "$T/e")"
	"$B/lbtrace" print --json "$T/t.lbt" >"$T/j" || fail "lbtrace print"
	"$B/lbtrace" print "$T/t.lbt" >"$T/txt" || fail "lbtrace print"
}
mark
n=$(grep '"api":"hipMemsetAsync"' "$T/j" | grep -c '"ordered":true')
[ "$n" = 1 ] || fail "hipMemsetAsync marked ordered $n times, want 1"
grep -q '"hazard":true' "$T/j" && fail "a call marked hazard"
grep '"api":"hipMemcpyAsync"' "$T/j" | grep -q '"ordered":true' &&
	fail "the pending read was marked"
grep hipMemsetAsync "$T/txt" | grep -q '\[ordered\]' ||
	fail "lbtrace print shows no [ordered] on hipMemsetAsync"
"$B/lbtrace" summary "$T/t.lbt" >"$T/sum" || fail "lbtrace summary"
grep -q "stream0: 1 call ordered after work it depends on, 0 hazards" "$T/sum" ||
	{ cat "$T/sum"; fail "lbtrace summary: no stream0 line"; }
echo "trace: hipMemsetAsync marked [ordered], summary counts it"
mark "$NOWAIT"
n=$(grep '"api":"hipMemsetAsync"' "$T/j" | grep -c '"hazard":true')
[ "$n" = 1 ] || fail "wait refused: hipMemsetAsync marked hazard $n times, want 1"
grep hipMemsetAsync "$T/txt" | grep -q '\[hazard\]' ||
	fail "lbtrace print shows no [hazard] on hipMemsetAsync"
echo "trace, wait refused: hipMemsetAsync marked [hazard]"
exit 0
