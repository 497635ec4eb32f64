# 16 threads x 100000 calls: every record present, each thread's in order.
. "$(dirname "$0")/lib.sh"

LBSHIM_POLICIES=trace LBSHIM_TRACE=threads.lbt traced "$PROG" threads 16 100000 \
	2>err || fail "exit $?"
[ -s err ] && { cat err; fail "the shim printed something"; }
"$DUMP" --check-seq 100000 threads.lbt >check
cat check
expect "^threads=16 ok$" check
"$DUMP" threads.lbt >dump
[ "$(count '^lost ' dump)" = 0 ] || fail "records were lost"
[ "$(count '^thread .* exit=1$' dump)" = 16 ] || fail "thread exit records"
echo ok
