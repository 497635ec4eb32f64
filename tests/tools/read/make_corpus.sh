#!/bin/sh
# make_corpus.sh - (re)writes tests/tools/read/corpus/ from gen_trace's files
# plus hand-made corruptions of them.  Run from the top directory after
# `make build/tests/tools/lbtrace/gen_trace`; the corpus is committed, so this
# only needs to run when the format changes.
# found_*.lbt are inputs libFuzzer found new paths with (make fuzz): kept.
set -e
BUILD=${BUILD:-build}
G=$BUILD/tests/tools/lbtrace/gen_trace
C=tests/tools/read/corpus
mkdir -p $C
find $C -name '*.lbt' ! -name 'found_*' -delete
for k in basic crash crashblk ring remap kargs truncated corruptblk short badmagic \
	v2basic v2long; do
	$G $k $C/$k.lbt
done
$G multi $C/multi1.lbt $C/multi2.lbt
python3 - $C <<'PY'
import struct, sys, os
C = sys.argv[1]
def rd(n): return bytearray(open(os.path.join(C, n + ".lbt"), "rb").read())
H = struct.unpack_from("<I", rd("basic"), 12)[0]   # header_size
def wr(n, b): open(os.path.join(C, n + ".lbt"), "wb").write(bytes(b))
def slots(b):
    """offsets of every record slot of every block"""
    bs = struct.unpack_from("<I", b, 20)[0]
    for off in range(H, len(b) - 63, bs):
        for s in range(1, bs // 64):
            if off + s * 64 + 64 <= len(b):
                yield off + s * 64
b = rd("basic")
for o in slots(b):                       # a string claiming 65535 parts
    if b[o] == 2:
        struct.pack_into("<Q", b, o + 56 - 16, (1) | (65534 << 32) | (65535 << 48)); break
wr("c_strparts", b)
b = rd("ring")
struct.pack_into("<I", b, H + 4096 + 48, 0xffffffff)   # ring_next out of range
wr("c_ringnext", b)
b = rd("remap")
b[1240:1240 + 6656] = b"A" * 6656      # api_names without an end
wr("c_apinames", b)
b = rd("basic")
struct.pack_into("<I", b, 20, 64 << 20)  # block size far beyond the file
wr("c_blocksize", b)
b = rd("basic")
struct.pack_into("<Q", b, 40, 1)         # 1 tick a second: huge times
wr("c_rate1", b)
b = rd("crash")
for o in slots(b):
    if b[o] == 3:                        # crash announcing 2^40 frames
        struct.pack_into("<Q", b, o + 56, 1 << 40)
    if b[o] == 1:                        # calls with extreme times
        struct.pack_into("<QQ", b, o + 8, (1 << 64) - 1, 0)
wr("c_crashbig", b)
b = rd("basic")
for o in slots(b):                       # every record an unknown type
    b[o] = 0x7f
wr("c_types", b)
b = rd("basic")
for off in range(H + 4096, len(b), 4096):   # all blocks one thread
    struct.pack_into("<IIQ", b, off, 0x4b4c424c, 1, 0)
wr("c_samethread", b)
b = rd("kargs")                          # a wrapped ring whose oldest
off = 4096 + 4096                        # slot is a launch's arguments
for s in range(1, 64):
    if b[off + s * 64] == 10:
        struct.pack_into("<Q", b, off + 8, 1)        # ordinal: wrapped
        struct.pack_into("<I", b, off + 16, 1)       # LB_BLK_RING
        struct.pack_into("<I", b, off + 48, s - 1)   # ring_next
        break
wr("c_kargsring", b)
# format version 2: the name table after the fixed header (names_off at
# 7904, names_len at 7908, header_size at 12, runtime at 7896)
b = rd("v2basic")
b[8192 + 100] = 0x01                     # a name that is no identifier
wr("c2_name", b)
b = rd("v2basic")
n = struct.unpack_from("<I", b, 7908)[0]
b[8192 + n - 2:8192 + n] = b"AA"         # the table without its end
wr("c2_noend", b)
b = rd("v2basic")
struct.pack_into("<I", b, 7908, 1 << 30) # a table past the header
wr("c2_namelen", b)
b = rd("v2basic")
struct.pack_into("<I", b, 12, 1 << 20)   # a header past the file
wr("c2_hsize", b)
b = rd("v2long")
struct.pack_into("<I", b, 88, 7)         # api_count against the table
struct.pack_into("<I", b, 7896, 9)       # an unknown runtime
wr("c2_count", b)
PY
ls -la $C
