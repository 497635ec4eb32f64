# A thread's blocking user stream and its null stream: the legacy null
# stream orders them both ways; remap mode loses both orders (as a
# per-thread build does) and must count each loss as a hazard, reported
# at exit in one warning.  A non-blocking stream was never ordered: no
# hazard.  syncs mode keeps the legacy order.
. tests/policies/stream0/lib.sh
P=$D/s0_pt
W='stream0: [0-9]* hazards:'
legacy "$P" userstream >"$T/o" 2>"$T/e" || { cat "$T/o" "$T/e"; fail "legacy"; }
grep -q "userstream blocking: saw 7 9" "$T/o" || fail "legacy: $(cat "$T/o")"
perthread "$P" userstream >"$T/o" 2>"$T/e" || { cat "$T/o" "$T/e"; fail "remap"; }
cat "$T/o" "$T/e"
[ "$(grep -c "$W" "$T/e")" = 1 ] || fail "remap: no single hazard warning"
grep -q 'stream0: 2 hazards: 0 null-stream syncs .*, 2 switches' "$T/e" ||
	fail "remap: the two lost orders were not both counted"
LBSHIM_STREAM0_CHECK=off perthread "$P" userstream >"$T/o" 2>"$T/e" ||
	{ cat "$T/o" "$T/e"; fail "CHECK=off"; }
grep -q "$W" "$T/e" && fail "LBSHIM_STREAM0_CHECK=off still counted"
perthread "$P" nonblocking >"$T/o" 2>"$T/e" || { cat "$T/o" "$T/e"; fail "nonblocking"; }
grep -q "$W" "$T/e" && fail "a non-blocking stream counted a hazard"
LBSHIM_STREAM0_MODE=syncs perthread "$P" userstream >"$T/o" 2>"$T/e" ||
	{ cat "$T/o" "$T/e"; fail "syncs"; }
grep -q "userstream blocking: saw 7 9" "$T/o" || fail "syncs: $(cat "$T/o")"
grep -q "$W" "$T/e" && fail "syncs mode counted a hazard"
exit 0
