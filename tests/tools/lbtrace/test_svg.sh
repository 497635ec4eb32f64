#!/bin/sh
# export --svg: a well-formed picture, a panel per file on one time axis,
# a lane per thread named as the trace names it, sync bars as wide as
# their recorded waits (the IMU's behind the camera's encoder in the
# legacy run, not in the stream0 run), kernel names where they fit,
# sub-pixel bars merged, crashes and calls in flight drawn, the size
# bounded on 60 s traces, bad options refused; the PNG when a renderer
# is here.
. tests/tools/lbtrace/lib.sh

"$GEN" pipeline legacy.lbt legacy || exit 1
"$GEN" pipeline stream0.lbt stream0 || exit 1

# wellformed FILE: xmllint when present, else python3's parser
wellformed() {
	if command -v xmllint >/dev/null 2>&1; then
		xmllint --noout "$1"
	else
		python3 -c 'import sys, xml.etree.ElementTree as E
E.parse(sys.stdin if sys.argv[1] == "-" else sys.argv[1])' "$1"
	fi
}

"$L" export --svg two.svg legacy.lbt stream0.lbt 2>err.txt &&
	[ ! -s err.txt ] || fail "export --svg: exit status or stderr"
wellformed two.svg && ok "well-formed SVG" || fail "not well-formed"

"$L" print --json legacy.lbt >legacy.json && "$L" print --json stream0.lbt >stream0.json ||
	fail "print --json"

# The picture read back: panels, lanes (by y) and the bars in them.
cat >svg.py <<'PY'
import json, sys, xml.etree.ElementTree as E
N = "{http://www.w3.org/2000/svg}"
def panels(path):
    root = E.parse(path).getroot()
    out = []
    for g in root.iter(N + "g"):
        if g.get("class") != "panel":
            continue
        lanes = {}
        rects = [r for r in g.iter(N + "rect") if r.get("class") == "lane"]
        names = [t for t in g.iter(N + "text") if t.get("class") == "lane-name"]
        for r, t in zip(rects, names):
            lanes[t.text.strip()] = float(r.get("y"))
        out.append({"file": g.get("data-file"), "x0": float(g.get("data-x0")),
                    "pxms": float(g.get("data-px-per-ms")), "lanes": lanes,
                    "names": [t.text.strip() for t in names]})
    # bars belong to the lane whose band holds their y, in document order
    bars = []
    for r in root.iter(N + "rect"):
        c = r.get("class") or ""
        if (c.split() or [""])[0] in ("launch", "sync", "copy", "mem", "other"):
            t = r.find(N + "title")
            bars.append({"cls": c.split(), "x": float(r.get("x")),
                         "y": float(r.get("y")), "w": float(r.get("width")),
                         "title": t.text if t is not None else ""})
    for p in out:
        ys = sorted(p["lanes"].items(), key=lambda kv: kv[1])
        p["bars"] = {n: [b for b in bars if y <= b["y"] < y + 18] for n, y in ys}
    texts = [t.text or "" for t in root.iter(N + "text")]
    return out, texts
def calls(path):
    return [json.loads(l) for l in open(path) if '"type":"call"' in l]
PY

python3 - <<'PY' && ok "panels on one axis, lanes named as the trace names them" ||
import sys; sys.path.insert(0, ".")
from svg import panels
ps, _ = panels("two.svg")
bad = []
if [p["file"] for p in ps] != ["legacy.lbt", "stream0.lbt"]:
    bad.append("panels: %s" % [p["file"] for p in ps])
if len({(p["x0"], p["pxms"]) for p in ps}) != 1:
    bad.append("panels on different scales")
for p in ps:
    if p["names"] != ["main", "camera", "imu", "sampler"]:
        bad.append("%s lanes %s" % (p["file"], p["names"]))
if ps and abs(ps[0]["pxms"] - 1180 / 200) > 1e-6:
    bad.append("default window not 200 ms: %s px/ms" % ps[0]["pxms"])
