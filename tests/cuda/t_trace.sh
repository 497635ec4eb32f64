# t_trace.sh - the trace of CUDA calls on hipemu's face: every call of an
# nvcc-built program (shared cudart) and of a driver-API program is one
# record, launches name their kernel (from __cudaRegisterFunction's
# deviceName, cuModuleGetFunction's name) with grid, block and shared
# memory, and a module function's its arguments (the driver's layout),
# allocations their pointer and size; the header says CUDA;
# lbtrace print and summary read it.
. tests/cuda/lib.sh
cd "$TMP"
HIPEMU_STATS=$TMP/stats traced v "$HT/vecadd" >"$TMP/out" 2>&1 ||
	fail "vecadd: $(cat "$TMP/out")"
"$LBTRACE" print "$TMP/v.lbt" >"$TMP/print" || fail "lbtrace print"
# its arguments typed by vecadd's signature over the face driver's layout
grep -q '__cudaLaunchKernel(kernel=vecadd(float\* 0x[0-9a-f]*, float const\* 0x[0-9a-f]*, float const\* 0x[0-9a-f]*, int 1000), grid=(4,1,1), block=(256,1,1), shmem=0' \
	"$TMP/print" || fail "launch record: $(grep Launch "$TMP/print")"
grep -q 'cudaMalloc(ptr=0x[0-9a-f]*, size=4000' "$TMP/print" ||
	fail "allocation record: $(grep cudaMalloc "$TMP/print" | head -1)"
# one record per call of a row that reached the face (HIPEMU_STATS), but
# for the runtime's own: its first call looks up and calls the driver's
# cuInit (tests/hipemu/cuda_rt.c, cf_face_bound), one call with it
printf '#define LB_API(R, N, ...) N\n#include "lbshim/cuda_api.def"\n' |
	${CC:-cc} -E -P -I"$OLDPWD/include" -x c - | tr -s ' \t' '\n\n' |
	grep -v '^$' | sort -u >"$TMP/rows"
tr ',' '\n' <"$TMP/stats" | sed 's/"calls": {//; s/[{}]//g' |
	sed -n 's/^ *"\([^"]*\)": *\([0-9]*\) *$/\1 \2/p' | sort |
	join - "$TMP/rows" | grep -v '^cuGetProcAddress_v2 1$' >"$TMP/want"
sed 's/^ *[0-9.]* pid:[0-9]* tid:[0-9]* //' "$TMP/print" | cut -d'(' -f1 |
	sort | uniq -c | awk '{ print $2, $1 }' | sort >"$TMP/got"
diff "$TMP/want" "$TMP/got" || fail "records are not the calls"
"$LBTRACE" summary "$TMP/v.lbt" >"$TMP/sum" || fail "lbtrace summary"
grep -q 'runtime: CUDA' "$TMP/sum" || fail "header: $(grep runtime "$TMP/sum")"
grep -q ' vecadd(float\*' "$TMP/sum" || fail "no kernel table"
# the driver API: a module's function named in its launch
traced d "$HT/drv" "$HT/kern.cubin" >"$TMP/dout" 2>&1 ||
	fail "drv: $(cat "$TMP/dout")"
"$LBTRACE" print "$TMP/d.lbt" >"$TMP/dprint" || fail "lbtrace print drv"
grep -q 'cuLaunchKernel(kernel=[a-z_]' "$TMP/dprint" ||
	fail "driver launch: $(grep cuLaunchKernel "$TMP/dprint" | head -1)"
grep -q 'cuMemAlloc_v2(ptr=0x' "$TMP/dprint" || fail "cuMemAlloc_v2 record"
# its arguments, laid out by the driver (cuFuncGetParamInfo: rt_cuda.c):
# axpy(float a = 2.0f, x, y, int n = 64), an extern "C" kernel with no
# signature to type them by, so its words (2.0f's bits: 1073741824);
# mixed(char 1, struct S, p, short 5, double 0.25) likewise (S's padding
# is whatever the program's stack held)
grep -q 'cuLaunchKernel(kernel=axpy(1073741824, 0x[0-9a-f]*, 0x[0-9a-f]*, 64), grid=(1,1,1), block=(64,1,1)' \
	"$TMP/dprint" || fail "axpy's arguments: $(grep 'axpy' "$TMP/dprint" | head -1)"
grep -q 'kernel=mixed(1, {[^}]*}, 0x[0-9a-f]*, 5, {0, 1070596096})' \
	"$TMP/dprint" || fail "mixed's arguments: $(grep 'mixed' "$TMP/dprint" | head -1)"
