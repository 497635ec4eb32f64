# t_groups.sh - how ab groups files into runs (run_id, else directory,
# else per file), wall time of a crashed run, and its exit statuses.
. tests/tools/ab/lib.sh
need_cmd ab
s="main/hipMalloc:50:1000:100"
mkdir -p "$TMP/id/x" "$TMP/id/y" "$TMP/d/r1" "$TMP/d/r2" "$TMP/f"
# two processes of run 7, in two directories, overlapping in time
$GEN -o "$TMP/id/x/p1.lbt" -r 7 -T 1700000000 -w 1000 $s || fail gen
$GEN -o "$TMP/id/y/p2.lbt" -r 7 -T 1700000001 -w 1500 $s || fail gen
# two runs of two processes each, no run id: grouped by directory
for r in r1 r2; do
	$GEN -o "$TMP/d/$r/p1.lbt" -T 1700000000 -w 500 $s || fail gen
	$GEN -o "$TMP/d/$r/p2.lbt" -T 1700000000 -w 700 $s || fail gen
done
# three files named one by one: a run each
for i in 1 2 3; do $GEN -o "$TMP/f/$i.lbt" -T 1700000000 -w 100 $s || fail gen; done

"$LBTRACE" ab --json "$TMP/id/x/p1.lbt" "$TMP/id/y/p2.lbt" --vs "$TMP/d" >"$TMP/g.json" || fail "exit $?"
expect_true "$TMP/g.json" 'd["groups"][0]["runs"] == 1 and d["groups"][0]["run_list"][0]["files"] == 2 and d["groups"][0]["run_list"][0]["run_id"] == 7' "run_id groups processes"
expect_true "$TMP/g.json" 'd["groups"][0]["run_list"][0]["wall_ns"] == 2500000000' "run wall spans its processes"
expect_true "$TMP/g.json" 'd["groups"][1]["runs"] == 2 and all(r["files"] == 2 and r["wall_ns"] == 700000000 for r in d["groups"][1]["run_list"])' "directories group processes"
"$LBTRACE" ab --json "$TMP/f/1.lbt" "$TMP/f/2.lbt" "$TMP/f/3.lbt" --vs "$TMP/f/1.lbt" >"$TMP/f.json" || fail "exit $?"
expect_true "$TMP/f.json" 'd["groups"][0]["runs"] == 3 and d["groups"][1]["runs"] == 1' "named files are runs of their own"

# A crashed run: no end time in the header, the records' span counts.
$GEN -o "$TMP/crash.lbt" -c -T 1700000000 "main/hipMalloc:10:1000000:1" || fail gen
"$LBTRACE" ab --json "$TMP/crash.lbt" --vs "$TMP/f/1.lbt" >"$TMP/c.json" || fail "crash exit $?"
expect_true "$TMP/c.json" 'not d["groups"][0]["run_list"][0]["clean"] and abs(d["groups"][0]["run_list"][0]["wall_ns"] - 10009000) < 2000' "crashed run's wall time"

# A truncated trace is read as far as it is whole.
head -c 20000 "$TMP/d/r1/p1.lbt" >"$TMP/trunc.lbt"
"$LBTRACE" ab "$TMP/trunc.lbt" --vs "$TMP/f/1.lbt" >/dev/null 2>"$TMP/err" || fail "truncated: exit $? $(cat "$TMP/err")"

# Exit statuses.
"$LBTRACE" ab --help >"$TMP/out" 2>&1 || fail "--help: exit $?"
grep -q 'usage: lbtrace ab' "$TMP/out" || fail "--help: no usage"
"$LBTRACE" ab "$TMP/f/1.lbt" >/dev/null 2>&1; [ $? = 1 ] || fail "no --vs: want 1"
"$LBTRACE" ab --bogus "$TMP/f/1.lbt" --vs "$TMP/f/1.lbt" >/dev/null 2>&1; [ $? = 1 ] || fail "bad option: want 1"
"$LBTRACE" ab "$TMP/f/1.lbt" --vs >/dev/null 2>&1; [ $? = 1 ] || fail "empty B: want 1"
"$LBTRACE" ab "$TMP/nope.lbt" --vs "$TMP/f/1.lbt" >/dev/null 2>"$TMP/err"; [ $? = 2 ] || fail "missing file: want 2"
grep -q 'nope.lbt' "$TMP/err" || fail "missing file not named: $(cat "$TMP/err")"
head -c 5000 /dev/urandom >"$TMP/junk.lbt"
"$LBTRACE" ab "$TMP/junk.lbt" "$TMP/f/1.lbt" --vs "$TMP/f/2.lbt" >"$TMP/out" 2>"$TMP/err"; [ $? = 2 ] || fail "junk: want 2"
grep -q 'junk.lbt' "$TMP/err" || fail "junk not named: $(cat "$TMP/err")"
grep -q '^hipMalloc' "$TMP/out" || fail "junk: the rest is still compared"
mkdir "$TMP/empty"
"$LBTRACE" ab "$TMP/empty" --vs "$TMP/f/1.lbt" >/dev/null 2>"$TMP/err"; [ $? = 2 ] || fail "empty group: want 2"
echo ok
