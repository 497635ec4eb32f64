# A thread's own legacy order between a blocking user stream and its null
# stream (s0_pt ownorder): a kernel on the blocking stream, then
# hipMemcpy D2H, hipStreamSynchronize(0), hipEventRecord(e, 0) with
# hipEventSynchronize; and hipMemcpyAsync on 0 feeding a kernel on the
# blocking stream.  The legacy stream orders all four, and so must remap
# mode (today's code lost all four orders and counted only the two that
# are submissions), each switch counted as ordered, no hazard line.
. tests/policies/stream0/lib.sh
P=$D/s0_pt
for run in legacy perthread; do
	$run "$P" ownorder >"$T/o" 2>"$T/e" || { cat "$T/o" "$T/e"; fail "$run"; }
	cat "$T/o"
	for c in memcpy streamsync feed event; do
		grep -q "^ownorder $c: 7$" "$T/o" || { cat "$T/e"; fail "$run: $c lost the order"; }
	done
done
grep -q "hazards:" "$T/e" && { cat "$T/e"; fail "a hazard line"; }
grep -q "4 switches between the null stream and a blocking stream ordered" "$T/e" ||
	{ cat "$T/e"; fail "the four switches were not counted as ordered"; }
echo "remap: the four orders kept, counted"
exit 0
