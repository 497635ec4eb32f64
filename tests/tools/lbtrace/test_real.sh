#!/bin/sh
# lbtrace on traces that the real trace policy wrote (liblbshim.so over
# the trace tests' answering fake runtime, build/trace/fake): the reader
# and the writer agree on the format.  Skipped when those are not built.
. tests/tools/lbtrace/lib.sh
SHIM=$TOP/$BUILD/liblbshim.so
PROG=$TOP/$BUILD/trace/tprog
FAKE=$TOP/$BUILD/trace/fake
[ -x "$PROG" ] && [ -f "$SHIM" ] && [ -f "$FAKE/libamdhip64.so.5" ] ||
	{ echo "shim or trace test programs not built"; exit 77; }
run() { # NAME ARGS...: a trace of tprog ARGS in NAME.lbt
	n=$1; shift
	LD_LIBRARY_PATH=$FAKE LD_PRELOAD=$SHIM LBSHIM_POLICIES=trace \
		LBSHIM_TRACE=$W/$n.lbt "$PROG" "$@" >/dev/null 2>&1
}

run threads threads 3 200
"$L" summary threads.lbt >sum.txt 2>err.txt || fail "summary exit $?"
n=$(awk '$NF == "hipMemset" { print $1 }' sum.txt)
[ "$n" = 600 ] && ok "summary: 600 hipMemset" || { fail "summary: '$n' hipMemset"; cat sum.txt err.txt; }
"$L" print --json threads.lbt >t.json || fail "print --json exit $?"
python3 - t.json <<'PY' && ok "json of a real trace" || fail "json of a real trace"
import json, sys
calls = [json.loads(l) for l in open(sys.argv[1])]
ms = [c for c in calls if c.get("api") == "hipMemset"]
tids = set(c["tid"] for c in ms)
assert len(ms) == 600 and len(tids) == 3, (len(ms), tids)
for t in tids:  # each thread's calls in order: value 0..199, seq rising
    mine = [c for c in ms if c["tid"] == t]
    assert [c["value"] for c in mine] == list(range(200)), t
    assert [c["seq"] for c in mine] == sorted(c["seq"] for c in mine)
t = [c["t_ns"] for c in calls]
assert t == sorted(t), "not merged by time"
PY

run calls calls
"$L" print calls.lbt >calls.txt 2>err.txt || fail "print calls exit $?"
[ -s calls.txt ] && ! grep -q 'api#' calls.txt && ok "print: every API named" ||
	{ fail "print calls"; head calls.txt; }
"$L" export --format chrome -o calls.json calls.lbt &&
	python3 -m json.tool calls.json >/dev/null && ok "export of a real trace" ||
	fail "export of a real trace"

run inrt crash inrt 5
"$L" crash inrt.lbt >crash.txt 2>err.txt || fail "crash exit $?"
grep -q '^\*\*\* SIGSEGV' crash.txt && grep -q 'address 0xdead0000' crash.txt &&
	grep -q '^  hipMemset(dst=0xdead0000, .*) on thread .*: entered at .* until the SIGSEGV$' crash.txt &&
	grep -q 'crash_here' crash.txt && ok "crash report of a real crash" ||
	{ fail "crash report"; cat crash.txt; }
run segv crash segv-thread 5
"$L" crash segv.lbt >crash2.txt 2>err.txt || fail "crash exit $?"
grep -q 'crash_thread' crash2.txt && grep -q '^last 5 calls of thread' crash2.txt &&
	ok "crash on a second thread" || { fail "crash on a second thread"; cat crash2.txt; }
finish
