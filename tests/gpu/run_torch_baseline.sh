#!/bin/sh
# run_torch_baseline.sh OUTDIR [SECONDS [EVALUATE_TORCH_OPTIONS...]] - the
# PyTorch pipeline (tests/workloads/evaluate_torch.py) on this machine's
# NVIDIA GPU, without the shim: the baseline that the GPU A/B runs are
# read against.  Writes under OUTDIR:
#   gpu.csv              nvidia-smi --query-gpu=name,driver_version
#   evaluate_torch.json  the program's JSON line (every thread's figures)
#   evaluate_torch.txt   its summary
#   env.txt              date, host, python, torch, CUDA
# SECONDS: the measured time (default 30).  PYTHON: the interpreter with
# PyTorch (default python3).  Not part of make check (CI has no GPU).
set -eu
usage="usage: $0 OUTDIR [SECONDS [EVALUATE_TORCH_OPTIONS...]]"
[ $# -ge 1 ] || { echo "$usage" >&2; exit 1; }
out=$1; shift
secs=${1:-30}; [ $# -ge 1 ] && shift
case $secs in '' | *[!0-9.]*) echo "$usage" >&2; exit 1 ;; esac
root=$(cd "$(dirname "$0")/../.." && pwd)
PY=${PYTHON:-python3}

command -v nvidia-smi >/dev/null 2>&1 ||
	{ echo "run_torch_baseline: no nvidia-smi: not an NVIDIA GPU machine" >&2; exit 2; }
"$PY" -c 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)' ||
	{ echo "run_torch_baseline: $PY's PyTorch sees no GPU (or has no CUDA)" >&2; exit 2; }

# A baseline: no policy, no preload of ours (other preloads stay).
unset LBSHIM_POLICIES LBSHIM_TRACE LBSHIM_TRACE_LIVE HIP_TRACE_API
if [ -n "${LD_PRELOAD:-}" ]; then
	LD_PRELOAD=$(echo "$LD_PRELOAD" | tr ': ' '\n' | grep -v liblbshim |
		paste -sd: -)
	export LD_PRELOAD
fi

mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version --format=csv >"$out/gpu.csv"
{
	echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
	echo "host: $(uname -n) $(uname -r)"
	"$PY" -c 'import sys, torch, torchvision
print("python:", sys.version.split()[0])
print("torch:", torch.__version__, "torchvision:", torchvision.__version__)
print("cuda:", torch.version.cuda, "cudnn:", torch.backends.cudnn.version())
print("device:", torch.cuda.get_device_name(0))'
} >"$out/env.txt"
"$PY" "$root/tests/workloads/evaluate_torch.py" --device cuda --seconds "$secs" \
	--json "$out/evaluate_torch.json" "$@" >"$out/evaluate_torch.txt"
cat "$out/gpu.csv" "$out/env.txt" "$out/evaluate_torch.txt"
