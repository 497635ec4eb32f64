# A stub registered again (a library unloaded, another at its address)
# is recorded by the kernel it names now, in every thread: mix's
# arguments, then none (a name without metadata: the old plan is
# dropped, not used to read kernelParams the program did not pass),
# then scale's, though each thread remembers its last kernel's plan
# (tkreuse.c).
. "$(dirname "$0")/lib.sh"

FB=$BUILD/trace/tkargs.fatbin
[ -s "$FB" ] || { echo "hipcc not built"; exit 77; }
LBSHIM_POLICIES=trace LBSHIM_TRACE=k.lbt \
	traced "$BUILD/trace/tkreuse" "$FB" >out 2>&1 || fail "$(cat out)"
"$DUMP" k.lbt >dump || fail "dump"
for th in 0 1; do
	sed -n "s/^call thread=$th .* api=hipLaunchKernel .* kernel=\([^ ]*\) .*/call \1/p
		s/^kargs thread=$th bytes=\([0-9]*\) .*/kargs \1/p" dump >seq$th
	printf '%s\n' "call _Z3mixhsxbdPKfPPf" "kargs 48" "call _Z7nothingv" \
		"call _Z5scalePffi4Pair" "kargs 32" >want
	cmp -s want seq$th || {
		echo "--- thread $th:"; cat seq$th; fail "thread $th's launches"; }
done
echo ok
