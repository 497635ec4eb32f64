# A thread's own legacy order between a blocking user stream and its null
# stream (s0_pt ownorder): a kernel on the blocking stream, then
# hipMemcpy D2H, hipStreamSynchronize(0), hipEventRecord(e, 0) with
# hipEventSynchronize; and hipMemcpyAsync on 0 feeding a kernel on the
# blocking stream; and hipMemcpy D2H after another stream was created
# and destroyed, by this thread and by another (a destroy made the thread forget its live streams'
# pending work: the order was lost, found by hipemu-cuda's streams
# program under load).  The legacy stream orders all six, and so must remap
# mode (the code before issue 34 lost the first four orders and counted only the two that
# are submissions), each switch counted as ordered, no hazard line.
. tests/policies/stream0/lib.sh
P=$D/s0_pt
for run in legacy perthread; do
	$run "$P" ownorder >"$T/o" 2>"$T/e" || { cat "$T/o" "$T/e"; fail "$run"; }
	cat "$T/o"
	for c in memcpy streamsync feed event destroy otherdestroy; do
		grep -q "^ownorder $c: 7$" "$T/o" || { cat "$T/e"; fail "$run: $c lost the order"; }
	done
done
grep -q "hazards:" "$T/e" && { cat "$T/e"; fail "a hazard line"; }
grep -q "6 switches between the null stream and a blocking stream ordered" "$T/e" ||
	{ cat "$T/e"; fail "the six switches were not counted as ordered"; }
echo "remap: the six orders kept, counted"
exit 0
