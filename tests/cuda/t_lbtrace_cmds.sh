# t_lbtrace_cmds.sh - lbtrace print, crash and export on CUDA traces made
# on hipemu's CUDA face: print names codes and copy kinds in CUDA's words
# (cudaError_t for the runtime, CUresult for the driver); crash explains
# the GPU suite's fault program (tests/gpu/progs/fault.cu), whose
# bad_store twin segfaults on hipemu; export writes Chrome JSON and the
# SVG timeline of that crash.
. tests/cuda/lib.sh
G=$B/gpu
cd "$TMP"
traced xv "$T/prog_xv" >out 2>&1 || fail "prog_xv: $(cat out)"

# print
"$LBTRACE" print xv.lbt >p.txt || fail "print: exit $?"
grep -q ' cudaMalloc(ptr=0x[0-9a-f]*, size=4000, pool=off) ret=0 (cudaSuccess) ' p.txt ||
	fail "print: cudaMalloc: $(grep cudaMalloc p.txt)"
grep -q ' cuMemAlloc_v2(ptr=0x[0-9a-f]*, size=4000, pool=off) ret=0 (CUDA_SUCCESS) ' p.txt ||
	fail "print: cuMemAlloc_v2: $(grep cuMemAlloc p.txt)"
grep -q ' cudaMemcpy(.*kind=cudaMemcpyHostToDevice) ret=0 (cudaSuccess) ' p.txt ||
	fail "print: copy kind: $(grep cudaMemcpy p.txt | head -1)"
grep -q 'hip[A-Z]' p.txt && fail "print: a HIP name: $(grep 'hip[A-Z]' p.txt)"
"$LBTRACE" print --json xv.lbt >p.json || fail "print --json: exit $?"
"$PY" -c '
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
names = {(r["api"], r["ret_name"]) for r in recs if r.get("type") == "call"}
sys.exit(0 if ("cuMemFree_v2", "CUDA_SUCCESS") in names and
	 ("cudaEventSynchronize", "cudaSuccess") in names else 1)' p.json ||
	fail "print --json: ret_name"

# crash: SIGSEGV in the kernel's twin, on a worker thread that made no
# call; the main thread in the sync after the bad launch
HIPEMU_KERNELS=$B/tests/gpu-cpu/libgpu_twins.so traced f "$G/fault_shared" \
	>out 2>&1
rc=$?
[ $rc = 139 ] || fail "fault_shared: rc $rc, want 139: $(cat out)"
"$LBTRACE" crash f.lbt >c.txt || fail "crash: exit $?"
grep -q '^  runtime: CUDA, ' c.txt || fail "crash: runtime: $(cat c.txt)"
grep -q '^\*\*\* SIGSEGV (SEGV_MAPERR) at address 0x' c.txt ||
	fail "crash: signal: $(head -5 c.txt)"
grep -q '(made no CUDA call: recorded in the shared crash block)' c.txt ||
	fail "crash: the worker thread: $(grep '^thread' c.txt)"
grep -q 'hipemu_twin__Z9bad_storePi' c.txt || fail "crash: backtrace: $(cat c.txt)"
# the main thread is in the sync after the bad launch, or still in the
# launch when the worker ran the twin first (a race: both are right)
inf=$(sed -n '/^in flight:/{n;p;}' c.txt)
last=$(grep ' __cudaLaunchKernel(kernel=' c.txt | tail -n 1)
case $inf in
"  cudaDeviceSynchronize() on thread "*" until the SIGSEGV")
	echo "$last" | grep -q 'kernel=bad_store(int\* 0x[0-9a-f]*), grid=(1,1,1), block=(32,1,1), shmem=0.* ret=0 (cudaSuccess)' ||
		fail "crash: the last launch: $last" ;;
"  __cudaLaunchKernel(stream=0x0) on thread "*" until the SIGSEGV")
	[ "$(grep -c ' __cudaLaunchKernel(kernel=good_store(int\* 0x[0-9a-f]*, int [0-2]), ' c.txt)" = 3 ] ||
		fail "crash: the launches before: $(grep __cudaLaunchKernel c.txt)" ;;
*) fail "crash: in flight: $inf" ;;
esac

# export: Chrome JSON and the SVG timeline of the crash
"$LBTRACE" export --format chrome -o f.json f.lbt || fail "export chrome: exit $?"
"$PY" -c '
import json, sys
d = json.load(open(sys.argv[1]))
ev = d["traceEvents"] if isinstance(d, dict) else d
ok = any(e.get("name") == "__cudaLaunchKernel" and
	 e["args"].get("kernel") == "good_store(int*, int)" and
	 e["args"].get("ret") == "cudaSuccess" for e in ev)
ok = ok and any(e.get("name") == "cudaMalloc" for e in ev)
sys.exit(0 if ok else 1)' f.json || fail "export chrome: $(head -c 600 f.json)"
# the launches alone, in a window of 50 us from the last good one (the
# bad one may be in flight, unnamed): its bar is wider than a pixel
# (narrower bars are merged, and lose their names)
start=$("$LBTRACE" print --json --kernel good_store f.lbt | tail -n 1 |
	"$PY" -c 'import json, sys; print("%.6f" % (json.load(sys.stdin)["t_ns"] / 1e6))') ||
	fail "the last good launch's time"
"$LBTRACE" export --svg k.svg --api __cudaLaunchKernel --window "$start,0.05" \
	f.lbt || fail "export --svg --window: exit $?"
grep -q '<title>__cudaLaunchKernel good_store(int\*, int), ' k.svg ||
	fail "export --svg: the launch: $(grep -o '<title>[^<]*</title>' k.svg | head)"
"$LBTRACE" export --svg f.svg f.lbt || fail "export --svg: exit $?"
"$PY" -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' f.svg ||
	fail "export --svg: not XML"
grep -q '<title>[_a-zA-Z]*, [0-9.]* ms in flight, no return recorded' f.svg &&
	grep -q '<title>SIGSEGV</title>' f.svg ||
	fail "export --svg: $(grep -o '<title>[^<]*</title>' f.svg | head)"
echo "PASS: lbtrace print, crash and export on CUDA traces"
