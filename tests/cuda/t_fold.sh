#!/bin/sh
# t_fold.sh - the trace folds a run of identical device queries into one
# record (policies/trace/trace.c, lb_trace_post_query; trace_format.h):
# prog_fold's 25 cudaGetDevice calls (10 answering device 0, a
# cudaSetDevice, 10 answering 1, 2 failures, 3 answering 1) are 5 records
# in the file (a failure never folds, nor a call after a different one),
# and lbtrace gives back every call: print, its JSON and summary count
# 25, in the program's order, with the right answers.
. tests/cuda/lib.sh
cd "$TMP"
HIPEMU_DEVICES=2 traced f "$T/prog_fold" >"$TMP/out" 2>&1 ||
	fail "prog_fold under trace: $(cat "$TMP/out")"
grep -qx 'fold: ok' "$TMP/out" || fail "prog_fold's answers: $(cat "$TMP/out")"
"$LBTRACE" summary "$TMP/f.lbt" >"$TMP/sum" || fail "lbtrace summary"
head -1 "$TMP/sum" | grep -q ' 6 records, 26 calls,' ||
	fail "records and calls: $(head -1 "$TMP/sum")"
grep -Eq '^ +25 +2 .* cudaGetDevice$' "$TMP/sum" ||
	fail "summary's row: $(grep cudaGetDevice "$TMP/sum")"
"$LBTRACE" print "$TMP/f.lbt" >"$TMP/print" || fail "lbtrace print"
sed -n 's/.* \(cuda[GS]etDevice\)(device_id=\([0-9]*\)) ret=\([0-9]*\).*/\1 \2 \3/p' \
	"$TMP/print" | uniq -c | awk '{ print $1, $2, $3, $4 }' >"$TMP/seq"
# the failures' device_id is not an answer (the trace records it as 0)
printf '%s\n' '10 cudaGetDevice 0 0' '1 cudaSetDevice 1 0' \
	'10 cudaGetDevice 1 0' '2 cudaGetDevice 0 1' '3 cudaGetDevice 1 0' |
	diff - "$TMP/seq" >"$TMP/diff" || fail "the calls in order: $(cat "$TMP/diff")"
n=$("$LBTRACE" print --json "$TMP/f.lbt" | grep -c '"api":"cudaGetDevice"')
[ "$n" = 25 ] || fail "print --json: $n cudaGetDevice, want 25"
# times: each folded call after the one before it, in the thread's order
awk '/cudaGetDevice/ { if ($1 < t) bad = 1; t = $1 } END { exit bad }' \
	"$TMP/print" || fail "folded calls out of order: $(grep cudaGetDevice "$TMP/print")"
echo "25 device queries: 5 records, 25 calls read back in order"
# a record claiming more calls than its span holds is read as one call
# (reader_iter.c, lbt_raw_folded): no reader loops on a forged count
"$PY" - "$TMP/f.lbt" "$TMP/forged.lbt" <<'PYEOF' || fail "forging the count"
import struct, sys
b = bytearray(open(sys.argv[1], "rb").read())
n = 0
for off in range(0, len(b) - 63, 64):
    t, = struct.unpack_from("<B", b, off)
    a0, = struct.unpack_from("<Q", b, off + 40)
    if t == 1 and a0 >> 32 == 9 and n == 0:
        struct.pack_into("<Q", b, off + 40, (a0 & 0xffffffff) | 0xffffffff << 32)
        n += 1
open(sys.argv[2], "wb").write(b)
sys.exit(0 if n == 1 else 1)
PYEOF
n=$(timeout 20 "$LBTRACE" print "$TMP/forged.lbt" | grep -c 'cudaGetDevice') ||
	fail "print of the forged file"
[ "$n" = 16 ] || fail "forged count: $n cudaGetDevice read back, want 16"
timeout 20 "$LBTRACE" summary "$TMP/forged.lbt" >/dev/null ||
	fail "summary of the forged file"
echo "a forged count is not believed"
