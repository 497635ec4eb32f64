# t_deepbind.sh - the dlopen wrapper: a library that needs a HIP runtime,
# opened with RTLD_DEEPBIND, gets one warning (its calls bypass the shim,
# which the run shows); other opens get none; what dlopen, dlerror and
# errno say is unchanged, also for a bare name that only the calling
# library's RUNPATH finds; before any HIP call.
. tests/shim/lib.sh
RT=$B/tests/runtime
P=$RT/prog_deepbind
W='was opened with RTLD_DEEPBIND: its HIP calls bypass lbshim'
plainlib=$RT/plain/librt_plain.so

# The sanitizers' runtimes refuse RTLD_DEEPBIND (google/sanitizers#611)
# and their own dlopen interceptor loses the caller's RUNPATH: against the
# ASan shim, only plain opens are compared, each side with those runtimes.
if [ -n "$PRELOAD_PREFIX" ]; then
	args="l:$plainlib l:$RT/nonexistent.so l:librt_plain.so"
	LD_PRELOAD="$PRELOAD_PREFIX" "$P" $args >"$TMP/plain" 2>&1 || fail "program failed"
	with_shim "$P" $args >"$TMP/out" 2>"$TMP/err" || fail "program failed: $(cat "$TMP/err")"
	diff "$TMP/plain" "$TMP/out" || fail "dlopen/dlerror/errno differ under the shim"
	[ -s "$TMP/err" ] && fail "stderr: $(cat "$TMP/err")"
	echo "sanitizers: RTLD_DEEPBIND and RUNPATH cases not run"
	exit 0
fi
args="d:$plainlib d:$RT/nonexistent.so d:$RT/so6/ext/rt_ext.so d:$RT/so7/ext/rt_ext.so"

# What the program sees is the same with and without the shim.
"$P" $args >"$TMP/plain" 2>&1 || fail "program failed without the shim"
with_shim "$P" $args >"$TMP/out" 2>"$TMP/err" || fail "program failed: $(cat "$TMP/err")"
diff "$TMP/plain" "$TMP/out" || fail "dlopen/dlerror/errno differ under the shim"
# The bypass is real: the DEEPBIND library's hipMalloc is its runtime's.
grep -q "so6/ext/rt_ext.so: ok .* bound=libamdhip64.so.6" "$TMP/out" ||
	fail "DEEPBIND library not bound to its runtime: $(cat "$TMP/out")"
# One warning, naming the first such library; none for the library
# without HIP or the failed open.
expect_eq "warnings" "$(grep -c "$W" "$TMP/err")" 1
grep -q "^lbshim: .*so6/ext/rt_ext.so $W\$" "$TMP/err" ||
	fail "warning does not name the library: $(cat "$TMP/err")"
expect_eq "other stderr" "$(grep -vc "$W" "$TMP/err")" 0

# Without RTLD_DEEPBIND, or already loaded without it: nothing said.
with_shim "$P" "l:$RT/so6/ext/rt_ext.so" "d:$RT/so6/ext/rt_ext.so" >/dev/null 2>"$TMP/err"
[ -s "$TMP/err" ] && fail "warned without a DEEPBIND load: $(cat "$TMP/err")"
# LBSHIM_LOG=error silences it, although the shim has not started yet.
LBSHIM_LOG=error with_shim "$P" "d:$RT/so6/ext/rt_ext.so" >/dev/null 2>"$TMP/err"
[ -s "$TMP/err" ] && fail "LBSHIM_LOG=error: $(cat "$TMP/err")"

# A bare name found only in the calling library's RUNPATH: found under
# the shim too, with and without RTLD_DEEPBIND.
args="L:librt_plain.so D:librt_plain.so"
"$P" -o "$RT/librt_opener.so" $args >"$TMP/plain" 2>&1
grep -q "L:librt_plain.so: ok" "$TMP/plain" || fail "opener broken: $(cat "$TMP/plain")"
with_shim "$P" -o "$RT/librt_opener.so" $args >"$TMP/out" 2>"$TMP/err"
diff "$TMP/plain" "$TMP/out" || fail "the caller's RUNPATH is lost under the shim"
# And from the main program, which has no RUNPATH: not found either way.
"$P" "d:librt_plain.so" >"$TMP/plain" 2>&1
with_shim "$P" "d:librt_plain.so" >"$TMP/out" 2>&1
diff "$TMP/plain" "$TMP/out" || fail "bare name from the program differs"
grep -q "failed" "$TMP/out" || fail "found a library nobody's path has: $(cat "$TMP/out")"
exit 0
