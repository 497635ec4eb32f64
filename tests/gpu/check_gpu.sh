#!/bin/bash
# check_gpu.sh BUNDLE OUTDIR - the GPU suite (issue #35, "make check-gpu"):
# lbshim's CUDA face on a real NVIDIA GPU.  BUNDLE is what `make gpu-bundle`
# built (liblbshim.so, lbtrace and the nvcc-built programs of
# tests/gpu/progs, shared and static cudart); OUTDIR gets:
#   results.md   the figures and verdicts, with date, GPU and driver: what
#                tests/gpu/CHECK_GPU.md keeps (make check-gpu copies it)
#   log.txt      every command and its output
#   *.lbt        the traces the verdicts were read from (some)
# Not part of make check: CI has no GPU.  Exit 0 iff every verdict passed;
# a verdict that cannot be reached yet (the shim without a CUDA face) is
# written as "not run" with the reason, and fails the suite.
set -u
usage="usage: $0 BUNDLE OUTDIR [--quick]"
[ $# -ge 2 ] || { echo "$usage" >&2; exit 2; }
B=$(cd "$1" && pwd) || exit 2
O=$2
QUICK=${3:-}
mkdir -p "$O" && O=$(cd "$O" && pwd) || exit 2
root=$(cd "$(dirname "$0")/../.." && pwd)
PY=${PYTHON:-python3}
R=$O/results.md
L=$O/log.txt
: >"$L"
fail=0
command -v nvidia-smi >/dev/null 2>&1 ||
	{ echo "check_gpu: no nvidia-smi: not an NVIDIA GPU machine" >&2; exit 2; }
unset LBSHIM_POLICIES LBSHIM_TRACE HIP_TRACE_API
SHIM=$B/liblbshim.so
LBT=$B/lbtrace
# The CUDA face: the shim exports the runtime's and the driver's names.
if nm -D --defined-only "$SHIM" 2>/dev/null | grep -q ' cudaMalloc$'; then
	face=1
else
	face=0
fi

# run NAME ENV... -- CMD...: runs CMD with ENV, output to log and $O/NAME.out
run() {
	local name=$1; shift
	local envs=()
	while [ "$1" != -- ]; do envs+=("$1"); shift; done
	shift
	{ echo "== $name: ${envs[*]} $*"; } >>"$L"
	env "${envs[@]}" "$@" >"$O/$name.out" 2>"$O/$name.err"
	local rc=$?
	cat "$O/$name.out" "$O/$name.err" >>"$L"
	echo "rc=$rc" >>"$L"
	return $rc
}
# val FILE KEY: the value of KEY=... in FILE's first line that has it
val() { grep -o "$2=[^ ]*" "$1" | head -1 | cut -d= -f2; }
verdict() {	# verdict PASS|FAIL|NOT-RUN text
	echo "- **$1** $2" >>"$R"
	[ "$1" = PASS ] || fail=1
}
shim_env() {	# shim_env POLICIES TRACEFILE
	echo "LD_PRELOAD=$SHIM LBSHIM_POLICIES=$1 LBSHIM_TRACE=$2"
}

gpu=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1)
{
	echo "## $(date -u '+%Y-%m-%d %H:%M UTC'): make check-gpu on $gpu"
	echo
	echo "GPU, driver: $gpu; CUDA toolkit $(nvcc --version 2>/dev/null |
		sed -n 's/.*release \([0-9.]*\).*/\1/p'); host $(uname -r);"
	echo "$("$PY" -c 'import torch; print("torch", torch.__version__)' 2>/dev/null || echo "no torch")."
	echo "The shim $( [ $face = 1 ] && echo "has its CUDA face" || echo "has NO CUDA face yet (HIP only): every with-shim arm is not run")."
	echo
} >"$R"

