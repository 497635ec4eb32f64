# hipDeviceReset: the per-thread stream goes with the device and a new one
# is made on next use; a forked child forgets the parent's streams.
. tests/policies/stream0/lib.sh
both reset
both fork
# A reset while another thread makes its stream: hipemu holds each new
# stream 300 ms before handing it over, and the reset comes 60 ms into it.
HIPEMU_COST_STREAM_NS=300000000 both resetrace
LBSHIM_LOG=info perthread "$D/s0_test" fork perthread 2>"$T/info" ||
	fail "fork at LBSHIM_LOG=info"
cat "$T/info"
# The child reports no thread of the parent's.
grep -q 'stream0: 0 threads' "$T/info" || fail "child did not forget"
exit 0