if bad: print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
	fail "panels and lanes"

# Every IMU sync wholly in the window and at least a pixel wide is a bar
# from its entry to its return; legacy: some wait > 10 ms; stream0: no
# IMU bar is wider than 0.5 ms.
python3 - <<'PY' && ok "sync bars as wide as their waits; the IMU waits in legacy only" ||
import sys; sys.path.insert(0, ".")
from svg import panels, calls
ps, texts = panels("two.svg")
bad = []
if not any("narrower than 1 px" in t for t in texts):
    bad.append("merge width is not 1 px")
for p, js in zip(ps, ("legacy.json", "stream0.json")):
    cs = calls(js)
    la = {}
    for c in cs:
        if c["api"] == "hipLaunchKernel":
            la.setdefault(c["tid"], []).append(c["t_ns"])
    busiest = max(la, key=lambda t: (len(la[t]), -t))
    ws = min(la[busiest])
    syncs = [c for c in cs if c["tid"] == 9002 and c["api"] == "hipStreamSynchronize"
             and c["t_ns"] >= ws and c["t_ns"] + c["dur_ns"] <= ws + 200e6
             and c["dur_ns"] / 1e6 * p["pxms"] >= 1]
    bars = [b for b in p["bars"]["imu"] if "sync" in b["cls"] and "merged" not in b["cls"]]
    widest = max(b["w"] for b in p["bars"]["imu"]) / p["pxms"]
    if js == "stream0.json":
        if widest > 0.5:
            bad.append("stream0: an IMU bar of %.3f ms" % widest)
        continue
    if len(syncs) < 10 or len(bars) != len(syncs):
        bad.append("%s: %d syncs, %d sync bars" % (js, len(syncs), len(bars)))
        continue
    for c, b in zip(syncs, bars):
        x = p["x0"] + (c["t_ns"] - ws) / 1e6 * p["pxms"]
        w = c["dur_ns"] / 1e6 * p["pxms"]
        if abs(b["x"] - x) > 0.011 or abs(b["w"] - w) > 0.011:
            bad.append("%s: sync at %d: bar x %.2f w %.2f, wanted %.2f %.2f"
                       % (js, c["t_ns"], b["x"], b["w"], x, w))
    if max(c["dur_ns"] for c in syncs) / 1e6 < 10:
        bad.append("legacy: no IMU sync waits 10 ms")
if bad: print("\n".join(bad[:5]))
sys.exit(1 if bad else 0)
PY
	fail "sync bars"

# The camera's 12 launches of a frame (0.1 px each) are one merged bar.
python3 - <<'PY' && ok "sub-pixel bars merged" ||
import sys; sys.path.insert(0, ".")
from svg import panels
ps, _ = panels("two.svg")
bad = []
for p in ps:
    cam = p["bars"]["camera"]
    merged = [b for b in cam if "merged" in b["cls"]]
    if len(cam) > 20 or len(merged) < 5:
        bad.append("%s: %d camera bars, %d merged" % (p["file"], len(cam), len(merged)))
    if not any(b["title"].startswith("12 calls merged") for b in merged):
        bad.append("%s: no run of a frame's 12 launches" % p["file"])
if bad: print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
	fail "merging"

# Zoomed in (0.2 ms from 10 ms): launches are wide, each its own bar,
# named by its kernel.
"$L" export --svg zoom.svg --window 10,0.2 legacy.lbt || fail "--window 10,0.2"
python3 - <<'PY' && ok "kernel names on launch bars that fit" ||
import sys; sys.path.insert(0, ".")
from svg import panels
ps, texts = panels("zoom.svg")
cam = [b for b in ps[0]["bars"]["camera"] if "launch" in b["cls"]]
ok = len(cam) >= 8 and not any("merged" in b["cls"] for b in cam) and \
    "resnet_block" in texts and "conv_stem" in texts
