#!/bin/sh
# print --json: names of 33 to 36 bytes (return codes such as
# hipErrorHostMemoryAlreadyRegistered, mangled kernel names) come out
# whole; the name cache of fmt_json.c holds 32 bytes at most.
. tests/tools/lbtrace/lib.sh

# basic.lbt with its first call record's return code set to 712
python3 - basic.lbt ret712.lbt <<'PY' || fail "patch the trace"
import struct, sys
d = bytearray(open(sys.argv[1], "rb").read())
bs = struct.unpack_from("<I", d, 20)[0]  # header 8192 bytes, then blocks
calls = [b + 64 * s for b in range(8192, len(d), bs)
         for s in range(1, bs // 64) if d[b + 64 * s] == 1]
struct.pack_into("<h", d, calls[0] + 4, 712)  # ret
open(sys.argv[2], "wb").write(d)
PY
"$L" print --json ret712.lbt >ret712.json || fail "print --json"
python3 - ret712.json <<'PY' || fail "the long return code name"
import json, sys
names = [json.loads(l)["ret_name"] for l in open(sys.argv[1])]
assert "hipErrorHostMemoryAlreadyRegistered" in names, names[:3]
PY
"$L" print --json kargs.lbt >kargs.json || fail "print --json kargs"
python3 - kargs.json <<'PY' || fail "the 33-byte mangled name"
import json, sys
k = [json.loads(l).get("kernel_mangled") for l in open(sys.argv[1])]
assert "_Z3fooPKN12_GLOBAL__N_11SEiPFviEm" in k, k
PY
finish
