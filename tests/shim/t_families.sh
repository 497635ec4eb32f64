# t_families.sh - every family on hipemu gives the same results and errors
# with and without the shim, with the trace policy, and when hipemu injects
# faults into some calls.
. tests/shim/lib.sh
cd "$TMP" || exit 1
run() { LD_LIBRARY_PATH=$HIPEMU "$@" "$T/prog_families"; }
run env >plain.out 2>plain.err || fail "plain run failed: $(cat plain.err)"
grep -q "^d: 10 11 73" plain.out || fail "wrong results on hipemu: $(cat plain.out)"
run with_shim >shim.out 2>shim.err || fail "shim run failed"
diff plain.out shim.out || fail "pass-through changed results"
if [ -e "$OLDPWD/policies/trace/trace.c" ]; then
	LBSHIM_POLICIES=trace run with_shim >trace.out 2>trace.err || fail "trace run failed"
	diff plain.out trace.out || fail "trace policy changed results"
fi
for f in "hipMalloc:2:hipErrorOutOfMemory" "hipMemcpyAsync:1:hipErrorInvalidValue" \
	"hipModuleLaunchKernel:1:hipErrorLaunchFailure" "hipStreamSynchronize:1+:hipErrorIllegalAddress"; do
	HIPEMU_FAIL=$f run env >f.plain 2>/dev/null
	HIPEMU_FAIL=$f run with_shim >f.shim 2>/dev/null
	diff f.plain f.shim || fail "injected $f: results differ"
	cmp -s f.plain plain.out && fail "injected $f had no effect"
done
exit 0
