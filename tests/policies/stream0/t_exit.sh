# Threads that exit with work pending: it finishes, results are visible
# after join, and every per-thread stream is destroyed.  A sync of the main
# thread while another thread exits with its work still running is counted
# as narrowed (the legacy null stream would have waited for that work):
# information at exit, not a hazard.
. tests/policies/stream0/lib.sh
both exit
HIPEMU_STATS=$T/stats.json perthread "$D/s0_test" exit perthread ||
	fail "exit with HIPEMU_STATS"
c=$(sed -n 's/.*"streams_created": *\([0-9]*\).*/\1/p' "$T/stats.json")
d=$(sed -n 's/.*"streams_destroyed": *\([0-9]*\).*/\1/p' "$T/stats.json")
echo "streams created $c destroyed $d"
[ -n "$c" ] && [ "$c" -ge 4 ] || fail "expected >= 4 streams created: '$c'"
[ "$c" = "$d" ] || fail "streams leaked: created $c destroyed $d"
LBSHIM_LOG=info perthread "$D/s0_pt" exitpend >"$T/o" 2>"$T/e" ||
	{ cat "$T/o" "$T/e"; fail "exitpend"; }
grep -q 'stream0: [0-9]* threads, 1 of ' "$T/e" ||
	{ cat "$T/e"; fail "the sync over an exiting thread's work was not counted"; }
# syncs mode: the main thread never queued null-stream work; its sync is
# still counted, as narrowed, in the exit report
LBSHIM_LOG=info LBSHIM_STREAM0_MODE=syncs perthread "$D/s0_pt" exitpend \
	>"$T/o" 2>"$T/e" || { cat "$T/o" "$T/e"; fail "exitpend, syncs"; }
grep -q 'stream0: [0-9]* threads, 1 of 1 ' "$T/e" ||
	{ cat "$T/e"; fail "syncs: a sync of a thread without work went uncounted"; }
grep -q '1 of 1 null-stream syncs no longer waited for other threads' "$T/e" ||
	{ cat "$T/e"; fail "syncs: no narrowed sync in the exit line"; }
grep -q 'hazards:' "$T/e" && { cat "$T/e"; fail "syncs: a hazard line"; }
exit 0
