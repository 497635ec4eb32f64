# Threads that exit with work pending: it finishes, results are visible
# after join, and every per-thread stream is destroyed.
. tests/policies/stream0/lib.sh
both exit
HIPEMU_STATS=$T/stats.json perthread "$D/s0_test" exit perthread ||
	fail "exit with HIPEMU_STATS"
c=$(sed -n 's/.*"streams_created": *\([0-9]*\).*/\1/p' "$T/stats.json")
d=$(sed -n 's/.*"streams_destroyed": *\([0-9]*\).*/\1/p' "$T/stats.json")
echo "streams created $c destroyed $d"
[ -n "$c" ] && [ "$c" -ge 4 ] || fail "expected >= 4 streams created: '$c'"
[ "$c" = "$d" ] || fail "streams leaked: created $c destroyed $d"
exit 0
