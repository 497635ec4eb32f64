# t_svg.sh - ab --svg writes well-formed SVG (also with names that need
# XML escaping), and an unwritable path is exit status 2.
. tests/tools/ab/lib.sh
need_cmd ab
s="main/hipMalloc:300:50000:20000 main/hipLaunchKernel:100:5000:1000 w<&>/hipStreamSynchronize:50:1000:100000"
$GEN -o "$TMP/a.lbt" -s 1 $s || fail gen
$GEN -o "$TMP/b.lbt" -s 2 -m 3 $s || fail gen
"$LBTRACE" ab --svg "$TMP/ab.svg" "$TMP/a.lbt" --vs "$TMP/b.lbt" >"$TMP/out" || fail "exit $?"
svg_ok "$TMP/ab.svg"
grep -q 'hipMalloc' "$TMP/ab.svg" || fail "no hipMalloc in the picture"
grep -q '^hipMalloc' "$TMP/out" || fail "the table is still printed"
# --svg=FILE form, with --json
"$LBTRACE" ab --json --svg="$TMP/b.svg" "$TMP/a.lbt" --vs "$TMP/a.lbt" >"$TMP/j" || fail "exit $?"
svg_ok "$TMP/b.svg"
"$PY" -c 'import json,sys; json.load(open(sys.argv[1]))' "$TMP/j" || fail "json"
"$LBTRACE" ab --svg "$TMP/no/such/dir/x.svg" "$TMP/a.lbt" --vs "$TMP/b.lbt" >/dev/null 2>&1
[ $? = 2 ] || fail "unwritable svg: want 2"
echo ok
