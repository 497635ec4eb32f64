# The launch-level hazard check of remap mode (s0_hz.c): a block handed
# from one thread to another as PyTorch's caching allocator does, read by
# the first thread's pending work and written by the second's, is counted
# once, marked on the writing call's trace record and named in the exit
# line, also when the write follows submissions stream0 answered without
# its hook (shim/fast.h); with an event or a sync between them, or when the ranges do not
# overlap, nothing is counted; LBSHIM_STREAM0_CHECK=off counts nothing,
# and neither does syncs mode (whose device order is the legacy one).
. tests/policies/stream0/lib.sh
P=$D/s0_hz
# touched SCENARIO ORDER: the exit line's launch-level count (0 if none)
touched() {
	n=$(sed -n 's/.* \([0-9]*\) launches, copies or sets touched memory.*/\1/p' "$T/e")
	echo "${n:-0}"
}
# hz SCENARIO ORDER [VAR=VALUE...]: runs it under stream0; stderr in $T/e
hz() {
	s=$1 o=$2
	shift 2
	env "$@" LD_PRELOAD="$SHIM" LBSHIM_POLICIES=stream0 "$P" "$s" "$o" \
		>"$T/o" 2>"$T/e" || { cat "$T/o" "$T/e"; fail "$s $o under stream0"; }
}
for s in copy set; do
	legacy "$P" $s none >"$T/o" 2>&1 || { cat "$T/o"; fail "$s without the policy"; }
	grep -q ": read 7$" "$T/o" || fail "$s without the policy: $(cat "$T/o")"
	hz $s none
	[ "$(touched)" = 1 ] || { cat "$T/e"; fail "$s none: $(touched) touch hazards, want 1"; }
	case $s in copy) api=hipMemsetAsync ;; set) api=hipMemcpy ;; esac
	grep -q "hazards: .*; first in $api " "$T/e" ||
		{ cat "$T/e"; fail "$s none: the exit line names no $api"; }
	echo "$s none: $(touched) hazard, first in $api"
	# the write after submissions the core answered (shim/fast.h)
	hz $s callback
	[ "$(touched)" = 1 ] || { cat "$T/e"; fail "$s callback: $(touched) touch hazards, want 1"; }
	for o in event evsync sync devsync free disjoint; do
		hz $s $o
		[ "$(touched)" = 0 ] || { cat "$T/e"; fail "$s $o: $(touched) touch hazards, want 0"; }
		grep -q ": read 7$" "$T/o" || fail "$s $o: $(cat "$T/o")"
	done
	echo "$s event evsync sync devsync free disjoint: 0 hazards"
	hz $s none LBSHIM_STREAM0_CHECK=off
	grep -q "launches, copies or sets" "$T/e" && [ "$(touched)" != 0 ] &&
		{ cat "$T/e"; fail "$s none with LBSHIM_STREAM0_CHECK=off counted"; }
	hz $s none LBSHIM_STREAM0_MODE=syncs
	[ "$(touched)" = 0 ] || { cat "$T/e"; fail "$s none in syncs mode counted"; }
done
echo "LBSHIM_STREAM0_CHECK=off, syncs mode: 0 hazards"
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
	[ "$(touched)" = 1 ] || { cat "$T/e"; fail "set_spt none: $(touched) touch hazards, want 1"; }
	echo "set_spt none: 1 hazard"
fi
if newer copy evflags; then
	[ "$(touched)" = 0 ] || { cat "$T/e"; fail "copy evflags: $(touched) touch hazards, want 0"; }
	grep -q ": read 7$" "$T/o" || fail "copy evflags: $(cat "$T/o")"
	echo "copy evflags: 0 hazards"
fi
# The mark on the trace record: the writing call, not the reading one.
[ -x "$B/lbtrace" ] || { echo "no $B/lbtrace: trace mark not checked"; exit 0; }
LBSHIM_TRACE=$T/t.lbt LD_PRELOAD=$SHIM LBSHIM_POLICIES=trace,stream0 \
	"$P" copy none >/dev/null 2>"$T/e" || fail "copy none under trace,stream0"
"$B/lbtrace" print --json "$T/t.lbt" >"$T/j" || fail "lbtrace print"
n=$(grep '"api":"hipMemsetAsync"' "$T/j" | grep -c '"hazard":true')
[ "$n" = 1 ] || fail "hipMemsetAsync marked $n times, want 1"
grep '"api":"hipMemcpyAsync"' "$T/j" | grep -q '"hazard":true' &&
	fail "the pending read was marked"
"$B/lbtrace" print "$T/t.lbt" | grep hipMemsetAsync | grep -q '\[hazard\]' ||
	fail "lbtrace print shows no [hazard] on hipMemsetAsync"
echo "trace: hipMemsetAsync marked [hazard]"
exit 0
