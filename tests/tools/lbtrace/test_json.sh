#!/bin/sh
# print --json: every line is one JSON object with the contract's keys;
# pointers and streams are hex strings; launches, allocations and crashes
# carry their own keys.  Multiple files come out merged by time.
. tests/tools/lbtrace/lib.sh

"$L" print --json basic.lbt crash.lbt ring.lbt remap.lbt >all.json || fail "print --json"
"$L" print --json multi1.lbt multi2.lbt >multi.json || fail "print --json multi"
python3 - all.json multi.json <<'PY' || fail "JSON checks"
import json, re, sys
hexre = re.compile(r'^0x[0-9a-f]+$')
need = ["type", "seq", "pid", "tid", "api", "ret", "ret_name", "t_ns", "dur_ns"]
bad = 0
def err(msg, o):
    global bad
    bad += 1
    print("bad:", msg, o)
kinds = set()
for line in open(sys.argv[1]):
    o = json.loads(line)
    for k in need:
        if k not in o: err("missing " + k, o)
    kinds.add(o["type"])
    for k in ("stream", "stream_used", "ptr", "addr", "dst", "src"):
        if k in o and not hexre.match(o[k]): err("not hex: " + k, o)
    if o["type"] == "call":
        if not isinstance(o["api"], str): err("api", o)
        if o.get("api_kind") == "launch" and o["api"] != "hipLaunchHostFunc":
            for k in ("grid", "block", "shmem", "stream", "stream_used"):
                if k not in o: err("launch lacks " + k, o)
            if "kernel" in o and "(" not in o["kernel"]: err("not demangled", o)
        if o.get("api_kind") in ("alloc", "free"):
            for k in ("ptr", "pool"):
                if k not in o: err("alloc lacks " + k, o)
            if o["pool"] not in ("hit", "miss", "off"): err("pool", o)
            if o.get("api_kind") == "alloc" and "size" not in o: err("size", o)
        if o["ret"] == 0 and o["ret_name"] != "hipSuccess": err("ret_name", o)
    if o["type"] == "crash":
        if o["signal"] != "SIGSEGV" or o["addr"] != "0x10": err("crash", o)
        if not o["frames"] or not o["frames"][0].startswith("crash_here(int)"):
            err("frames", o)
        if not any(f.startswith("myapp::detail::process_request(myapp::Request const&)") for f in o["frames"]):
            err("long frame name not joined from its string", o)
for k in ("call", "crash", "lost", "thread", "stream0", "pool"):
    if k not in kinds: print("bad: no record of type", k); bad += 1
last = None; pids = []
for line in open(sys.argv[2]):
    o = json.loads(line)
    if last is not None and o["t_ns"] < last: err("not merged by time", o)
    last = o["t_ns"]; pids.append(o["pid"])
if sorted(set(pids)) != [5000, 5001]: print("bad: pids", set(pids)); bad += 1
# the two processes interleave: the child starts 1.5 ms later
if pids[:5] != [5000] * 5 or 5001 not in pids[5:7]: print("bad: order", pids); bad += 1
sys.exit(1 if bad else 0)
PY
[ $? = 0 ] && ok "json keys and merge order"

# seq is the per-thread slot sequence: increasing within each thread
"$L" print --json basic.lbt | python3 -c '
import json, sys
last = {}
for l in sys.stdin:
    o = json.loads(l)
    if o["tid"] in last and o["seq"] <= last[o["tid"]]:
        sys.exit("seq not increasing on thread %d" % o["tid"])
    last[o["tid"]] = o["seq"]
' && ok "seq per thread" || fail "seq per thread"

# the ring file shows only the last lap of each thread, in order
n=$("$L" print --json --tid 9000 ring.lbt | wc -l)
[ "$n" = 63 ] && ok "ring: 63 records of the main thread" || fail "ring: $n records"
"$L" print --json --tid 9000 ring.lbt | python3 -c '
import json, sys
t = [json.loads(l)["t_ns"] for l in sys.stdin]
sys.exit(0 if t == sorted(t) else "ring not read oldest first")
' && ok "ring order" || fail "ring order"
finish
