# While a user stream captures, null-stream calls get the results and
# errors they get without the policy; capture of the null stream itself
# captures S (an error on the legacy stream).
. tests/policies/stream0/lib.sh
both capture
grep -v '^null begin' "$T/legacy.out" >"$T/a"
grep -v '^null begin' "$T/pt.out" >"$T/b"
grep -q '^ERR global begin = 0' "$T/a" || fail "capture did not begin"
diff "$T/a" "$T/b" || fail "capture results differ under stream0"
grep -q '^null begin 0' "$T/pt.out" || fail "BeginCapture(0) under stream0"
exit 0
