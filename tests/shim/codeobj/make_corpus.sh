#!/bin/sh
# make_corpus.sh [BUILD] - rewrites corpus/ (the fuzz seeds) from the
# fixtures of mk/codeobj.mk: bare ELF objects (v4, v5), a --genco bundle,
# and compressed bundles of each header version (zlib and zstd).
set -eu
B=${1:-build}/codeobj
here=$(dirname "$0")
out=$here/corpus
BUNDLER=${BUNDLER:-/usr/lib/llvm-15/bin/clang-offload-bundler}
mkdir -p "$out"
for v in 4 5; do
	"$BUNDLER" --unbundle --type=o --input="$B/kern$v.fatbin" \
		--targets=hipv4-amdgcn-amd-amdhsa--gfx906 \
		--output="$out/elf_gfx906_v$v.co"
done
cp "$B/kern.co" "$out/bundle_genco.co"
python3 - "$out" <<'PY'
import struct, sys, zlib
d = sys.argv[1]
b = open(d + "/bundle_genco.co", "rb").read()
import subprocess
def zs(data):
    return subprocess.run(["zstd", "-q", "-c"], input=data, check=True,
                          stdout=subprocess.PIPE).stdout
for v, m in ((1, 0), (2, 0), (3, 0), (1, 1), (2, 1), (3, 1)):
    c = zlib.compress(b) if m == 0 else zs(b)
    if v == 1:
        h = struct.pack("<4sHHIQ", b"CCOB", 1, m, len(b), 0)
    elif v == 2:
        h = struct.pack("<4sHHIIQ", b"CCOB", 2, m, 24 + len(c), len(b), 0)
    else:
        h = struct.pack("<4sHHQQQ", b"CCOB", 3, m, 32 + len(c), len(b), 0)
    open("%s/ccob_v%d_%s.co" % (d, v, "zstd" if m else "zlib"),
         "wb").write(h + c)
PY
ls -l "$out"
