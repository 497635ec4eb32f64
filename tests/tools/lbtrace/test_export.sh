#!/bin/sh
# export --format chrome: valid JSON (python3 -m json.tool), a track per
# thread and per stream, kernel-named stream slices, track names.
. tests/tools/lbtrace/lib.sh

"$L" export --format chrome -o out.json basic.lbt crash.lbt multi1.lbt multi2.lbt ||
	fail "export exit status"
python3 -m json.tool out.json >/dev/null && ok "valid JSON" || fail "invalid JSON"
python3 - out.json <<'PY' && ok "tracks and slices" || fail "tracks and slices"
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
X = [e for e in ev if e["ph"] == "X"]
M = [e for e in ev if e["ph"] == "M"]
pnames = {e["pid"]: e["args"]["name"] for e in M if e["name"] == "process_name"}
tnames = {(e["pid"], e["tid"]): e["args"]["name"] for e in M if e["name"] == "thread_name"}
bad = []
for pid in (4242, 7000, 5000, 5001):
    if pid not in pnames: bad.append("no process %d" % pid)
    spid = [p for p, n in pnames.items() if n == "streams of %d" % pid]
    if not spid: bad.append("no stream group for %d" % pid)
if (4242, 4243) not in tnames or not tnames[(4242, 4243)].startswith("worker-1"):
    bad.append("thread name of 4243")
stream_slices = [e for e in X if pnames.get(e["pid"], "").startswith("streams of")]
if not any(e["name"].startswith("vector_add(") for e in stream_slices):
    bad.append("no kernel slice on a stream track")
if not any(tnames.get((e["pid"], e["tid"])) == "stream 0x5555000100" for e in stream_slices):
    bad.append("no track for stream 0x5555000100")
# slices of one stream track never overlap
by = {}
for e in stream_slices: by.setdefault((e["pid"], e["tid"]), []).append(e)
for k, v in by.items():
    v.sort(key=lambda e: e["ts"])
    for a, b in zip(v, v[1:]):
        if a["ts"] + a["dur"] > b["ts"] + 1e-6: bad.append("overlap on %s" % (k,)); break
calls = [e for e in X if e["pid"] == 4242 and e["tid"] == 4242]
if len(calls) < 60: bad.append("few calls on thread 4242: %d" % len(calls))
if not any(e["ph"] == "i" and e["name"] == "SIGSEGV" for e in ev): bad.append("no crash")
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
# filters apply to export too
"$L" export --format=chrome --api hipFree -o one.json basic.lbt || fail "export --api"
n=$(python3 -c 'import json;print(sum(1 for e in json.load(open("one.json"))["traceEvents"] if e["ph"]=="X"))')
[ "$n" = 1 ] && ok "export --api" || fail "export --api: $n slices"
# without -o: to stdout
"$L" export --format chrome basic.lbt | python3 -m json.tool >/dev/null &&
	ok "export to stdout" || fail "export to stdout"
finish
