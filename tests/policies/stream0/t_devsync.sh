# hipDeviceSynchronize: the whole device by default and with =device, the
# thread's own stream with =thread; a bad value warns once, keeps default.
. tests/policies/stream0/lib.sh
legacy "$D/s0_test" devsync-device legacy || fail "without the policy"
perthread "$D/s0_test" devsync-device perthread || fail "default"
LBSHIM_STREAM0_DEVICE_SYNC=device perthread "$D/s0_test" devsync-device \
	perthread || fail "=device"
LBSHIM_STREAM0_DEVICE_SYNC=thread perthread "$D/s0_test" devsync-thread \
	perthread || fail "=thread"
LBSHIM_STREAM0_DEVICE_SYNC=bogus perthread "$D/s0_test" devsync-device \
	perthread 2>"$T/err" || { cat "$T/err"; fail "=bogus"; }
cat "$T/err"
n=$(grep -c 'LBSHIM_STREAM0_DEVICE_SYNC' "$T/err")
[ "$n" = 1 ] || fail "expected one warning, got $n"
grep 'LBSHIM_STREAM0_DEVICE_SYNC' "$T/err" | grep -q '^lbshim: ' ||
	fail "warning does not start with lbshim:"
grep 'LBSHIM_STREAM0_DEVICE_SYNC' "$T/err" | grep -q 'bogus' ||
	fail "warning does not name the value"
exit 0
