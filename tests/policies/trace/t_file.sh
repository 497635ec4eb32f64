# The trace file: never overwritten, never through a symlink, mode 0600,
# its name from the pattern with nothing injected; a place that cannot be
# written or a full disk cost one warning and leave the program alone.
. "$(dirname "$0")/lib.sh"

run() { # run NAME-PATTERN [extra env...]: traced "tprog loop 3"
	pat=$1; shift
	env "$@" LBSHIM_POLICIES=trace LBSHIM_TRACE="$pat" \
		LD_LIBRARY_PATH="$FAKE" LD_PRELOAD="$SHIM" "$PROG" loop 3
}

# An existing file is kept; the trace goes to a numbered sibling.
echo keep >x.lbt
run x.lbt 2>err || fail "exit $?"
[ "$(cat x.lbt)" = keep ] || fail "x.lbt was overwritten"
"$DUMP" x.1.lbt >d1 || fail "no x.1.lbt"
expect "api=hipMemset" d1
run x.lbt 2>err || fail "exit $?"
[ -f x.2.lbt ] || fail "no x.2.lbt: $(ls)"
[ "$(stat -c %a x.1.lbt)" = 600 ] || fail "mode $(stat -c %a x.1.lbt)"
[ -s err ] && { cat err; fail "a warning for a numbered sibling"; }

# A symlink planted at the name is not followed.
ln -s victim link.lbt
echo precious >victim2
ln -s victim2 link2.lbt
run link.lbt 2>err || fail "exit $?"
run link2.lbt 2>>err || fail "exit $?"
[ -e victim ] && fail "the symlink was followed"
[ "$(cat victim2)" = precious ] || fail "victim2 was written"
"$DUMP" link.1.lbt >/dev/null || fail "no link.1.lbt"
"$DUMP" link2.1.lbt >/dev/null || fail "no link2.1.lbt"

# A name with no extension gets the number at its end.
run plainname 2>/dev/null
run plainname 2>/dev/null
[ -f plainname ] && [ -f plainname.1 ] || fail "plainname siblings: $(ls)"

# The pattern; expanded values cannot add a directory.
host=$(hostname | tr -c 'A-Za-z0-9._\n-' _)
run 'p-%p-%r-%h-%%-%t-%q.lbt' RANK=7 2>err || fail "exit $?"
ls | grep -E -q "^p-[0-9]+-7-$host-%-[0-9]{10}-%q\.lbt$" ||
	fail "pattern: $(ls)"
rm -f p-*
run 'r-%r.lbt' RANK='1/../../evil' 2>err || fail "exit $?"
f=$(ls | grep '^r-')
[ -n "$f" ] && [ -f "$T/$f" ] || fail "rank file: $(ls)"
case $f in *..*|*/*) fail "injected: $f" ;; esac
run 'n-%r.lbt' 2>err
[ -f n-0.lbt ] || fail "no rank: $(ls)"
expect "rank=4294967295 " "$("$DUMP" n-0.lbt >n.dump; echo n.dump)"

# A directory that cannot be used: one warning, same exit status.
echo file >notadir
plain "$PROG" loop 3
want=$?
run notadir/x.lbt 2>err
got=$?
[ "$got" = "$want" ] || fail "exit $got, $want without the shim"
[ "$(count '^lbshim: ' err)" = 1 ] || { cat err; fail "warnings"; }
expect "^lbshim: trace: cannot create notadir/x.lbt: " err

# A full disk (here RLIMIT_FSIZE): one warning, tracing stops, exit 0.
if command -v bash >/dev/null; then
	LBSHIM_POLICIES=trace LBSHIM_TRACE=full.lbt LD_LIBRARY_PATH="$FAKE" \
		LD_PRELOAD="$SHIM" bash -c "ulimit -f 1024; exec '$PROG' loop 200000" \
		2>err
	got=$?
	[ "$got" = 0 ] || fail "full disk: exit $got"
	[ "$(count '^lbshim: ' err)" = 1 ] || { cat err; fail "full: warnings"; }
	expect "tracing stopped" err
	[ "$(stat -c %s full.lbt)" -le 1048576 ] || fail "past the limit"
	"$DUMP" full.lbt >full.dump
	expect "^header .* flags=0x9 " full.dump
	n=$(count '^call ' full.dump)
	[ "$n" -gt 1000 ] && [ "$n" -lt 200000 ] || fail "full: $n calls"
fi
echo ok
