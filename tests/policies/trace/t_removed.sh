# The trace file removed while the program runs: one warning, tracing
# stops, the program's exit and output are unchanged, no file comes back,
# and the shim lets go of the removed file (no mapping or descriptor of it
# is left while the program still runs, so its disk space is freed).
. "$(dirname "$0")/lib.sh"

plain "$PROG" paced 2000 >want.out || fail "without the shim: exit $?"
LBSHIM_POLICIES=trace LBSHIM_TRACE=gone.lbt traced "$PROG" paced 2000 \
	>got.out 2>err &
pid=$!
i=0
while [ ! -s gone.lbt ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
[ -f gone.lbt ] || fail "no trace file"
sleep 0.3
rm -f gone.lbt
# Held = a mapping or a descriptor of the removed file; poll up to ~2.5 s.
held=1
i=0
while [ $i -lt 50 ] && kill -0 $pid 2>/dev/null; do
	if ! grep -q 'gone.lbt (deleted)' /proc/$pid/maps 2>/dev/null &&
		! ls -l /proc/$pid/fd 2>/dev/null | grep -q 'gone.lbt (deleted)'; then
		held=0
		break
	fi
	sleep 0.05
	i=$((i + 1))
done
kill -0 $pid 2>/dev/null || echo "note: the program ended before the check"
wait $pid
rc=$?
[ "$rc" = 0 ] || fail "exit $rc"
cmp -s want.out got.out || fail "output changed: $(cat got.out)"
[ "$(count '^lbshim: ' err)" = 1 ] || { cat err; fail "want one warning"; }
expect "^lbshim: trace: .*gone\.lbt was removed; tracing stopped$" err
[ -e gone.lbt ] && fail "the trace file was created again"
[ "$held" = 0 ] || fail "the removed file is still mapped or open"

# A trace that is not removed gets no warning and stays valid.
LBSHIM_POLICIES=trace LBSHIM_TRACE=kept.lbt traced "$PROG" paced 50 \
	>/dev/null 2>err || fail "kept: exit $?"
[ -s err ] && { cat err; fail "a warning for a trace that was kept"; }
"$DUMP" kept.lbt >kept.dump || fail "kept: not a valid trace"
expect "^header .* flags=0x1 " kept.dump
echo ok