steps=100; [ "$QUICK" = --quick ] && steps=40
two_v=()
# ---- the two-thread case
echo "### The two-thread case (camera 20 ms kernels, IMU every 5 ms)" >>"$R"
echo >>"$R"
echo "| build | arm | IMU sync total | p50 | p99 | results |" >>"$R"
echo "| --- | --- | --- | --- | --- | --- |" >>"$R"
for cr in shared static; do
	run "two_${cr}_legacy" -- "$B/twothread_$cr" $steps 20
	leg=$(val "$O/two_${cr}_legacy.out" imu_sync_total_ms)
	echo "| $cr cudart | legacy stream | $leg ms | $(val "$O/two_${cr}_legacy.out" imu_sync_p50_ms) | $(val "$O/two_${cr}_legacy.out" imu_sync_p99_ms) | $(grep -q 'imu_ok=1 cam_ok=1' "$O/two_${cr}_legacy.out" && echo right || echo WRONG) |" >>"$R"
	if [ -x "$B/twothread_${cr}_pt" ]; then
		run "two_${cr}_pt" -- "$B/twothread_${cr}_pt" $steps 20
		echo "| $cr cudart | nvcc --default-stream per-thread | $(val "$O/two_${cr}_pt.out" imu_sync_total_ms) ms | $(val "$O/two_${cr}_pt.out" imu_sync_p50_ms) | $(val "$O/two_${cr}_pt.out" imu_sync_p99_ms) | $(grep -q 'imu_ok=1 cam_ok=1' "$O/two_${cr}_pt.out" && echo right || echo WRONG) |" >>"$R"
	fi
	if [ $face = 1 ]; then
		run "two_${cr}_s0" $(shim_env stream0 "$O/two_${cr}_s0.lbt") -- \
			"$B/twothread_$cr" $steps 20
		s0=$(val "$O/two_${cr}_s0.out" imu_sync_total_ms)
		echo "| $cr cudart | lbshim stream0 | $s0 ms | $(val "$O/two_${cr}_s0.out" imu_sync_p50_ms) | $(val "$O/two_${cr}_s0.out" imu_sync_p99_ms) | $(grep -q 'imu_ok=1 cam_ok=1' "$O/two_${cr}_s0.out" && echo right || echo WRONG) |" >>"$R"
		two_v[${#two_v[@]}]="$cr $(val "$O/two_${cr}_legacy.out" imu_sync_p50_ms) $(val "$O/two_${cr}_s0.out" imu_sync_p50_ms) $(grep -c 'imu_ok=1 cam_ok=1' "$O/two_${cr}_s0.out")"
	fi
done
echo >>"$R"
# The verdict reads the medians: the totals hold one wait of a whole
# camera kernel that nvcc's own per-thread build has too (on the H100,
# 2026-12-07: 15.5 ms of 15.5 ms total), the first IMU launch loading
# its module while the camera's kernel runs (CUDA's lazy loading).
if [ $face = 1 ]; then
	for v in "${two_v[@]}"; do
		set -- $v
		if awk -v l="$2" -v s="$3" 'BEGIN { exit !(s > 0 && l / s >= 100) }' && [ "$4" = 1 ]; then
			verdict PASS "two-thread, $1 cudart: the IMU's median sync under stream0 is $(awk -v l="$2" -v s="$3" 'BEGIN { printf "%.0f", l / s }')x shorter than legacy (goal >= 100x), results right"
		else
			verdict FAIL "two-thread, $1 cudart: median sync legacy $2 ms, stream0 $3 ms (goal >= 100x shorter), results right: $4"
		fi
	done
else
	verdict NOT-RUN "two-thread under stream0: the shim has no CUDA face"
fi

# ---- the two-thread case traced, legacy above stream0: the picture
if [ $face = 1 ]; then
	run two_tl_legacy $(shim_env trace "$O/two_tl_legacy.lbt") -- \
		"$B/twothread_shared" 20 20
	run two_tl_s0 $(shim_env trace,stream0 "$O/two_tl_s0.lbt") -- \
		"$B/twothread_shared" 20 20
	"$LBT" export --svg "$O/two_timeline.svg" --window 100 \
		"$O/two_tl_legacy.lbt" "$O/two_tl_s0.lbt" >>"$L" 2>&1 &&
		echo "- timeline of the two-thread case, legacy above stream0: two_timeline.svg" >>"$R"
fi

# ---- a static cudart's driver calls, under trace
if [ $face = 1 ]; then
	run two_static_trace $(shim_env trace "$O/two_static_trace.%p.lbt") -- \
		"$B/twothread_static" 20 20
	st=$(ls "$O"/two_static_trace.*.lbt 2>/dev/null | head -1)
	if [ -n "$st" ] && "$LBT" summary "$st" >"$O/two_static_trace.sum" 2>&1 &&
		grep -q 'cuLaunchKernel' "$O/two_static_trace.sum"; then
		verdict PASS "static cudart: the trace records its driver calls (cuLaunchKernel and the rest, through cuGetProcAddress)"
	else
		verdict FAIL "static cudart: no driver launch in the trace (two_static_trace.sum)"
	fi
fi

# ---- the pool's hot loop, reuse under asynchronous kernels
echo >>"$R"
echo "### Allocation in the hot loop (4 KiB cudaMalloc+cudaFree pairs)" >>"$R"
echo >>"$R"
run pool_base -- "$B/poolloop_shared" 2000 4096
echo "- without the shim: pair p50 $(val "$O/pool_base.out" pair_p50_us) us, mean $(val "$O/pool_base.out" pair_mean_us) us, wrong $(val "$O/pool_base.out" wrong)" >>"$R"
run reuse_base -- "$B/reuse_shared" 50
echo "- reuse without the shim: $(cat "$O/reuse_base.out")" >>"$R"
if [ $face = 1 ]; then
	run pool_pool $(shim_env pool "$O/pool.lbt") -- "$B/poolloop_shared" 2000 4096
	p=$(val "$O/pool_pool.out" pair_p50_us)
	echo "- under pool: pair p50 $p us, mean $(val "$O/pool_pool.out" pair_mean_us) us, wrong $(val "$O/pool_pool.out" wrong)" >>"$R"
	if awk -v p="${p:-99}" 'BEGIN { exit !(p <= 1) }' && [ "$(val "$O/pool_pool.out" wrong)" = 0 ]; then
		verdict PASS "pool: a pair is $p us (goal <= 1 us), every result right"
	else
		verdict FAIL "pool: a pair is ${p:-?} us (goal <= 1 us), wrong $(val "$O/pool_pool.out" wrong)"
	fi
	run reuse_pool $(shim_env pool "$O/reuse.lbt") -- "$B/reuse_shared" 50
	w=$(val "$O/reuse_pool.out" wrong)
	echo "- reuse under pool: $(cat "$O/reuse_pool.out")" >>"$R"
	# The pool hands a freed block back only once the work that may
	# touch it is done (its fence): while slow_sum still runs, the next
	# cudaMalloc gets another block (same_block 0); a block handed back
	# then would be overwritten under the kernel (wrong > 0).  Without
	# the shim cudaFree waits for the device, so the runtime may give
	# the same block back: same_block > 0 there.
	if [ "$w" = 0 ] && [ "$(val "$O/reuse_pool.out" same_block)" = 0 ]; then
		verdict PASS "reuse: no block handed back while its kernel ran, none corrupted"
	else
		verdict FAIL "reuse under pool: wrong=$w same_block=$(val "$O/reuse_pool.out" same_block)"
	fi
else
	verdict NOT-RUN "pool's hot loop and reuse: the shim has no CUDA face"
fi

# ---- a block handed to another thread with no event (stream0's check)
echo >>"$R"
echo "### A block handed to another thread with no event (stream0's check)" >>"$R"
echo >>"$R"
# handoff.cu: thread A's slow_sum (2 ms) reads X, thread B writes X at
# once, as PyTorch's caching allocator hands blocks over.  Legacy: the
# null stream orders them.  stream0: only the check does, from the
# kernel's pointer arguments (cuFuncGetParamInfo) or the set's range;
# B's own block (apart) must order nothing.
if [ $face = 1 ]; then
	hok=1
	for m in kernel set apart; do
		run ho_base_$m -- "$B/handoff_shared" $m 10
		run ho_s0_$m LBSHIM_LOG=info $(shim_env stream0 "$O/ho_$m.lbt") -- "$B/handoff_shared" $m 10
		n=$(sed -n "s/.*stream0: \([0-9]*\) dependencies on other threads' pending work ordered,.*/\1/p" "$O/ho_s0_$m.err")
		w=$(val "$O/ho_s0_$m.out" wrong)
		echo "- $m: legacy wrong=$(val "$O/ho_base_$m.out" wrong); stream0 wrong=${w:-?}, ${n:-?} of 10 ordered" >>"$R"
		case $m in apart) want=0 ;; *) want=10 ;; esac
		[ "$w" = 0 ] && [ "${n:-x}" = $want ] || hok=0
		! grep -q hazard "$O/ho_s0_$m.err" || hok=0
	done
	if [ $hok = 1 ]; then
		verdict PASS "handoff: a kernel's and a set's write ordered behind the other thread's pending read, every sum right; apart: nothing ordered"
	else
		verdict FAIL "handoff under stream0: see the lines above"
	fi
