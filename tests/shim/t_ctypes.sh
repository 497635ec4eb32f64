# t_ctypes.sh - the README's and lbshim(7)'s advice for calling HIP from
# Python's ctypes: put the runtime the process has (found in
# /proc/self/maps; else the soname) in the global scope with RTLD_GLOBAL,
# never a second one, and look the functions up there (CDLL(None)).  That works both ways: with the shim preloaded the calls go
# through it (they are in the trace), without it they reach the runtime;
# and both also when a C extension loaded the runtime RTLD_LOCAL first,
# as PyTorch's do (there CDLL(None) alone finds nothing without the shim).
. tests/shim/lib.sh
cd "$TMP" || exit 1
cat >adv.py <<'X'
import ctypes, sys
if sys.argv[1] == "ext":
    import lbext  # noqa: F401  (links the runtime; Python loads it RTLD_LOCAL)
if sys.argv[2] == "none-only":
    hip = ctypes.CDLL(None)
else:  # the README's advice, as written there
    rt = next((l.split()[-1] for l in open("/proc/self/maps") if "/libamdhip64" in l),
              "libamdhip64.so.5")
    ctypes.CDLL(rt, mode=ctypes.RTLD_GLOBAL)   # the same object again, now global
    hip = ctypes.CDLL(None)
    rts = {l.split()[-1] for l in open("/proc/self/maps") if "/libamdhip64" in l}
    assert len(rts) == 1, "runtimes loaded: %s" % rts
p = ctypes.c_void_p()
a = hip.hipMalloc(ctypes.byref(p), ctypes.c_size_t(12345))
print(a, hip.hipFree(p))
X
py() { PYTHONPATH=$T LD_LIBRARY_PATH=$HIPEMU "$@"; }

# The case the advice is for: the runtime loaded RTLD_LOCAL, no shim,
# CDLL(None) alone does not find hipMalloc.
py python3 adv.py ext none-only >/dev/null 2>"$TMP/err" &&
	fail "CDLL(None) found hipMalloc: the runtime was not loaded RTLD_LOCAL?"
grep -q "AttributeError: .*hipMalloc" "$TMP/err" ||
	fail "CDLL(None) alone: $(cat "$TMP/err")"
for first in plain ext; do
	got=$(py python3 adv.py $first advice 2>"$TMP/err") ||
		fail "$first, without the shim: $(cat "$TMP/err")"
	expect_eq "$first, without the shim" "$got" "0 0"
	got=$(LBSHIM_POLICIES=trace LBSHIM_TRACE=$TMP/$first.%p.lbt \
		py with_shim python3 adv.py $first advice 2>"$TMP/err") ||
		fail "$first, with the shim: $(cat "$TMP/err")"
	expect_eq "$first, with the shim" "$got" "0 0"
	[ -x "$B/lbtrace" ] || continue
	"$B/lbtrace" print --json "$TMP/$first".*.lbt >"$TMP/$first.json" ||
		fail "lbtrace print"
	grep -q '"api":"hipMalloc".*12345' "$TMP/$first.json" ||
		fail "$first: ctypes' hipMalloc did not go through the shim: $(head -c 2000 "$TMP/$first.json")"
done
exit 0
