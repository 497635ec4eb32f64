# t_hipemu.sh - each client on hipemu (LD_LIBRARY_PATH=build/hipemu; the
# libraries' kernels have no twins, so their launches fail the way a
# missing code object does): exit status, output and errors are the same
# with and without the shim under every policy set; with no policy and
# under trace hipemu receives exactly the same calls (HIPEMU_STATS); and
# the trace names every call hipemu received that the shim wraps, as many
# times.  Calls of functions the shim does not wrap (not in hip_api.def)
# are listed as unseen, and must be absent from the trace; there must be
# none: every function these libraries call is wrapped
# (hipGetDeviceProperties, which rocSPARSE and hipSPARSE call, was the
# last one).
. tests/clients/lib.sh
export LD_LIBRARY_PATH=$HIPEMU
printf '#define LB_API(R, N, ...) N\n#include "include/lbshim/hip_api.def"\n' |
	cc -E -P -x c - | tr -s ' \t' '\n\n' | grep -v '^$' | sort -u >"$TMP/wrapped"
[ -s "$TMP/wrapped" ] || fail "no rows read from hip_api.def"
unseen_all=""
for c in $CLIENTS; do
	run "$TMP/$c.plain" "$c" HIPEMU_STATS="$TMP/$c.plain.json"
	grep -q "^hipMalloc 0$" "$TMP/$c.plain.out" || fail "$c: not on hipemu: $(cat "$TMP/$c.plain.out")"
	for p in $POLICY_SETS; do
		run_shim "$TMP/$c.$p" "$c" "$p" HIPEMU_STATS="$TMP/$c.$p.json"
		same "$c, hipemu, LBSHIM_POLICIES=$p" "$TMP/$c.plain" "$TMP/$c.$p"
	done
	# stream0 and pool change the calls that reach the runtime, by design.
	for p in none trace; do
		python3 - "$TMP/$c.plain.json" "$TMP/$c.$p.json" <<'PY' ||
import json, sys
a, b = (json.load(open(f))["calls"] for f in sys.argv[1:3])
d = {k: (a.get(k), b.get(k)) for k in set(a) | set(b) if a.get(k) != b.get(k)}
if d:
    print("calls hipemu received (without, with the shim):", d)
    sys.exit(1)
PY
		fail "$c, LBSHIM_POLICIES=$p: hipemu received other calls"
	done
	set -- "$TMP/$c.trace".*.lbt
	[ -f "$1" ] || fail "$c: no trace"
	"$B/lbtrace" print --json "$1" >"$TMP/$c.trace.json" || fail "$c: lbtrace print"
	unseen=$(python3 - "$TMP/$c.plain.json" "$TMP/$c.trace.json" "$TMP/wrapped" <<'PY'
import json, sys
stats = json.load(open(sys.argv[1]))["calls"]
traced = {}
for line in open(sys.argv[2]):
    r = json.loads(line)
    if r.get("type") == "call":
        traced[r["api"]] = traced.get(r["api"], 0) + 1
wrapped = set(open(sys.argv[3]).read().split())
bad, unseen = [], []
for api, n in sorted(stats.items()):
    if api not in wrapped:
        unseen.append(api)
        if traced.get(api):
            bad.append("%s: not wrapped yet traced %d times" % (api, traced[api]))
    elif traced.get(api, 0) != n:
        bad.append("%s: hipemu received %d, the trace has %d" % (api, n, traced.get(api, 0)))
for api in sorted(set(traced) - set(stats)):
    bad.append("%s: traced %d times, never received by hipemu" % (api, traced[api]))
if bad:
    print("\n".join(bad))
    sys.exit(1)
print(" ".join(unseen))
PY
) || fail "$c: the trace does not name every call: $unseen"
	echo "$c: $(tr '\n' ' ' <"$TMP/$c.plain.out")"
	echo "$c: unseen (not wrapped): ${unseen:-none}"
	unseen_all="$unseen_all $unseen"
done
unseen_all=$(echo $unseen_all | tr ' ' '\n' | grep . | sort -u | tr '\n' ' ')
[ -z "$unseen_all" ] || fail "calls the shim does not wrap: $unseen_all"
exit 0
