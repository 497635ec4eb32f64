#!/bin/sh
# Every synchronous null-stream call runs on the thread's own stream under
# stream0 (it does not wait for another thread's blocking stream), and the
# Async forms' stream 0 is that stream (hipStreamSynchronize(0) waits for
# them).  Without the policy each synchronous call stalls: the check would
# catch one that stayed on the legacy stream.
. "$(dirname "$0")/lib.sh"
export HIPEMU_KERNELS=$HIPEMU_KERNELS:$D/libs0apis_twin.so
perthread "$D/s0_apis" >"$T/pt.out" 2>"$T/pt.err" ||
	{ cat "$T/pt.out" "$T/pt.err"; fail "s0_apis under stream0"; }
cat "$T/pt.out"
[ -s "$T/pt.out" ] || fail "no output"
if grep ' 0$' "$T/pt.out"; then cat "$T/pt.err"; fail "under stream0"; fi
legacy "$D/s0_apis" >"$T/legacy.out" 2>"$T/legacy.err" ||
	{ cat "$T/legacy.out" "$T/legacy.err"; fail "s0_apis without the policy"; }
# Control: on the legacy null stream every synchronous call waited for B.
if grep '^nostall .* 1$' "$T/legacy.out"; then
	fail "a synchronous call did not stall without the policy"
fi
grep -q '^nostall ' "$T/legacy.out" || fail "no synchronous case ran"
echo "ok: $(grep -c . "$T/pt.out") calls on the thread's own stream"
# Under trace,stream0 the trace has a record of each call, and each Async
# form on stream 0 shows the stream used: the thread's own, not 0.
[ -x "$B/lbtrace" ] || { echo "no $B/lbtrace: trace part skipped"; exit 0; }
LBSHIM_TRACE=$T/t.lbt LD_PRELOAD=$SHIM LBSHIM_POLICIES=trace,stream0 \
	"$D/s0_apis" >"$T/tr.out" 2>"$T/tr.err" ||
	{ cat "$T/tr.err"; fail "s0_apis under trace,stream0"; }
"$B/lbtrace" print --json "$T/t.lbt" >"$T/j" || fail "lbtrace print"
while read -r what api ok; do
	grep -q "\"api\":\"$api\"" "$T/j" || fail "no record of $api"
	[ "$what" = own ] || continue
	grep "\"api\":\"$api\"" "$T/j" | grep -q '"stream":"0x0"' ||
		fail "$api: the stream named is not 0"
	grep "\"api\":\"$api\"" "$T/j" | grep -q '"stream_used":"0x0"' &&
		fail "$api: used the null stream"
done <"$T/pt.out"
echo "ok: the trace records each call and the stream it used"
