#!/bin/sh
# t_trace_kinfo.sh - under the trace policy, every kernel a hipcc program
# registers (and every function it gets from a module loaded with
# hipModuleLoadData) has a KINFO record whose facts are llvm-readelf's for
# that code object; lbtrace print shows it, print --json gives it as a
# "kinfo" object, and summary's kernel table shows VGPRs, SGPRs, LDS,
# scratch and wavefront size.  Run on hipemu.
set -u
B=${BUILD:-build}
BUNDLER=${BUNDLER:-/usr/lib/llvm-15/bin/clang-offload-bundler}
READELF=${READELF:-llvm-readelf-15}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rc=0
run() {
	LD_LIBRARY_PATH=$B/hipemu LD_PRELOAD=$(pwd)/$B/liblbshim.so \
		LBSHIM_POLICIES=trace LBSHIM_TRACE="$1" "$B/codeobj/async" \
		$2 >/dev/null 2>&1 || { echo "FAIL: async $2"; rc=1; }
}
run "$tmp/reg.lbt" ""
run "$tmp/mod.lbt" "module $B/codeobj/async.co"
objcopy --dump-section .hip_fatbin="$tmp/fb" "$B/codeobj/async" "$tmp/x.o"
"$BUNDLER" --unbundle --type=o --input="$tmp/fb" \
	--targets=hipv4-amdgcn-amd-amdhsa--gfx1030 --output="$tmp/reg.co"
"$BUNDLER" --unbundle --type=o --input="$B/codeobj/async.co" \
	--targets=hipv4-amdgcn-amd-amdhsa--gfx1030 --output="$tmp/mod.co"
for t in reg mod; do
	"$READELF" --notes "$tmp/$t.co" >"$tmp/$t.notes"
	"$B/lbtrace" print --json "$tmp/$t.lbt" >"$tmp/$t.json" || rc=1
	"$B/lbtrace" print "$tmp/$t.lbt" >"$tmp/$t.txt" || rc=1
	"$B/lbtrace" summary "$tmp/$t.lbt" >"$tmp/$t.sum" || rc=1
done
python3 - "$tmp" <<'PY' || rc=1
import json, re, sys, yaml
d = sys.argv[1]
fails = []
for t, want in (("reg", 3), ("mod", 5)):  # mod: registered + 2 from the module
    text = open("%s/%s.notes" % (d, t)).read()
    m = re.search(r"^\s*---\s*$(.*?)^\.\.\.$", text, re.S | re.M)
    ref = {k[".name"]: k for k in yaml.safe_load(m.group(1))["amdhsa.kernels"]}
    recs = [json.loads(l) for l in open("%s/%s.json" % (d, t))]
    ki = [r for r in recs if r["type"] == "kinfo"]
    if len(ki) != want:
        fails.append("%s: %d kinfo records, want %d" % (t, len(ki), want))
    demangled = {"scale(float*, float, int, Pair)": "_Z5scalePffi4Pair",
                 "tri(int, Tri, int*)": "_Z3trii3TriPi",
                 "orphan(int, int*)": "_Z6orphaniPi"}
    for r in ki:
        k = ref[demangled[r["kernel"]]]
        for mine, theirs in (("vgprs", ".vgpr_count"), ("sgprs", ".sgpr_count"),
                             ("lds", ".group_segment_fixed_size"),
                             ("scratch", ".private_segment_fixed_size"),
                             ("wavefront", ".wavefront_size"),
                             ("max_workgroup", ".max_flat_workgroup_size"),
                             ("kernarg_size", ".kernarg_segment_size")):
            if r[mine] != k[theirs]:
                fails.append("%s %s: %s %s, readelf %s" % (t, r["kernel"], mine,
                                                         r[mine], k[theirs]))
        nexp = len([a for a in k.get(".args", [])
                    if not a[".value_kind"].startswith("hidden_")])
        if r["nargs"] != nexp:
            fails.append("%s %s: nargs" % (t, r["kernel"]))
        if r["target"] != "amdgcn-amd-amdhsa--gfx1030":
            fails.append("%s: target %s" % (t, r["target"]))
    # summary: the kernel table has the facts columns, scale's from readelf
    s = open("%s/%s.sum" % (d, t)).read()
    if not re.search(r"vgpr\s+sgpr\s+lds\s+scratch\s+wave\s+kernel", s):
        fails.append("%s: summary has no facts columns" % t)
    k = ref["_Z5scalePffi4Pair"]
    row = [l for l in s.splitlines() if l.endswith("scale(float*, float, int, Pair)")]
    cols = row[0].split()[7:12] if row else []
    want_cols = [str(k[x]) for x in (".vgpr_count", ".sgpr_count",
                 ".group_segment_fixed_size", ".private_segment_fixed_size",
                 ".wavefront_size")]
    if cols != want_cols:
        fails.append("%s: summary scale row %s, want %s" % (t, cols, want_cols))
    txt = open("%s/%s.txt" % (d, t)).read()
    if "kernel scale(float*, float, int, Pair): amdgcn-amd-amdhsa--gfx1030" not in txt:
        fails.append("%s: print has no kernel facts line" % t)
for f in fails:
    print("FAIL:", f)
sys.exit(1 if fails else 0)
PY
exit $rc
