# Under trace+stream0 the trace shows the stream named (0) and the stream
# used (S), and marks the IMU's sync as narrowed (not as a hazard); a
# callback's function
# and data are the program's.  Skipped without lbtrace.
. tests/policies/stream0/lib.sh
[ -x "$B/lbtrace" ] || { echo "no $B/lbtrace"; exit 77; }
LBSHIM_TRACE=$T/t.lbt LD_PRELOAD=$SHIM LBSHIM_POLICIES=trace,stream0 \
	"$D/s0_test" imu perthread >/dev/null || fail "imu under trace,stream0"
"$B/lbtrace" print --json "$T/t.lbt" >"$T/j" || fail "lbtrace print"
grep '"api":"hipModuleLaunchKernel"' "$T/j" | head -1
grep '"api":"hipModuleLaunchKernel"' "$T/j" | grep -v '"stream":"0x0"' &&
	fail "a launch named a stream other than 0"
grep '"api":"hipModuleLaunchKernel"' "$T/j" | grep '"stream_used":"0x0"' &&
	fail "a launch used the null stream"
n=$(grep '"api":"hipStreamSynchronize"' "$T/j" | grep -c '"narrowed":true')
[ "$n" -ge 1 ] || fail "no sync marked as narrowed"
grep -q '"hazard":true' "$T/j" && fail "a call marked as a hazard"
# Each thread used one stream of its own.
u=$(grep '"api":"hipModuleLaunchKernel"' "$T/j" |
	sed 's/.*"stream_used":"\([^"]*\)".*/\1/' | sort -u | wc -l)
[ "$u" = 2 ] || fail "expected 2 streams used, got $u"
# A callback on the null stream goes through stream0's wrapper (which
# tells it the stream the program named); the trace shows the program's
# callback and data, not the wrapper's.
LBSHIM_TRACE=$T/c.lbt LD_PRELOAD=$SHIM LBSHIM_POLICIES=trace,stream0 \
	"$D/s0_test" callback perthread >"$T/cb" || fail "callback under trace,stream0"
fn=$(sed -n 's/^callback \(0x[0-9a-f]*\) data.*/\1/p' "$T/cb")
data=$(sed -n 's/^callback .* data \(0x[0-9a-f]*\)$/\1/p' "$T/cb")
"$B/lbtrace" print --json "$T/c.lbt" >"$T/cj" || fail "lbtrace print"
grep '"api":"hipStreamAddCallback"' "$T/cj" | grep '"stream":"0x0"' |
	grep '"ret":0,' | grep -q "\"fn\":\"$fn\",\"data\":\"$data\"" ||
	{ grep AddCallback "$T/cj"; fail "callback traced as not the program's ($fn $data)"; }
exit 0
