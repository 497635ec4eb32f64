# t_ratio.sh - ab on synthetic traces with known distributions: B exactly
# twice A gives 2 with an interval that contains 2 and excludes 1 (by
# runs with three runs a group, by calls with one); identical groups give
# 1.00 with an interval containing 1; rows come largest change first.
. tests/tools/ab/lib.sh
need_cmd ab
specs="main/hipMalloc:400:50000:20000 main/hipLaunchKernel:300:5000:1000 imu/hipStreamSynchronize:200:300000:12000000"
for i in 1 2 3; do
	mkdir -p "$TMP/A/$i" "$TMP/B/$i" "$TMP/C/$i"
	$GEN -o "$TMP/A/$i/t.lbt" -s $i -T $((1700000000 + 10 * i)) -w 900 $specs || fail gen
	$GEN -o "$TMP/B/$i/t.lbt" -s $i -m 2 -T $((1700000005 + 10 * i)) -w 900 $specs || fail gen
	$GEN -o "$TMP/C/$i/t.lbt" -s $i -T $((1700000000 + 10 * i)) -w 900 $specs || fail gen
done

"$LBTRACE" ab --json "$TMP/A" --vs "$TMP/B" >"$TMP/ab.json" || fail "ab exit $?"
expect_true "$TMP/ab.json" 'd["ci_by"] == "runs" and [g["runs"] for g in d["groups"]] == [3, 3]' "by runs"
for api in hipMalloc hipLaunchKernel hipStreamSynchronize; do
	expect_true "$TMP/ab.json" "[r for r in d['apis'] if r['name'] == '$api'][0]['ci_low'] <= 2 <= [r for r in d['apis'] if r['name'] == '$api'][0]['ci_high']" "$api: 2 in interval"
	expect_true "$TMP/ab.json" "[r for r in d['apis'] if r['name'] == '$api'][0]['excludes_1']" "$api: excludes 1"
	expect_true "$TMP/ab.json" "abs([r for r in d['apis'] if r['name'] == '$api'][0]['ratio'] - 2) < 0.001" "$api: ratio 2"
done
expect_true "$TMP/ab.json" 'd["apis"][0]["name"] == "hipStreamSynchronize"' "largest change first"
expect_true "$TMP/ab.json" 'd["kernels"][0]["name"].startswith("encode(") and d["kernels"][0]["excludes_1"]' "kernel row"
expect_true "$TMP/ab.json" 'd["threads"][0]["name"] == "imu" and d["threads"][0]["sync_per_run_b_ns"] == 2 * d["threads"][0]["sync_per_run_a_ns"] or abs(d["threads"][0]["sync_per_run_b_ns"] / d["threads"][0]["sync_per_run_a_ns"] - 2) < 1e-6' "thread sync time"
expect_true "$TMP/ab.json" 'abs(d["wall"]["ratio"] - 2) < 1e-9 and d["wall"]["median_a_ns"] == 900000000' "wall time from the headers"

# Text: the marked ratio.
"$LBTRACE" ab "$TMP/A" --vs "$TMP/B" >"$TMP/ab.txt" || fail "ab text exit $?"
grep -q '^hipMalloc .* 2\.00  \[.*\] \*$' "$TMP/ab.txt" || fail "text row: $(cat "$TMP/ab.txt")"

# Identical groups (same data, other files): 1.00, interval around 1.
"$LBTRACE" ab --json "$TMP/A" --vs "$TMP/C" >"$TMP/same.json" || fail "same exit $?"
expect_true "$TMP/same.json" 'all(r["ratio"] == 1 and r["ci_low"] <= 1 <= r["ci_high"] and not r["excludes_1"] for r in d["apis"])' "identical groups"
"$LBTRACE" ab "$TMP/A" --vs "$TMP/C" | grep -q '^hipMalloc .* 1\.00  \[' || fail "identical: text"

# A change of 0.3% whose interval excludes 1 is not written "1.00 [1.00,
# 1.00] *": enough digits that no figure reads 1.
for i in 1 2 3; do
	mkdir -p "$TMP/D/$i" "$TMP/E/$i"
	$GEN -o "$TMP/D/$i/t.lbt" -s $i -T $((1700000000 + 10 * i)) -w 900 \
		main/hipMalloc:400:50000:0 || fail gen
	$GEN -o "$TMP/E/$i/t.lbt" -s $i -m 0.997 -T $((1700000005 + 10 * i)) \
		-w 900 main/hipMalloc:400:50000:0 || fail gen
done
"$LBTRACE" ab "$TMP/D" --vs "$TMP/E" >"$TMP/near1.txt" || fail "near 1: exit $?"
grep -q '^hipMalloc .* 0\.997  \[0\.997, 0\.997\] \*$' "$TMP/near1.txt" ||
	fail "near 1: $(grep hipMalloc "$TMP/near1.txt")"

# One run each: the bootstrap is over calls.
"$LBTRACE" ab --json "$TMP/A/1/t.lbt" --vs "$TMP/B/1/t.lbt" >"$TMP/one.json" || fail "one exit $?"
expect_true "$TMP/one.json" 'd["ci_by"] == "calls" and d["apis"][0]["ci_by"] == "calls"' "by calls"
expect_true "$TMP/one.json" 'all(r["ci_low"] <= 2 <= r["ci_high"] and r["excludes_1"] for r in d["apis"])' "by calls: 2, not 1"
# Fixed seed: the same input gives the same output.
"$LBTRACE" ab --json "$TMP/A/1/t.lbt" --vs "$TMP/B/1/t.lbt" | cmp -s - "$TMP/one.json" || fail "not deterministic"
echo ok
