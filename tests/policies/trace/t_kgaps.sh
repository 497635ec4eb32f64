# A KARGS record's gaps are 0: the bytes between the arguments of a padded
# kernarg layout and past its last argument, in the raw record (lbt_dump),
# never what the slot held before (a ring's slots are reused: big's
# argument bytes, other records) nor stale stack.  tkargs gaps: big (no
# zero byte but its one gap), mix (gaps at 1, 4..7, 17..23, end 48),
# fill<int> (end 12), and a mix that fails (empty grid: copied by the
# safe path).  In a ring that wraps many times, then in a file.
. "$(dirname "$0")/lib.sh"

EMU=${EMU_DIR:-$BUILD/hipemu}
[ -f "$EMU/libamdhip64.so.5" ] && [ -x "$BUILD/trace/tkargs" ] ||
	{ echo "hipemu or hipcc not built"; exit 77; }

check() { # check DUMP MIN: each kind at least MIN times, every gap 0
	python3 - "$1" "$2" <<'PY' || exit 1
import sys
mix_gaps = [1] + list(range(4, 8)) + list(range(17, 24)) + list(range(48, 56))
seen = {"big": 0, "mix": 0, "mixfail": 0, "fill": 0}
for line in open(sys.argv[1]):
    if not line.startswith("kargs "):
        continue
    f = dict(w.split("=", 1) for w in line.split()[1:5])
    b = bytes.fromhex(f["hex"])
    n = int(f["bytes"])
    if n == 56:     # big(int, Big, int): the int, gap 4..7, Big's words
        kind, zero = "big", range(4, 8)
        if b[:4] == b"\1\0\0\0":
            continue  # tkargs' first launch of big, not the loop's
        if 0 in b[8:] or 0 in b[:4]:
            print("FAIL: big's bytes have a 0: %s" % f["hex"]); sys.exit(1)
    elif n == 48:   # mix(uchar, short, long long, bool, double, ptr, ptr)
        kind = {0xc8: "mix", 0xc9: "mixfail"}.get(b[0])
        zero = mix_gaps
        if kind is None or b[16] != 1:
            print("FAIL: mix's bytes: %s" % f["hex"]); sys.exit(1)
    elif n == 12:   # fill<int>(int*, int): end 12
        kind, zero = "fill", range(12, 56)
        if b[8:12] != (-7 & 0xffffffff).to_bytes(4, "little"):
            print("FAIL: fill's -7: %s" % f["hex"]); sys.exit(1)
    else:
        continue
    bad = [i for i in zero if b[i]]
    if bad:
        print("FAIL: %s record, bytes %s not 0: %s" % (kind, bad, f["hex"]))
        sys.exit(1)
    seen[kind] += 1
low = [k for k, v in seen.items() if v < int(sys.argv[2])]
if low:
    print("FAIL: too few records of %s: %s" % (low, seen)); sys.exit(1)
PY
}

# a ring of 63 slots, wrapped about 50 times
LBSHIM_POLICIES=trace LBSHIM_TRACE=r.lbt LBSHIM_TRACE_RING=4096 \
	LD_LIBRARY_PATH=$EMU LD_PRELOAD="$SHIM" \
	"$BUILD/trace/tkargs" gaps 300 >out 2>err || fail "ring: $(cat err)"
"$DUMP" r.lbt >rdump || fail "dump ring"
expect "^ring thread=0 laps=[1-9][0-9]+ " rdump
check rdump 2

LBSHIM_POLICIES=trace LBSHIM_TRACE=f.lbt LD_LIBRARY_PATH=$EMU \
	LD_PRELOAD="$SHIM" "$BUILD/trace/tkargs" gaps 50 >out 2>err ||
	fail "file: $(cat err)"
"$DUMP" f.lbt >fdump || fail "dump file"
check fdump 50
echo ok