if not ok: print("camera launch bars %d" % len(cam))
sys.exit(0 if ok else 1)
PY
	fail "kernel labels"

# --tid keeps one lane; a crash is a line, a call without its return a
# dashed bar to the end of the window (a hang: 2.5 s).
"$L" export --svg tid.svg --tid 9002 legacy.lbt || fail "--tid"
n=$(grep -c 'class="lane-name"' tid.svg)
[ "$n" = 1 ] && grep -q '>imu <tspan' tid.svg && ok "--tid: one lane" || fail "--tid: $n lanes"
"$L" export --svg crash.svg --window 0,1 crash.lbt hang.lbt || fail "crash, hang"
grep -q 'class="crash"' crash.svg && grep -q '>SIGSEGV<' crash.svg &&
	ok "crash drawn" || fail "no crash line"
python3 - <<'PY' && ok "calls in flight drawn to the window's end" ||
import sys; sys.path.insert(0, ".")
from svg import panels
ps, _ = panels("crash.svg")
fl = [b for b in ps[1]["bars"]["main"] + ps[1]["bars"]["worker"] if "inflight" in b["cls"]]
ok = len(fl) == 2 and all(abs(b["x"] + b["w"] - 1350) < 0.02 for b in fl)
if not ok: print([(b["cls"], b["x"], b["w"]) for b in fl])
sys.exit(0 if ok else 1)
PY
	fail "in flight"

# 60 s of both runs at once: small, and bounded however long.
"$GEN" pipeline long1.lbt legacy 60 && "$GEN" pipeline long2.lbt stream0 60 || exit 1
"$L" export --svg long.svg --window 0,61000 long1.lbt long2.lbt || fail "60 s"
sz=$(wc -c <long.svg) nr=$(grep -c '<rect' long.svg)
wellformed long.svg && [ "$sz" -lt 2000000 ] && [ "$nr" -le 8100 ] &&
	ok "60 s traces: $sz bytes, $nr rects" || fail "60 s: $sz bytes, $nr rects"
"$L" export --svg long.svg long1.lbt long2.lbt && [ "$(wc -c <long.svg)" -lt 200000 ] &&
	ok "60 s traces, default window: $(wc -c <long.svg) bytes" || fail "60 s default window"

# Bad options: one line, the usage, exit 1 (bad usage), no file written.
for args in "--window" "--window 0" "--window -1,5" "--window 5," "--window abc" \
	"--window 1,2,3" "--window nan" "--window 1,inf" "--svg" \
	"--svg x.svg --format chrome" "--svg x.svg -o y.json" \
	"--window 5 --format chrome"; do
	rm -f x.svg
	# shellcheck disable=SC2086
	"$L" export $args legacy.lbt >out.txt 2>err.txt
	rc=$?
	if [ $rc = 1 ] && head -n 1 err.txt | grep -q '^lbtrace: ' &&
		sed -n 2p err.txt | grep -q '^usage: lbtrace export' && [ ! -e x.svg ]; then
		ok "export $args: refused"
	else
		fail "export $args: exit $rc"; cat err.txt
	fi
done
head -n 1 err.txt | grep -q 'window is for --svg' || fail "message of --window without --svg"
"$L" export --svg - legacy.lbt | wellformed - && ok "--svg - writes to stdout" ||
	fail "--svg -"

# The PNG, when a renderer is installed (CI has one: mk/deps.sh).
if command -v rsvg-convert >/dev/null 2>&1 ||
	convert -version 2>/dev/null | grep -q ImageMagick; then
	sh "$TOP/tests/tools/lbtrace/svg2png.sh" two.svg two.png >/dev/null &&
		head -c 24 two.png | od -An -tx1 | tr -d ' \n' |
		grep -q '^89504e470d0a1a0a0000000d4948445200000578' &&
		ok "rendered as a 1400 px wide PNG" || fail "svg2png.sh"
else
	ok "no SVG renderer here: PNG not tried"
fi
finish
