# Tracing off: no file, no output, no thread.
. "$(dirname "$0")/lib.sh"

traced "$PROG" calls >/dev/null 2>err || fail "exit $?"
LBSHIM_POLICIES=none traced "$PROG" calls >/dev/null 2>>err || fail "exit $?"
LBSHIM_TRACE=x.lbt traced "$PROG" calls >/dev/null 2>>err || fail "exit $?"
LBSHIM_TRACE_LIVE=0 HIP_TRACE_API=0 traced "$PROG" calls >/dev/null 2>>err ||
	fail "exit $?"
[ -s err ] && { cat err; fail "output"; }
[ "$(ls)" = err ] || fail "files: $(ls)"
# With tracing on, the helper thread exists; without, it does not.
LBSHIM_POLICIES=trace LBSHIM_TRACE=t.lbt LD_LIBRARY_PATH="$FAKE" \
	LD_PRELOAD="$SHIM" "$PROG" idle 1000 &
pid=$!
sleep 0.5
names=$(cat /proc/$pid/task/*/comm 2>/dev/null)
wait $pid
echo "$names" | grep -q lbshim-trace || fail "no helper thread: $names"
LD_LIBRARY_PATH="$FAKE" LD_PRELOAD="$SHIM" "$PROG" idle 1000 &
pid=$!
sleep 0.5
names=$(cat /proc/$pid/task/*/comm 2>/dev/null)
wait $pid
echo "$names" | grep -q lbshim-trace && fail "a helper thread while off"
echo ok