else
	verdict NOT-RUN "handoff: the shim has no CUDA face"
fi

# ---- a real fault
echo >>"$R"
echo "### A real GPU fault" >>"$R"
echo >>"$R"
run fault_base -- "$B/fault_shared"
echo "- without the shim: $(grep '^fault:' "$O/fault_base.err" | head -1)" >>"$R"
if [ $face = 1 ]; then
	run fault_trace $(shim_env trace "$O/fault.%p.lbt") -- "$B/fault_shared"
	ft=$(ls "$O"/fault.*.lbt 2>/dev/null | head -1)
	if [ -n "$ft" ] && "$LBT" crash "$ft" >"$O/fault_crash.txt" 2>&1 &&
		grep -q bad_store "$O/fault_crash.txt"; then
		verdict PASS "fault: lbtrace crash names bad_store (tests/gpu/progs/fault.cu)"
	else
		verdict FAIL "fault: lbtrace crash does not name bad_store (see fault_crash.txt)"
	fi
	echo '```' >>"$R"; head -40 "$O/fault_crash.txt" >>"$R"; echo '```' >>"$R"
else
	verdict NOT-RUN "fault under trace: the shim has no CUDA face"
fi

# ---- what a call costs the host, call by call (progs/callcost.cu)
echo >>"$R"
echo "### What a call costs the host (ns a call, best of 5 rounds of 20000)" >>"$R"
echo >>"$R"
if [ $face = 1 ]; then
	arms="bare none trace stream0 pool trace,stream0,pool"
	for a in $arms; do
		if [ $a = bare ]; then e=""; else e=$(shim_env $a "$O/cc.lbt"); fi
		run "cc_$a" $e -- "$B/callcost_shared" 20000
		rm -f "$O/cc.lbt"
	done
	{
		printf '| function |'; for a in $arms; do printf ' %s |' "$a"; done; echo
		printf '| --- |'; for a in $arms; do printf ' --- |'; done; echo
		for fn in $(sed -n 's/^callcost: fn=\([^ ]*\) .*/\1/p' "$O/cc_bare.out"); do
			printf '| %s |' "$fn"
			for a in $arms; do
				printf ' %s |' "$(grep "fn=$fn " "$O/cc_$a.out" | sed -n 's/.* ns=\([^ ]*\).*/\1/p')"
			done
			echo
		done
		echo
		echo "(bare: without the shim; none: the shim with no policy)"
	} >>"$R"
	grep -q 'callcost: ok=1' "$O/cc_trace,stream0,pool.out" ||
		verdict FAIL "callcost: a call failed under the shim (cc_*.out)"
