# t_python.sh - a Python process importing a C extension that links the
# runtime: the extension's calls go through the shim (which finds the
# runtime although Python loaded it RTLD_LOCAL), with the same results.
. tests/shim/lib.sh
py() { PYTHONPATH=$T python3 -c 'import lbext; print(lbext.malloc_free())'; }
plain=$(py 2>/dev/null)
[ -n "$plain" ] || fail "extension did not run"
got=$(LBSHIM_LOG=debug with_shim sh -c "PYTHONPATH=$T python3 -c 'import lbext; print(lbext.malloc_free())'" 2>"$TMP/err")
expect_eq "results" "$got" "$plain"
grep -q "lbshim: alloc: .* functions from .*libamdhip64.so.5" "$TMP/err" ||
	fail "the extension's calls did not go through the shim: $(cat "$TMP/err")"
# On hipemu the calls succeed.
got=$(LD_LIBRARY_PATH=$HIPEMU with_shim sh -c "PYTHONPATH=$T python3 -c 'import lbext; print(lbext.malloc_free())'")
expect_eq "results on hipemu" "$got" "(0, 0)"
# Under the trace policy the extension's calls are in the trace.
if [ -x "$B/lbtrace" ] && [ -e policies/trace/trace.c ]; then
	( cd "$TMP" && LBSHIM_POLICIES=trace LBSHIM_TRACE=py.%p.lbt LD_LIBRARY_PATH=$HIPEMU \
		with_shim sh -c "PYTHONPATH=$T python3 -c 'import lbext; lbext.malloc_free()'" ) ||
		fail "traced python run failed"
	"$B/lbtrace" print --json "$TMP"/py.*.lbt >"$TMP/py.json" || fail "lbtrace print"
	grep -q '"api":"hipMalloc".*"ret":0' "$TMP/py.json" || fail "hipMalloc not traced"
	grep -q '"api":"hipFree".*"ret":0' "$TMP/py.json" || fail "hipFree not traced"
fi
