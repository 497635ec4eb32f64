# A stub registered again (a library unloaded, another at its address)
# is recorded by the kernel it names now, in every thread: mix's
# arguments, then none (a name without metadata: the old plan is
# dropped, not used to read kernelParams the program did not pass),
# then scale's, though each thread remembers its last kernel's plan
# (tkreuse.c).  Then a thread launching without a pause while another
# registers the stub again and again: every KARGS record is whole (its
# bytes and its layout of one kernel), and under ThreadSanitizer (the
# TSan shim, build/tsan) no report.
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

# the race: records of mix (48 bytes) or scale (32), each with its layout
LBSHIM_POLICIES=trace LBSHIM_TRACE=race.lbt \
	traced "$BUILD/trace/tkreuse" "$FB" race 3000 >out 2>&1 ||
	fail "race: $(cat out)"
"$DUMP" race.lbt >rdump || fail "dump race"
ml="0:1:by_value 2:2:by_value 8:8:by_value 16:1:by_value 24:8:by_value 32:8:global_buffer 40:8:global_buffer"
sl="0:8:global_buffer 8:4:by_value 12:4:by_value 16:16:by_value"
grep '^kargs ' rdump | grep -v -e "bytes=48 .* layout=$ml\$" \
	-e "bytes=32 .* layout=$sl\$" >bad
[ -s bad ] && { head -n 5 bad; fail "KARGS records of no kernel"; }
[ "$(grep -c '^kargs thread=1 ' rdump)" -gt 0 ] || fail "thread B recorded none"

LIBTSAN=$(${CC:-cc} -print-file-name=libtsan.so)
if [ -f "$BUILD/tsan/liblbshim.so" ] && [ -f "$LIBTSAN" ]; then
	LBSHIM_POLICIES=trace LBSHIM_TRACE=tsan.lbt \
		TSAN_OPTIONS="exitcode=66 halt_on_error=0 report_signal_unsafe=1" \
		LD_LIBRARY_PATH="$FAKE" LD_PRELOAD="$LIBTSAN $BUILD/tsan/liblbshim.so" \
		"$BUILD/trace/tkreuse" "$FB" race 1000 >out 2>err
	rc=$?
	grep -q ThreadSanitizer err && { head -n 40 err; fail "tsan reports"; }
	[ $rc = 0 ] || fail "tsan: exit $rc: $(tail -n 5 err)"
else
	echo "note: no TSan shim or libtsan: the race ran without ThreadSanitizer"
fi
echo ok
