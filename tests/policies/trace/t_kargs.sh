# Each launch's arguments (KARGS records): a hipcc program on hipemu
# launches kernels taking pointers, float, int, other scalars, a struct, an
# array in a struct, a template and a block past the 56 bytes recorded;
# lbtrace print shows each call typed from the demangled signature with
# the exact values passed, --json gives them as {offset, size, kind,
# value}, the long block is cut and says so.  Module launches record
# their kernelParams and their "extra" buffer (async.hip); a ring that
# wraps never pairs a launch with another launch's arguments.
. "$(dirname "$0")/lib.sh"

EMU=${EMU_DIR:-$BUILD/hipemu}
[ -f "$EMU/libamdhip64.so.5" ] && [ -x "$BUILD/trace/tkargs" ] ||
	{ echo "hipemu or hipcc not built"; exit 77; }
run() { # run TRACE PROG ARGS...
	f=$1; shift
	LBSHIM_POLICIES=trace LBSHIM_TRACE=$f LD_LIBRARY_PATH=$EMU \
		LD_PRELOAD="$SHIM" "$@"
}
run k.lbt "$BUILD/trace/tkargs" >ptrs 2>err || fail "tkargs: $(cat err)"
"$BUILD/lbtrace" print k.lbt >txt || fail "print"
"$BUILD/lbtrace" print --json k.lbt >json || fail "print --json"
v() { sed -n "s/^$1=//p" ptrs; }
x=$(v x) p=$(v p) xd=$(v xd) xi=$(v xi) o=$(v o) in=$(v in) pp=$(v pp)
[ -n "$x" ] && [ -n "$pp" ] || fail "no pointers: $(cat ptrs)"
has() { # has TEXT: a launch line of print has it
	grep -F -q -- "hipLaunchKernel(kernel=$1, grid=" txt || {
		grep Launch txt; fail "no launch line with '$1'"; }
}
has "scale(float* $x, float 2.5, int 4, Pair{$p, 4242, 0})"
has "arr(Arr{11, 22, 33, 44, 55}, int* $o)"
has "void fill<double>(double* $xd, double 0.1)"
has "void fill<int>(int* $xi, int -7)"
has "mix(unsigned char 200, short -3, long long -5000000000, bool true, double -1.5e+300, float const* $in, float** $pp)"
# 4 + 4 padding + 88 + 4: the record holds 56 bytes, the rest is cut
has "big(int 1, Big{0, 0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, ...}, int ...)"
expect "kernel=big\(.*\) ret=0 \(hipSuccess\) \+[0-9.]+ us \[args cut\]$" txt
[ "$(grep -c '\[args cut\]' txt)" = 1 ] || fail "only big is cut"

python3 - "$x" "$p" "$xd" "$xi" "$o" "$in" "$pp" <<'PY' || exit 1
import json, sys
x, p, xd, xi, o, inp, pp = sys.argv[1:]
want = {
    "_Z5scalePffi4Pair": [
        (0, 8, "global_buffer", "float*", x), (8, 4, "by_value", "float", 2.5),
        (12, 4, "by_value", "int", 4),
        (16, 16, "by_value", "Pair", [p, 4242, 0])],
    "_Z3arr3ArrPi": [(0, 20, "by_value", "Arr", [11, 22, 33, 44, 55]),
                     (24, 8, "global_buffer", "int*", o)],
    "_Z4fillIdEvPT_S0_": [(0, 8, "global_buffer", "double*", xd),
                          (8, 8, "by_value", "double", 0.1)],
    "_Z4fillIiEvPT_S0_": [(0, 8, "global_buffer", "int*", xi),
                          (8, 4, "by_value", "int", -7)],
    "_Z3mixhsxbdPKfPPf": [
        (0, 1, "by_value", "unsigned char", 200), (2, 2, "by_value", "short", -3),
        (8, 8, "by_value", "long long", -5000000000),
        (16, 1, "by_value", "bool", True), (24, 8, "by_value", "double", -1.5e300),
        (32, 8, "global_buffer", "float const*", inp),
        (40, 8, "global_buffer", "float**", pp)],
    "_Z3bigi3Bigi": [(0, 4, "by_value", "int", 1),
                     (8, 88, "by_value", "Big", None),
                     (96, 4, "by_value", "int", None)],
}
seen = {}
for line in open("json"):
    r = json.loads(line)
    if r.get("api") != "hipLaunchKernel":
        continue
    m = r.get("kernel_mangled")
    if "args" not in r:
        print("FAIL: %s: no args" % m); sys.exit(1)
    got = [(a["offset"], a["size"], a["kind"], a["type"], a["value"])
           for a in r["args"]]
    if got != want.get(m):
        print("FAIL: %s args %s, want %s" % (m, got, want.get(m))); sys.exit(1)
    if r.get("args_cut", False) != (m == "_Z3bigi3Bigi"):
        print("FAIL: %s args_cut %s" % (m, r.get("args_cut"))); sys.exit(1)
    seen[m] = 1
if sorted(seen) != sorted(want):
    print("FAIL: launches seen %s" % sorted(seen)); sys.exit(1)
PY

# module launches: kernelParams, then the "extra" buffer (async.hip)
run m.lbt "$BUILD/codeobj/async" module "$BUILD/codeobj/async.co" >out 2>&1 ||
	fail "async module: $(cat out)"
"$BUILD/lbtrace" print m.lbt >mtxt || fail "print module trace"
n=$(grep -c -E "hipModuleLaunchKernel\(kernel=scale\(float\* 0x[0-9a-f]+, float 2\.5, int 4, Pair\{0x[0-9a-f]+, 4242, 0\}\)" mtxt)
[ "$n" = 2 ] || { grep Launch mtxt; fail "$n scale module launches with args, want 2"; }
expect "hipModuleLaunchKernel\(kernel=tri\(int 7, Tri\{11, 22, 33\}, int\* 0x[0-9a-f]+\), grid" mtxt

# a ring of 63 slots, wrapped many times: each launch left keeps its own
# arguments (n counts up to the last launch's).  The ring overwrites the
# kernel's name and layout strings too: then the arguments show untyped,
# as the record's 8-byte words (0.5f is 1056964608).
LBSHIM_TRACE_RING=4096 run r.lbt "$BUILD/trace/tkargs" 300 >/dev/null 2>&1 ||
	fail "ring run"
"$BUILD/lbtrace" print r.lbt >rtxt || fail "print ring"
grep "hipLaunchKernel(" rtxt >rl
sed -n 's/.*kernel=.*\(float 0\.5, int \|{1056964608, \)\([0-9]*\)[,}].*/\2/p' rl >ns
[ "$(wc -l <ns)" -ge 10 ] || { cat rtxt; fail "too few launches left in the ring"; }
[ "$(wc -l <ns)" = "$(wc -l <rl)" ] || { cat rl; fail "a launch without its arguments"; }
[ "$(tail -n 1 ns)" = 299 ] || fail "last launch's n is $(tail -n 1 ns)"
awk 'NR > 1 && $1 != prev + 1 { bad = 1 } { prev = $1 } END { exit bad }' ns ||
	fail "launches and arguments out of step: $(tr '\n' ' ' <ns)"
echo ok
