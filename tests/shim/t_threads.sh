# t_threads.sh - first calls from 16 threads at once: one initialization,
# every call forwarded.
. tests/shim/lib.sh
LD_LIBRARY_PATH=$FAKE with_shim "$T/prog_threads" >"$TMP/out" 2>"$TMP/err"
expect_eq "exit" "$?" 0
expect_eq "output" "$(cat "$TMP/out")" "bad=0"
[ -s "$TMP/err" ] && fail "unexpected stderr: $(cat "$TMP/err")"
exit 0
