# t_run_fail.sh - lbtrace run when things go wrong: a failing command is
# reported (which run, which status) and the others still run, exit
# non-zero; a command that cannot be started; bad usage (an unknown
# policy is named); an output directory that has files is never reused;
# SIGINT stops cleanly and keeps the traces.
. tests/tools/ab/lib.sh
need_cmd run
export LD_LIBRARY_PATH=$HIPEMU
P=$AB/prog_loop
cd "$TMP" || fail "cd"

"$LBTRACE" run -n 2 --ab trace/trace,pool -o f -- "$P" 5 0 3 >"$TMP/o" 2>"$TMP/e"
rc=$?
[ $rc = 3 ] || fail "failing runs: exit $rc, want 3: $(cat "$TMP/e")"
for r in "A 001" "B 001" "A 002" "B 002"; do
	grep -q "\] $r: exit 3" "$TMP/e" || fail "run $r not reported: $(cat "$TMP/e")"
done
grep -q '4 of 4 runs failed' "$TMP/e" || fail "no summary: $(cat "$TMP/e")"
grep -q '^hipMalloc ' "$TMP/o" || fail "the table is still printed"

# A command that does not exist.
"$LBTRACE" run -o nx -- "$TMP/no-such-program" >"$TMP/o" 2>"$TMP/e"
[ $? != 0 ] || fail "missing command: exit 0"
grep -q 'exit 127' "$TMP/e" || fail "missing command: $(cat "$TMP/e")"

# Bad usage: exit 1 and the usage.
for args in "--ab trace -- $P" "--ab trace/bogus -- $P" "-n 0 -- $P" "-n x -- $P" "--ab a/b/c -- $P" "" "--frob -- $P"; do
	# shellcheck disable=SC2086
	"$LBTRACE" run $args >/dev/null 2>"$TMP/e"
	rc=$?
	[ $rc = 1 ] || fail "run $args: exit $rc, want 1"
	grep -q 'usage: lbtrace run' "$TMP/e" || fail "run $args: no usage: $(cat "$TMP/e")"
done

# An unknown policy is named, in either arm and in LBSHIM_POLICIES.
for spec in trace/trace,pol pol/trace "trace,pool/stream0,pol,pool"; do
	"$LBTRACE" run --ab "$spec" -- "$P" >/dev/null 2>"$TMP/e"
	[ $? = 1 ] || fail "--ab $spec: want exit 1"
	grep -q "^lbtrace run: --ab $spec: no policy named \"pol\"; policies are" \
		"$TMP/e" || fail "--ab $spec: bad name not named: $(cat "$TMP/e")"
done
# Blanks around a name are dropped, as LBSHIM_POLICIES drops them.
"$LBTRACE" run -n 1 --ab "trace/trace, pool" -o blanks -- "$P" 2 >"$TMP/o" \
	2>"$TMP/e" || fail "--ab 'trace/trace, pool': $(cat "$TMP/e")"
grep -q 'B: LBSHIM_POLICIES=trace,pool$' "$TMP/o" ||
	fail "--ab 'trace/trace, pool': $(head -n 3 "$TMP/o")"
LBSHIM_POLICIES=trace,xpool "$LBTRACE" run -- "$P" >/dev/null 2>"$TMP/e"
[ $? = 1 ] || fail "LBSHIM_POLICIES=trace,xpool: want exit 1"
grep -q 'LBSHIM_POLICIES=trace,xpool: no policy named "xpool"' "$TMP/e" ||
	fail "LBSHIM_POLICIES: bad name not named: $(cat "$TMP/e")"

# An output directory with files in it is left alone.
mkdir full && echo keep >full/file
"$LBTRACE" run -o full -- "$P" 1 >/dev/null 2>"$TMP/e"
[ $? = 2 ] || fail "non-empty -o: want 2"
[ "$(ls full)" = file ] && [ "$(cat full/file)" = keep ] || fail "non-empty -o was touched"
mkdir empty
"$LBTRACE" run -o empty -- "$P" 1 >/dev/null 2>&1 || fail "empty -o: exit $?"

# SIGINT: the run in flight gets it, no new run starts, traces are kept.
"$LBTRACE" run -n 50 --ab trace/trace,pool -o int -- "$P" 5 300 >"$TMP/o" 2>"$TMP/e" &
pid=$!
i=0
while [ ! -d int/B/001 ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
kill -INT $pid
wait $pid
rc=$?
[ $rc = 130 ] || fail "SIGINT: exit $rc, want 130: $(cat "$TMP/e")"
n=$(ls -d int/[AB]/* | wc -l)
[ "$n" -ge 2 ] && [ "$n" -lt 100 ] || fail "SIGINT: $n runs"
grep -q 'stopped by' "$TMP/e" || fail "SIGINT: not said: $(cat "$TMP/e")"
ls int/A/001/lbshim.*.lbt >/dev/null 2>&1 || fail "SIGINT: traces gone"
echo ok
