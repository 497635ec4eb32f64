# run_check.sh - the Check suites of the foundation: the API table against
# the real runtime, and exact forwarding of every wrapper through the shim,
# with no policy and with the trace policy (which must not change anything
# the program or the runtime sees).
. tests/shim/lib.sh
"$T/check_table" || fail "API table"
"$T/check_config" || fail "configuration parsers"
LD_LIBRARY_PATH=$FAKE with_shim "$T/check_forward" || fail "forwarding"
if [ -e policies/trace/trace.c ]; then
	cd "$TMP" && LBSHIM_POLICIES=trace LD_LIBRARY_PATH=$FAKE \
		with_shim "$T/check_forward" || fail "forwarding under trace"
fi
exit 0
