#!/bin/sh
# lbtrace summary --nsys: the columns of nsys stats' cuda_api_sum (Time
# (%), Total Time (ns), Num Calls, Avg, Med, Min, Max, StdDev (ns), Name)
# and a kernel table per launch configuration, said to be the host's
# launch calls; on a CUDA trace and a HIP one; summary without it
# unchanged (test_golden.sh).
. tests/tools/lbtrace/lib.sh
"$GEN" cudanames cn.lbt || fail "gen_trace cudanames"
"$L" summary --nsys cn.lbt >out.txt || fail "summary --nsys: exit $?"
grep -q '^ \*\* CUDA API Summary (cuda_api_sum):$' out.txt &&
	ok "CUDA title" || { fail "CUDA title"; cat out.txt; }
hdr=' Time (%)  Total Time (ns)  Num Calls      Avg (ns)      Med (ns)    Min (ns)    Max (ns)   StdDev (ns)  Name'
grep -qxF "$hdr" out.txt && ok "cuda_api_sum's columns" ||
	{ fail "columns"; cat out.txt; }
# cudaMalloc: 700 and 900 ns of 4900 ns in all: 32.7%, avg 800, sample
# deviation 141.4; the median is the lower middle value (nearest rank)
row=$(grep ' cudaMalloc$' out.txt)
echo "$row" | awk '{ exit !($1 == "32.7" && $2 == 1600 && $3 == 2 &&
	$4 == "800.0" && $6 == 700 && $7 == 900 && $8 == "141.4" &&
	$5 >= 693 && $5 <= 707) }' && ok "cudaMalloc's row: $row" ||
	fail "cudaMalloc's row: $row"
# the first row takes the most time
sed -n '/^ --------/{n;p;q;}' out.txt | grep -q ' cudaMemcpy$' &&
	ok "sorted by total time" || fail "not sorted: $(cat out.txt)"
grep -q 'Kernel' out.txt && fail "a kernel table without launches"

"$L" summary --nsys basic.lbt >out.txt || fail "summary --nsys basic: exit $?"
grep -q '^ \*\* HIP API Summary (in the columns of cuda_api_sum):$' out.txt &&
	ok "HIP title" || { fail "HIP title"; head out.txt; }
grep -qF 'GridXYZ        BlockXYZ  Shmem (B)  Name' out.txt &&
	grep -q "host-side launch calls: the trace records no GPU timestamps" out.txt &&
	ok "kernel table: columns and the host-side note" ||
	{ fail "kernel table"; cat out.txt; }
# one row per configuration: vector_add twice, transpose with its shmem
grep -Eq '^ +[0-9.]+ +9000 +1 +9000\.0 +9000\.0 +9000 +9000 +0\.0 +64 64 1 +32 8 1 +4096  void myapp::kernel::transpose_tiled_f32<32, 8>\(float\*, float const\*, int, int\)$' out.txt &&
	[ "$(grep -c ' vector_add(float\*' out.txt)" = 2 ] &&
	grep -Eq ' 256 1 1 +256 1 1 +0  vector_add\(' out.txt &&
	ok "kernel rows by configuration" || { fail "kernel rows"; cat out.txt; }
# filters apply: only the failed calls
"$L" summary --nsys --errors cn.lbt >out.txt || fail "--errors: exit $?"
[ "$(grep -c ' cu[A-Za-z_0-9]*$' out.txt)" = 3 ] &&
	grep -q ' 1 .* cuCtxSynchronize$' out.txt && ok "--errors" ||
	{ fail "--errors"; cat out.txt; }
"$L" print --nsys cn.lbt >/dev/null 2>&1
[ $? = 1 ] && ok "--nsys is summary's" || fail "print --nsys: not bad usage"
finish
