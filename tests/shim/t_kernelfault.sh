# t_kernelfault.sh - a kernel faults on the device: same exit status with
# and without the shim, and the trace explains it (lbtrace crash shows the
# signal, the faulting kernel's frame and the calls before it).
. tests/shim/lib.sh
cd "$TMP" || exit 1
# Under the sanitizer build, let the fault reach the shim, not ASan's handler.
export ASAN_OPTIONS="${ASAN_OPTIONS:-}:handle_segv=0" UBSAN_OPTIONS="${UBSAN_OPTIONS:-}:handle_segv=0"
LD_LIBRARY_PATH=$HIPEMU "$T/prog_kernelfault" >/dev/null 2>&1
plain=$?
LBSHIM_POLICIES=trace LBSHIM_TRACE=case.%p.lbt LD_LIBRARY_PATH=$HIPEMU \
	with_shim "$T/prog_kernelfault" >/dev/null 2>&1
expect_eq "exit status" "$?" "$plain"
expect_eq "exit status without the shim" "$plain" 139
[ -x "$B/lbtrace" ] || { echo "no lbtrace built"; exit 77; }
"$B/lbtrace" crash case.*.lbt >crash.txt 2>&1 || fail "lbtrace crash: $(cat crash.txt)"
grep -q '^\*\*\* SIGSEGV' crash.txt || fail "no crash record: $(cat crash.txt)"
grep -q 'hipemu_twin_decode_step' crash.txt || fail "faulting frame missing: $(cat crash.txt)"
# The fourth launch runs on hipemu's worker as soon as it is queued: the
# fault can come while the main thread is still inside that launch (its
# record then shows as the call in flight) or later, inside
# hipDeviceSynchronize.
n=$(grep -c 'hipModuleLaunchKernel(kernel=decode_step' crash.txt)
if [ "$n" = 3 ]; then
	inflight=hipModuleLaunchKernel
else
	expect_eq "launches before the crash" "$n" 4
	inflight=hipDeviceSynchronize
fi
grep -q "^  $inflight(.*) on thread [0-9]* .*: entered at .* until the SIGSEGV$" crash.txt ||
	fail "the main thread's call in flight ($inflight) is not shown: $(cat crash.txt)"
