# A thread's blocking user stream and its null stream: the legacy null
# stream orders them both ways, and so does remap mode (a per-thread build
# loses both orders; today's code only counted each loss as a hazard): at
# each switch the stream switched to waits for the one left, counted as
# ordered, no hazard line.  A non-blocking stream was never ordered:
# nothing to keep.  syncs mode keeps the legacy order.  Two rounds each: in
# the second the thread's stream exists (stream0's direct path).  A stream
# whose flags cannot be read is read once and claims nothing.
. tests/policies/stream0/lib.sh
P=$D/s0_pt
W='stream0: [0-9]* hazards:'
O="switches between the null stream and a blocking stream ordered"
legacy "$P" userstream >"$T/o" 2>"$T/e" || { cat "$T/o" "$T/e"; fail "legacy"; }
[ "$(grep -c "userstream blocking: saw 7 9" "$T/o")" = 2 ] ||
	fail "legacy: $(cat "$T/o")"
perthread "$P" userstream >"$T/o" 2>"$T/e" || { cat "$T/o" "$T/e"; fail "remap"; }
cat "$T/o" "$T/e"
[ "$(grep -c "userstream blocking: saw 7 9" "$T/o")" = 2 ] ||
	fail "remap lost the thread's own order: $(cat "$T/o")"
grep -q "$W" "$T/e" && fail "remap: a hazard line"
grep -q "0 dependencies .*, 4 $O" "$T/e" ||
	fail "remap: the orders of both rounds were not all counted"
LBSHIM_STREAM0_CHECK=off perthread "$P" userstream >"$T/o" 2>"$T/e" ||
	{ cat "$T/o" "$T/e"; fail "CHECK=off"; }
grep -q "$W\|[1-9][0-9]* $O" "$T/e" && fail "LBSHIM_STREAM0_CHECK=off still counted"
perthread "$P" nonblocking >"$T/o" 2>"$T/e" || { cat "$T/o" "$T/e"; fail "nonblocking"; }
grep -q "$W" "$T/e" && fail "a non-blocking stream counted a hazard"
grep -q "[1-9][0-9]* $O" "$T/e" && fail "a non-blocking stream was ordered"
# A stream whose flags cannot be read counts as non-blocking (claims
# nothing), and is read once, not at each of its 50 submissions.
HIPEMU_FAIL=hipStreamGetFlags:1+:hipErrorInvalidHandle \
	HIPEMU_STATS=$T/st.json perthread "$P" switches >"$T/o" 2>"$T/e" ||
	{ cat "$T/o" "$T/e"; fail "unreadable flags"; }
grep -q "$W" "$T/e" && fail "unreadable flags: a hazard counted"
n=$(sed -n 's/.*"hipStreamGetFlags": \([0-9]*\).*/\1/p' "$T/st.json")
[ "$n" = 1 ] || fail "unreadable flags: read ${n:-0} times, want 1"
# hipDeviceReset destroys the streams: a handle seen before it is read
# again (a new stream may have it; here the old one, which the runtime
# now refuses).
HIPEMU_STATS=$T/st.json perthread "$P" resetflags >"$T/o" 2>"$T/e" ||
	{ cat "$T/o" "$T/e"; fail "resetflags"; }
cat "$T/o"
n=$(sed -n 's/.*"hipStreamGetFlags": \([0-9]*\).*/\1/p' "$T/st.json")
[ "$n" = 2 ] || fail "after hipDeviceReset: flags read ${n:-0} times, want 2"
LBSHIM_STREAM0_MODE=syncs perthread "$P" userstream >"$T/o" 2>"$T/e" ||
	{ cat "$T/o" "$T/e"; fail "syncs"; }
[ "$(grep -c "userstream blocking: saw 7 9" "$T/o")" = 2 ] ||
	fail "syncs: $(cat "$T/o")"
grep -q "$W" "$T/e" && fail "syncs mode counted a hazard"
exit 0
