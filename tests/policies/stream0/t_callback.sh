# A callback added on the null stream (or hipStreamPerThread) is told the
# stream the program named, with and without the policy: stream0 puts the
# work on S but the callback is not shown S (s0_test.c, callback).
. tests/policies/stream0/lib.sh
both callback
