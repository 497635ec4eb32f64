# One thread: null-stream work stays in order, synchronous copies and sets
# see the kernels before them, bad arguments get the same errors, and the
# hazard count stays 0.
. tests/policies/stream0/lib.sh
both order
grep '^ERR' "$T/legacy.out" >"$T/a"
grep '^ERR' "$T/pt.out" >"$T/b"
[ -s "$T/a" ] || fail "no error lines"
diff "$T/a" "$T/b" || fail "errors differ under stream0"
LBSHIM_LOG=info perthread "$D/s0_test" order perthread >/dev/null 2>"$T/info" ||
	fail "order at LBSHIM_LOG=info"
cat "$T/info"
grep -q 'stream0: thread [0-9]*: 0 of [1-9][0-9]* null-stream syncs' "$T/info" ||
	fail "no per-thread count of 0"
grep 'stream0: thread [0-9]*: [1-9]' "$T/info" && fail "hazard counted"
grep -q 'stream0: 1 threads, 0 of ' "$T/info" || fail "total not 0"
exit 0
