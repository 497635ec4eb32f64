#!/bin/sh
# Under trace,pool the trace shows pool hit/miss on allocations and frees.
. "$(dirname "$0")/lib.sh"
LBT=$B/lbtrace
[ -x "$LBT" ] || { echo "build/lbtrace not built; skipped"; exit 77; }
POLICIES=trace,pool LBSHIM_TRACE=$T/t.lbt run hot pool "$P" hot 8
grep -q "policy trace is not in this build" "$T/hot.err" &&
	{ echo "trace policy not built; skipped"; exit 77; }
"$LBT" print --json "$T/t.lbt" >"$T/j" || fail "lbtrace print"
grep '"api":"hipMalloc"' "$T/j" | grep -q '"pool":"miss"' || fail "no miss"
grep '"api":"hipMalloc"' "$T/j" | grep -q '"pool":"hit"' || fail "no hit"
grep '"api":"hipFree"' "$T/j" | grep -q '"pool":"hit"' || fail "free"
# The exit line counts what the records say: allocation and free records
# with pool=hit and pool=miss (here with bad, foreign and NULL frees too).
cnt() { grep -E "\"api\":\"$1\"" "$T/$3" | grep -c "\"pool\":\"$2\""; }
for sc in "hot 40" badfree; do
	rm -f "$T/t.lbt"
	POLICIES=trace,pool LBSHIM_TRACE=$T/t.lbt LBSHIM_LOG=info \
		run c pool "$P" $sc >/dev/null
	"$LBT" print --json "$T/t.lbt" >"$T/c" || fail "lbtrace print"
	want="allocations $(cnt 'hipMalloc[A-Za-z]*' hit c) hits,"
	want="$want $(cnt 'hipMalloc[A-Za-z]*' miss c) misses;"
	want="$want frees $(cnt hipFree hit c) hits,"
	want="$want $(cnt hipFree miss c) misses"
	grep -q "pool: $want " "$T/c.err" ||
		{ grep "pool:" "$T/c.err"; fail "$sc: exit line not '$want'"; }
done
