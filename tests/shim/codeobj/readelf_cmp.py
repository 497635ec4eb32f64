#!/usr/bin/env python3
"""readelf_cmp.py VERSION DUMP_OF_BUNDLE DIR - holds the reader's facts
(co_dump JSON) against llvm-readelf's: DIR has, per unbundled code object
T, T.notes (llvm-readelf --notes), T.hdr (llvm-readelf -h) and T.json
(co_dump of the bare ELF).  Exit 0 when every fact agrees."""
import glob
import json
import os
import re
import sys

import yaml

FACTS = ["kernarg_segment_size", "group_segment_fixed_size",
         "private_segment_fixed_size", "sgpr_count", "vgpr_count",
         "wavefront_size", "max_flat_workgroup_size"]
fails = []


def check(cond, what):
    if not cond:
        fails.append(what)


def readelf_meta(path):
    text = open(path).read()
    m = re.search(r"^\s*---\s*$(.*?)^\.\.\.$", text, re.S | re.M)
    if not m:
        sys.exit("%s: no metadata document" % path)
    return yaml.safe_load(m.group(1))


def abi_version(path):
    m = re.search(r"ABI Version:\s+(\d+)", open(path).read())
    return int(m.group(1)) if m else -1


def same_object(ref, got, where):
    check(got["target"] == ref["amdhsa.target"], where + ": target")
    names = [k["name"] for k in got["kernels"]]
    want = [k[".name"] for k in ref["amdhsa.kernels"]]
    check(sorted(names) == sorted(want),
          "%s: kernels %s, readelf %s" % (where, names, want))
    by = {k["name"]: k for k in got["kernels"]}
    for rk in ref["amdhsa.kernels"]:
        k = by.get(rk[".name"])
        if not k:
            continue
        w = "%s: %s" % (where, rk[".name"])
        check(k["facts"] == 1, w + ": facts missing")
        check(k["symbol"] == rk[".symbol"], w + ": symbol")
        for f in FACTS:
            check(k[f] == rk["." + f], "%s: %s %s, readelf %s"
                  % (w, f, k[f], rk["." + f]))
        rargs = rk.get(".args", [])
        check(len(k["args"]) == len(rargs), w + ": argument count")
        for a, ra in zip(k["args"], rargs):
            for f in ("offset", "size", "value_kind"):
                check(a[f] == ra["." + f], "%s: arg %s %s %s, readelf %s"
                      % (w, ra[".offset"], f, a[f], ra["." + f]))
            devptr = (ra[".value_kind"] == "global_buffer" and
                      ra.get(".address_space", "global") in
                      ("global", "constant", "generic"))
            check(a["devptr"] == int(devptr), w + ": devptr")


def main():
    version, bundle_dump, d = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    bundle = json.load(open(bundle_dump))
    check(bundle["why"] == "", "bundle: why: " + bundle["why"])
    targets = {o["target"]: o for o in bundle["objects"]}
    seen = set()
    kinds = set()
    for notes in sorted(glob.glob(os.path.join(d, "*.notes"))):
        t = notes[:-len(".notes")]
        ref = readelf_meta(notes)
        tgt = ref["amdhsa.target"]
        seen.add(tgt.rsplit("-", 1)[-1])
        # code object v3+ : EI_ABIVERSION = version - 2 (AMDGPUUsage)
        check(abi_version(t + ".hdr") == version - 2,
              "%s: readelf ABI version is not v%d" % (t, version))
        elf = json.load(open(t + ".json"))
        check(len(elf["objects"]) == 1, t + ": bare ELF not read")
        for o in elf["objects"]:
            check(o["version"] == version, t + ": version %d" % o["version"])
            same_object(ref, o, t + " (ELF)")
        check(tgt in targets, "%s: not in the bundle's dump" % tgt)
        if tgt in targets:
            check(targets[tgt]["version"] == version, tgt + ": version")
            same_object(ref, targets[tgt], tgt + " (bundle)")
        for k in ref["amdhsa.kernels"]:
            for a in k.get(".args", []):
                kinds.add((a[".value_kind"], a[".size"]))
            if k[".private_segment_fixed_size"]:
                kinds.add("scratch")
            if k[".group_segment_fixed_size"]:
                kinds.add("lds")
    # the fixture holds what the test claims to cover
    check(seen == {"gfx1030", "gfx90a", "gfx906"}, "targets %s" % seen)
    check(len(bundle["objects"]) == 3, "bundle objects")
    for need in [("global_buffer", 8), ("by_value", 4), ("by_value", 16),
                 ("by_value", 20), ("by_value", 8), "scratch", "lds"]:
        check(need in kinds, "fixture lacks %s" % (need,))
    # clang 15 gives v4 kernels hidden arguments only when they need them
    check(version < 5 or any(k[0].startswith("hidden_") for k in kinds if
                             isinstance(k, tuple)),
          "fixture lacks hidden arguments")
    names = [k["name"] for o in bundle["objects"] for k in o["kernels"]]
    check("_Z4fillIdEvPT_S0_" in names, "template kernel missing")
    for f in fails:
        print("FAIL:", f)
    print("v%d: %d objects, %d checks failed" % (version, len(seen),
                                                len(fails)))
    return 1 if fails else 0


sys.exit(main())
