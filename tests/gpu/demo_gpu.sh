#!/bin/bash
# demo_gpu.sh BUNDLE OUTDIR [SECONDS [RUNS]] - the PyTorch pipeline
# (tests/workloads/evaluate_torch.py) on this machine's NVIDIA GPU, A/B
# through `lbtrace run --ab` (issue #36, make demo-gpu):
#   remap/   trace  against trace,stream0,pool (LBSHIM_STREAM0_MODE=remap)
#   syncs/   trace  against trace,stream0,pool (LBSHIM_STREAM0_MODE=syncs)
# each RUNS runs an arm of SECONDS seconds (defaults 20 and 3), the arms
# alternated.  Every run's own figures (each thread's p50/p99/overruns,
# end to end) go to its trace directory as eval.json; OUTDIR gets the two
# ab tables (ab_remap.txt, ab_syncs.txt, and .svg), table.md (the
# per-thread figures, median of the runs, arm by arm), the lbshim lines of
# stderr (stderr_*.txt) and timeline_MODE.svg (lbtrace export --svg of
# one trace-only run above one run with the policies).
# DEMO_GPU_ARGS adds arguments to evaluate_torch.py (--size 1024: a camera
# whose encoder keeps the GPU busy); DEMO_GPU_MODES names the modes run
# (default "remap syncs"; a mode M-nocache is M with PYTORCH_NO_CUDA_MEMORY_CACHING=1
# in the arm with the pool).
set -u
[ $# -ge 2 ] || { echo "usage: $0 BUNDLE OUTDIR [SECONDS [RUNS]]" >&2; exit 2; }
B=$(cd "$1" && pwd) || exit 2
O=$2; S=${3:-20}; N=${4:-3}
mkdir -p "$O" && O=$(cd "$O" && pwd) || exit 2
root=$(cd "$(dirname "$0")/../.." && pwd)
PY=${PYTHON:-python3}
LBT=$B/lbtrace
unset LBSHIM_POLICIES LBSHIM_TRACE LBSHIM_STREAM0_MODE
export PYTHONUNBUFFERED=1
# Each run's figures next to its traces (LBSHIM_TRACE's directory).
# DEMO_GPU_ARGS: more arguments for evaluate_torch.py (a heavier camera:
# --size 1024); DEMO_GPU_MODES: the stream0 modes compared.
# In a mode "M-nocache", the arm with the pool also sets
# PYTORCH_NO_CUDA_MEMORY_CACHING=1: the caching allocator's warning
# heeded (lbshim(7), "PyTorch's caching allocator"), the shim's pool
# serving PyTorch's allocations with its fence instead.
cmd=(sh -c 'case "$4:$LBSHIM_POLICIES" in nocache:*pool*) export PYTORCH_NO_CUDA_MEMORY_CACHING=1 ;; esac
	exec "$0" "$1" --device cuda --seconds "$2" --json "$(dirname "$LBSHIM_TRACE")/eval.json" $3'
	"$PY" "$root/tests/workloads/evaluate_torch.py" "$S" "${DEMO_GPU_ARGS:-}")
rc=0
for mode in ${DEMO_GPU_MODES:-remap syncs}; do
	case $mode in *-nocache) nc=nocache ;; *) nc= ;; esac
	LBSHIM_STREAM0_MODE=${mode%-nocache} "$LBT" run --ab trace/trace,stream0,pool \
		-n "$N" -o "$O/$mode" --svg "$O/ab_$mode.svg" -- "${cmd[@]}" $nc \
		>"$O/ab_$mode.txt" 2>"$O/stderr_$mode.raw" || rc=1
	grep 'lbshim' "$O/stderr_$mode.raw" | sort | uniq -c >"$O/stderr_$mode.txt"
done
# The per-thread figures of every run, median per arm.
"$PY" - "$O" >"$O/table.md" <<'PYEOF'
import glob, json, os, statistics, sys
o = sys.argv[1]
print("| mode | arm | runs | IMU p50 | IMU p99 | IMU overran | camera p99 | encoder p50 | e2e p50 | e2e p99 | e2e over 80 ms |")
print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
def med(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else float("nan")
for mode in sorted(d for d in os.listdir(o) if os.path.isdir(os.path.join(o, d))):
    for arm in sorted(os.listdir(os.path.join(o, mode))) if os.path.isdir(os.path.join(o, mode)) else []:
        runs = []
        for f in sorted(glob.glob(os.path.join(o, mode, arm, "*", "eval.json"))):
            try:
                runs.append(json.load(open(f)))
            except (OSError, ValueError):
                pass
        if not runs:
            continue
        def g(r, *k):
            for x in k:
                r = r.get(x) if isinstance(r, dict) else None
            return r
        print("| %s | %s | %d | %.3f | %.3f | %.1f | %.2f | %.2f | %.2f | %.2f | %.1f |" % (
            mode, arm, len(runs),
            med([g(r, "threads", "imu", "p50_ms") for r in runs]),
            med([g(r, "threads", "imu", "p99_ms") for r in runs]),
            med([g(r, "threads", "imu", "overruns") for r in runs]),
            med([g(r, "threads", "camera", "p99_ms") for r in runs]),
            med([g(r, "encoder", "p50_ms") for r in runs]),
            med([g(r, "e2e", "p50_ms") for r in runs]),
            med([g(r, "e2e", "p99_ms") for r in runs]),
            med([g(r, "e2e", "over_budget") for r in runs])))
PYEOF
# The timeline of each mode: its trace-only run (lbtrace run's arm A)
# above its run with the policies (B), DEMO_GPU_WINDOW ms (START,LEN;
# default 3000,150: past the warm-up) of each.
for mode in ${DEMO_GPU_MODES:-remap syncs}; do
	a=$(ls "$O/$mode"/A/001/*.lbt 2>/dev/null | head -1)
	b=$(ls "$O/$mode"/B/001/*.lbt 2>/dev/null | head -1)
	[ -n "$a" ] && [ -n "$b" ] || continue
	"$LBT" export --svg "$O/timeline_$mode.svg" \
		--window "${DEMO_GPU_WINDOW:-3000,150}" "$a" "$b" \
		2>"$O/timeline_$mode.err" || rc=1
done
cat "$O/table.md"
for mode in ${DEMO_GPU_MODES:-remap syncs}; do
	cat "$O/ab_$mode.txt" "$O/stderr_$mode.txt" 2>/dev/null
done
exit $rc
