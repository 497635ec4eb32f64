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
