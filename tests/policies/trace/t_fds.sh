# Programs that close descriptors they did not open (closefrom,
# close_range), dup2 onto the trace's number, close a descriptor twice or
# put an unlinked temporary file at the trace's number: the program's file
# holds exactly what the program wrote, the trace is valid and holds the
# calls made before, and the shim says at most one thing about it.
. "$(dirname "$0")/lib.sh"
TFD=$BUILD/trace/tfd
LBTRACE=$BUILD/lbtrace
# A shim that works on the program's file could fill the disk: 64 MiB.
ulimit -f 131072 2>/dev/null

plain "$TFD" pattern want.bin || fail "pattern: exit $?"
[ "$(wc -c <want.bin)" = 4096 ] || fail "pattern: not 4096 bytes"

# check MODE: runs tfd MODE under the trace policy and checks it all.
check() {
	m=$1
	rm -f "$m.lbt" "$m.bin"
	LBSHIM_POLICIES=trace LBSHIM_TRACE=$m.lbt traced "$TFD" "$m" "$m.bin" \
		>"$m.out" 2>"$m.err"
	rc=$?
	[ "$rc" = 0 ] || { cat "$m.out" "$m.err"; fail "$m: exit $rc"; }
	if [ "$m" = tmpfile ]; then
		expect '^tmpfile ok$' "$m.out"
	else
		cmp -s want.bin "$m.bin" ||
			fail "$m: the program's file changed ($(wc -c <"$m.bin") bytes)"
	fi
	[ "$(count '^lbshim: ' "$m.err")" -le 1 ] ||
		{ cat "$m.err"; fail "$m: more than one warning"; }
	grep -q 'was removed' "$m.err" &&
		fail "$m: the program's file taken for the trace: $(cat "$m.err")"
	"$LBTRACE" print "$m.lbt" >"$m.print" 2>"$m.perr" ||
		{ cat "$m.perr"; fail "$m: lbtrace print: exit $?"; }
	[ "$(count 'hipMemset\(dst=0x1,' "$m.print")" = 100 ] ||
		fail "$m: $(count 'hipMemset\(dst=0x1,' "$m.print") of the 100 calls before"
	expect 'hipMemset\(dst=0x2,' "$m.print"
}

for m in closefrom closerange dup2 twice tmpfile; do
	check "$m"
done

# The shim's own descriptor lost: it says so, in one line, and the header
# says the trace stopped early (clean exit + STOPPED).
for m in closefrom closerange dup2 tmpfile; do
	expect '^lbshim: trace: .*descriptor' "$m.err"
	"$DUMP" "$m.lbt" >"$m.dump" || fail "$m: lbt_dump"
	expect '^header .* flags=0x9 ' "$m.dump"
done
# A double close of the program's own number: nothing to say, and the
# whole run is in the trace.
[ -s twice.err ] && { cat twice.err; fail "twice: a warning"; }
"$DUMP" twice.lbt >twice.dump || fail "twice: lbt_dump"
expect '^header .* flags=0x1 ' twice.dump
[ "$(count 'hipMemset\(dst=0x3,' twice.print)" -ge 40000 ] ||
	fail "twice: $(count 'hipMemset\(dst=0x3,' twice.print) calls after"

# The program puts its file at the trace's number between the shim's check
# of the number and its use (tfdrace.so does it inside the call that
# reserves a chunk, or inside the copy of a staged block): the shim's
# chunk and block still go to the trace file, never the program's (which
# stays empty: nothing reserved, mapped or written there, no SIGBUS), and
# the loss is found and said once at the next use.
for on in fallocate pwrite; do
	skip=0
	[ "$on" = fallocate ] && skip=1 # the header's own reservation
	rm -f "race-$on.lbt" "race-$on.bin"
	LBSHIM_POLICIES=trace LBSHIM_TRACE=race-$on.lbt TFDRACE_ON=$on \
		TFDRACE_FILE=race-$on.bin TFDRACE_SKIP=$skip \
		env LD_LIBRARY_PATH="$FAKE" \
		LD_PRELOAD="$BUILD/trace/libtfdrace.so $SHIM" \
		"$TFD" calls >"race-$on.out" 2>"race-$on.err"
	rc=$?
	[ "$rc" = 0 ] || { cat "race-$on.err"; fail "race $on: exit $rc"; }
	[ -e "race-$on.bin" ] || fail "race $on: the race never ran"
	[ -s "race-$on.bin" ] &&
		fail "race $on: the shim used the program's file ($(wc -c <"race-$on.bin") bytes)"
	[ "$(count '^lbshim: ' "race-$on.err")" = 1 ] ||
		{ cat "race-$on.err"; fail "race $on: not one warning"; }
	expect '^lbshim: trace: .*closed or replaced descriptor' "race-$on.err"
	"$LBTRACE" print "race-$on.lbt" >"race-$on.print" 2>"race-$on.perr" ||
		{ cat "race-$on.perr"; fail "race $on: lbtrace print: exit $?"; }
	[ "$(count 'hipMemset\(dst=0x1,' "race-$on.print")" = 100 ] ||
		fail "race $on: $(count 'hipMemset\(dst=0x1,' "race-$on.print") of the 100 calls"
done
echo ok