fi

# ---- an empty launch
echo >>"$R"
run launch_base -- "$B/launch_shared"
echo "- empty launch without the shim: $(val "$O/launch_base.out" mean_us) us" >>"$R"
if [ $face = 1 ]; then
	for p in trace stream0; do
		run "launch_$p" $(shim_env $p "$O/launch_$p.lbt") -- "$B/launch_shared"
		echo "- empty launch under $p: $(val "$O/launch_$p.out" mean_us) us" >>"$R"
	done
	rm -f "$O"/launch_*.lbt
fi

# ---- PyTorch
echo >>"$R"
echo "### PyTorch: ResNet-50 inference (batch 1, fp32) and a training step" >>"$R"
echo >>"$R"
ts=200; tt=30; [ "$QUICK" = --quick ] && { ts=60; tt=10; }
if "$PY" -c 'import torch, torchvision' 2>/dev/null; then
	echo "| arm | infer p50 | digest | train p50 | digest | stderr |" >>"$R"
	echo "| --- | --- | --- | --- | --- | --- |" >>"$R"
	arms="none none2"
	[ $face = 1 ] && arms=${CHECK_GPU_TORCH_ARMS:-"none trace stream0 pool trace,stream0,pool none2 trace2"}
	for arm in $arms; do
		pol=${arm%2}
		if [ "$pol" = none ]; then e=""; else e=$(shim_env "$pol" "$O/torch_${arm}_%p.lbt"); fi
		run "ti_$arm" $e -- "$PY" "$root/tests/gpu/torch_check.py" infer --steps $ts
		run "tt_$arm" $e -- "$PY" "$root/tests/gpu/torch_check.py" train --steps $tt
		for t in "$O"/torch_"${arm}"_*.lbt; do
			[ -f "$t" ] && "$LBT" summary "$t" >"$t.sum" 2>&1
		done
		echo "| $arm | $(val "$O/ti_$arm.out" p50_ms) ms | $(val "$O/ti_$arm.out" digest) | $(val "$O/tt_$arm.out" p50_ms) ms | $(val "$O/tt_$arm.out" digest) | $(cat "$O/ti_$arm.err" "$O/tt_$arm.err" | grep -c lbshim) lbshim lines |" >>"$R"
	done
	d0=$(val "$O/ti_none.out" digest); d1=$(val "$O/ti_none2.out" digest)
	t0=$(val "$O/tt_none.out" digest); t1=$(val "$O/tt_none2.out" digest)
	if [ -n "$d0" ] && [ "$d0" = "$d1" ] && [ "$t0" = "$t1" ]; then
		verdict PASS "torch: two runs without the shim give the same digests (the computation is deterministic)"
	else
		verdict FAIL "torch: runs without the shim differ ($d0/$d1, $t0/$t1): digests cannot judge the shim"
	fi
	if [ $face = 1 ]; then
		bad=""
		for arm in $arms; do case $arm in none*|*2) continue ;; esac
			[ "$(val "$O/ti_$arm.out" digest)" = "$d0" ] && [ "$(val "$O/tt_$arm.out" digest)" = "$t0" ] || bad="$bad $arm"
			! grep -qi hazard "$O/ti_$arm.err" "$O/tt_$arm.err" || bad="$bad $arm(hazard)"
		done
		[ -z "$bad" ] && verdict PASS "torch: every arm's results identical to the run without the shim; no hazard reported" ||
			verdict FAIL "torch: differing or hazard-reporting arms:$bad"
		# Every launch named: a launch record without kernel= is a
		# kernel the trace could not name.
		un=0; nl=0
		for t in "$O"/torch_trace_*.lbt; do
			[ -f "$t" ] || continue
			"$LBT" print "$t" 2>/dev/null | grep -E 'aunch(Kernel|Cooperative)[A-Za-z_]*\(' >"$O/launches.txt"
			nl=$((nl + $(wc -l <"$O/launches.txt")))
			un=$((un + $(grep -vc 'kernel=' "$O/launches.txt")))
		done
		rm -f "$O/launches.txt"
		[ "$nl" -gt 0 ] && [ "$un" = 0 ] &&
			verdict PASS "torch: every one of $nl launches under trace names its kernel (cuBLAS's and cuDNN's included)" ||
			verdict FAIL "torch: $un of $nl launches under trace have no kernel name"
		# The trace's cost on the inference step: a warm-up run, then
		# without/with alternated, OVH_RUNS each, the median of the
		# runs' p50s per arm.
		ovr=4; [ "$QUICK" = --quick ] && ovr=2
		run ovh_warm -- "$PY" "$root/tests/gpu/torch_check.py" infer --steps 100
		for i in $(seq 1 $ovr); do
			run "ovh_none_$i" -- "$PY" "$root/tests/gpu/torch_check.py" infer --steps 300 --warmup 50
			run "ovh_trace_$i" $(shim_env trace "$O/ovh_$i.lbt") -- "$PY" "$root/tests/gpu/torch_check.py" infer --steps 300 --warmup 50
			rm -f "$O/ovh_$i.lbt"
		done
		mn=$(for i in $(seq 1 $ovr); do val "$O/ovh_none_$i.out" p50_ms; done | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}')
		mt=$(for i in $(seq 1 $ovr); do val "$O/ovh_trace_$i.out" p50_ms; done | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}')
		o=$(awk -v a="$mn" -v c="$mt" 'BEGIN { printf "%.2f", (c / a - 1) * 100 }')
		echo "- inference step p50, median of $ovr runs an arm (alternated, 300 steps each): without $mn ms, under trace $mt ms" >>"$R"
		awk -v o="$o" 'BEGIN { exit !(o <= 1) }' &&
			verdict PASS "torch: trace adds $o% to the inference step (goal <= 1%)" ||
			verdict FAIL "torch: trace adds $o% to the inference step (goal <= 1%)"
	fi
else
	verdict NOT-RUN "torch: $PY has no torch/torchvision"
fi
echo >>"$R"
cat "$R"
exit $fail
