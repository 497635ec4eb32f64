# torch_lib.sh - helpers for the workloads group's tests of
# evaluate_torch.py (sourced).  Environment: BUILD (default build);
# TORCH_PYTHON, an interpreter with torch and torchvision (default: the
# first of python3 and /usr/bin/python3 that has them: a pyenv python3
# on PATH may lack Debian's python3-torch).
set -u
: "${BUILD:=build}"
ROOT=$PWD
B=$ROOT/$BUILD
case $B in /*) ;; *) B=$ROOT/$B ;; esac
EVAL=$ROOT/tests/workloads/evaluate_torch.py  # used by the tests
TMP=$(mktemp -d "${TMPDIR:-/tmp}/lbshim-wl.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
unset LBSHIM_POLICIES LBSHIM_LOG LBSHIM_TRACE LBSHIM_TRACE_LIVE HIP_TRACE_API \
	LBSHIM_HIP_LIBRARY LBSHIM_CUDA_LIBRARY LBSHIM_CUDA_DRIVER LD_PRELOAD \
	EVAL_SECONDS 2>/dev/null || true

fail() {
	echo "FAIL: $*"
	exit 1
}

# The interpreter itself, not a pyenv shim (half a second a start).
PY=
for p in ${TORCH_PYTHON:-} python3 /usr/bin/python3; do
	if "$p" -c 'import torch, torchvision' >/dev/null 2>&1; then
		PY=$("$p" -c 'import sys; print(sys.executable)')
		break
	fi
done
# mk/deps.sh lists python3-torch and python3-torchvision: missing, they
# are a broken set-up, not a reason to skip.
[ -n "$PY" ] || fail "no python3 with torch and torchvision" \
	"(Debian 12: apt-get install python3-torch python3-torchvision, or make deps)"

# check_result JSON THREADS: the JSON line evaluate_torch.py wrote has,
# for each of the comma-separated THREADS, a step count, p50 <= p99, its
# overruns, one sample per step and the OS name PR_SET_NAME gave it; with
# the sampler, the end-to-end figures against the 80 ms budget.
check_result() {
	"$PY" - "$1" "$2" <<'PYEOF' || fail "$1: $(head -c 1500 "$1")"
import json, math, sys
d = json.loads(open(sys.argv[1]).read())
want = sys.argv[2].split(",")
assert d["program"] == "evaluate_torch.py" and d["ok"] is True, "ok"
assert sorted(d["threads"]) == sorted(want), f"threads {sorted(d['threads'])}"
for name, t in d["threads"].items():
    n = t["steps"]
    assert n > 0, f"{name}: no step"
    assert t["os_name"] == name, f"{name}: OS name {t['os_name']!r}"
    assert 0 < t["p50_ms"] <= t["p99_ms"] <= t["max_ms"], f"{name}: quantiles"
    assert 0 <= t["overruns"] <= n, f"{name}: overruns"
    assert len(t["samples_ms"]) == n, f"{name}: samples"
    assert math.isclose(t["period_ms"], 1e3 / t["hz"], rel_tol=1e-3), name
    assert t["error"] is None, f"{name}: {t['error']}"
e = d["e2e"]
if "sampler" in want:
    assert e["count"] == d["threads"]["sampler"]["steps"], "one e2e per action"
    assert e["budget_ms"] == 80 and 0 <= e["over_budget"] <= e["count"], "budget"
    assert 0 < e["p50_ms"] <= e["p99_ms"], "e2e quantiles"
    assert len(e["samples_ms"]) == e["count"], "e2e samples"
else:
    assert e is None, "e2e without a sampler"
print("json ok:", ", ".join(f"{k} {v['steps']} steps p50 {v['p50_ms']} ms"
                            f" p99 {v['p99_ms']} ms" for k, v in d["threads"].items()))
PYEOF
}

# json JSON EXPR: the Python expression EXPR of d, the JSON in file JSON.
json() {
	"$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}
