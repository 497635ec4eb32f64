#!/bin/sh
# Under stream0,pool: null-stream work runs on stream0's per-thread
# streams, which the pool must fence too.
. "$(dirname "$0")/lib.sh"
POLICIES=stream0,pool pool "$P" hazard null >"$T/o" 2>"$T/e"
if grep -q "policy stream0 is not in this build" "$T/e"; then
	echo "stream0 policy not built; skipped"; exit 77
fi
[ -s "$T/o" ] && grep -q "^hazard null" "$T/o" || { cat "$T/o" "$T/e"; fail "hazard null"; }
POLICIES=stream0,pool run xthread pool "$P" xthread
POLICIES=stream0,pool run h-nb pool "$P" hazard nonblocking
