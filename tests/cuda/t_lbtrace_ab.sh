# t_lbtrace_ab.sh - lbtrace ab across vendors: the HIP trace of
# prog_xv_hip (on hipemu) against the CUDA trace of prog_xv (on hipemu's
# CUDA face), which make the same calls.  Functions pair by the table's
# twin column (cudaMalloc and cuMemAlloc_v2 with hipMalloc), the kernel
# by name; each side's runtime is said; what has no counterpart is listed
# with why.  Two CUDA runs compare as two HIP runs do: by name, no
# twins, no list.
. tests/cuda/lib.sh
# ok EXPR WHAT: the Python expression EXPR on d = the JSON document ab.json
ok() {
	"$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if eval(sys.argv[2]) else 1)' \
		"$TMP/ab.json" "$1" || fail "$2: $1"
}
cd "$TMP"
traced cuda "$T/prog_xv" >out 2>&1 || fail "prog_xv: $(cat out)"
traced cuda2 "$T/prog_xv" >out 2>&1 || fail "prog_xv (2): $(cat out)"
LBSHIM_POLICIES=trace LBSHIM_TRACE=$TMP/hip.lbt LD_PRELOAD=$SHIM \
	LD_LIBRARY_PATH=$B/hipemu timeout 120 "$T/prog_xv_hip" >out 2>&1 ||
	fail "prog_xv_hip: $(cat out)"

"$LBTRACE" ab --json hip.lbt --vs cuda.lbt >ab.json || fail "ab --json: exit $?"
ok 'd["across_vendors"] and [g["runtime"] for g in d["groups"]] == ["HIP", "CUDA"]' \
	"runtimes"
# api rows by the names each side called: (A's, B's) -> (calls A, calls B)
R='{(r["name_a"], r["name_b"]): (r["calls_a"], r["calls_b"]) for r in d["apis"]}'
for pair in 'hipMalloc cudaMalloc+cuMemAlloc_v2 3 3' \
	'hipFree cudaFree+cuMemFree_v2 3 3' 'hipMemcpy cudaMemcpy 3 3' \
	'hipLaunchKernel __cudaLaunchKernel 1 1' \
	'hipStreamSynchronize cudaStreamSynchronize 1 1' \
	'hipEventCreate cudaEventCreate 1 1' \
	'hipEventSynchronize cudaEventSynchronize 1 1'; do
	set -- $pair
	ok "$R.get(('$1', '$2')) == ($3, $4)" "pair $1 / $2"
done
ok '[r["name"] for r in d["apis"] if r["name_a"] == "hipMalloc"] == ["hipMalloc / cudaMalloc+cuMemAlloc_v2"]' \
	"a pair's name"
ok '[(k["name"].split("(")[0], k["calls_a"], k["calls_b"]) for k in d["kernels"]] == [("vecadd", 1, 1)]' \
	"kernel by name"
ok 'sorted((u["only_in"], u["kind"], u["name"]) for u in d["unmatched"]) == [("A", "api", "hipEventRecord"), ("A", "api", "hipExtMallocWithFlags"), ("B", "api", "__cudaGetKernel"), ("B", "api", "__cudaRegisterFatBinaryEnd"), ("B", "api", "__cudaUnregisterFatBinary"), ("B", "api", "cudaEventRecordWithFlags")]' \
	"the unmatched list"
ok '{u["name"]: u["why"] for u in d["unmatched"]}["cudaEventRecordWithFlags"] == "no HIP twin in lbshim\x27s API table"' \
	"why: no twin"
ok '{u["name"]: u["why"] for u in d["unmatched"]}["hipExtMallocWithFlags"] == "no CUDA twin in lbshim\x27s API table"' \
	"why: no CUDA twin"
ok '{u["name"]: u["why"] for u in d["unmatched"]}["hipEventRecord"] == "none of its CUDA twins called in B"' \
	"why: twin not called"

"$LBTRACE" ab hip.lbt --vs cuda.lbt >ab.txt || fail "ab: exit $?"
grep -q '^A: .*hip.lbt (HIP)$' ab.txt && grep -q '^B: .*cuda.lbt (CUDA)$' ab.txt ||
	fail "text: the runtimes: $(head -2 ab.txt)"
grep -q '^hipMalloc / cudaMalloc+cuMemAlloc_v2  *3  *3 ' ab.txt ||
	fail "text: hipMalloc's row: $(grep hipMalloc ab.txt)"
grep -q '^across vendors: A is HIP, B is CUDA;.* 10 matched, 6 not:$' ab.txt ||
	fail "text: the summary line: $(grep 'across' ab.txt)"
grep -q '^  only in B (CUDA): cudaEventRecordWithFlags: no HIP twin' ab.txt ||
	fail "text: the unmatched lines: $(sed -n '/^across/,$p' ab.txt)"
# B against A: the sides swap
"$LBTRACE" ab cuda.lbt --vs hip.lbt >ba.txt || fail "ab B A: exit $?"
grep -q '^cudaMalloc+cuMemAlloc_v2 / hipMalloc  *3  *3 ' ba.txt ||
	fail "swapped: $(grep hipMalloc ba.txt)"

# two CUDA runs: as two HIP runs, by name
"$LBTRACE" ab --json cuda.lbt --vs cuda2.lbt >ab.json || fail "ab cuda cuda: exit $?"
ok 'not d["across_vendors"] and "unmatched" not in d' "CUDA vs CUDA: not across vendors"
ok '{r["name"]: (r["calls_a"], r["calls_b"]) for r in d["apis"]}["cudaMalloc"] == (2, 2)' \
	"CUDA vs CUDA: cudaMalloc by name"
"$LBTRACE" ab cuda.lbt --vs cuda2.lbt >cc.txt || fail "ab cuda cuda text: exit $?"
grep -q 'across vendors\|(CUDA)' cc.txt && fail "CUDA vs CUDA: $(cat cc.txt)"
echo "PASS: lbtrace ab across vendors"
