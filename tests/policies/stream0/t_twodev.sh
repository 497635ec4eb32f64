# Two devices: one stream per (thread, device), following hipSetDevice.
. tests/policies/stream0/lib.sh
export HIPEMU_DEVICES=2
both twodev
HIPEMU_STATS=$T/stats.json perthread "$D/s0_test" twodev perthread ||
	fail "twodev with HIPEMU_STATS"
c=$(sed -n 's/.*"streams_created": *\([0-9]*\).*/\1/p' "$T/stats.json")
echo "streams created $c"
[ "$c" = 4 ] || fail "expected 4 streams (2 threads x 2 devices): '$c'"
exit 0
