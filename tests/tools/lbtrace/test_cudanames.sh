#!/bin/sh
# tools/format/cuda_names.c holds the names of NVIDIA's CUDA 13.0 headers:
# cudaError_t (enum cudaError, driver_types.h), CUresult (enum
# cudaError_enum, cuda.h), cudaMemcpyKind (driver_types.h), whose values
# are hipMemcpyKind's (hip/driver_types.h), the numbers a trace holds:
# compare each table with its header.  Then a CUDA call's code prints
# under its vendor's name (gen_trace cudanames: a runtime row and a
# driver row that failed, a copy).
. tests/tools/lbtrace/lib.sh
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
I=$CUDA_HOME/include
[ -r "$I/cuda.h" ] && [ -r "$I/driver_types.h" ] || { echo "no CUDA headers in $I"; exit 77; }
TAB="$TOP/$BUILD/tests/tools/lbtrace/cudaerrtab"

# enum_of AWKRANGE FILE PREFIX: "value name" of the enum, comments out
enum_of() {
	awk "$1" "$2" | sed 's,//.*,,' | tr '\n' ' ' | perl -pe 's,/\*.*?\*/,,g' |
		tr ',{' '\n\n' |
		sed -n "s/^[^a-zA-Z]*\\($3[A-Za-z0-9_]*\\)[ ]*=[ ]*\\([0-9]*\\).*/\\2 \\1/p" |
		awk '!seen[$1]++' | sort -n
}

enum_of '/^enum __device_builtin__ cudaError$/,/^};/' "$I/driver_types.h" cuda >rt.h.txt
enum_of '/^typedef enum cudaError_enum/,/} CUresult;/' "$I/cuda.h" CUDA_ >drv.h.txt
enum_of '/^enum __device_builtin__ cudaMemcpyKind$/,/^};/' "$I/driver_types.h" cuda >kind.h.txt
[ "$(wc -l <rt.h.txt)" -gt 100 ] && [ "$(wc -l <drv.h.txt)" -gt 80 ] &&
	[ "$(wc -l <kind.h.txt)" = 5 ] || fail "could not read the enums"
for t in rt drv kind; do
	"$TAB" $t | sort -n >$t.tab.txt
	diff $t.h.txt $t.tab.txt >/dev/null && ok "$t: table = header" ||
		{ fail "$t: table differs from the header"; diff $t.h.txt $t.tab.txt | head; }
done
H=/usr/include/hip/driver_types.h
if [ -r $H ]; then
	enum_of '/^typedef enum hipMemcpyKind/,/} hipMemcpyKind;/' $H hip |
		sed 's/ hip/ cuda/' >hipkind.txt
	diff kind.h.txt hipkind.txt >/dev/null &&
		ok "cudaMemcpyKind's values are hipMemcpyKind's" ||
		{ fail "cudaMemcpyKind and hipMemcpyKind differ"; diff kind.h.txt hipkind.txt; }
fi

# A CUDA trace's codes in CUDA's words, a HIP trace's in HIP's.
"$GEN" cudanames cn.lbt || fail "gen_trace cudanames"
"$L" print cn.lbt >out.txt || fail "print: exit $?"
grep -q 'cudaMalloc(.*ret=2 (cudaErrorMemoryAllocation)' out.txt &&
	ok "runtime row: cudaError_t" || { fail "runtime row"; cat out.txt; }
grep -q 'cuMemAlloc_v2(.*ret=2 (CUDA_ERROR_OUT_OF_MEMORY)' out.txt &&
	ok "driver row: CUresult" || { fail "driver row"; cat out.txt; }
grep -q 'cuCtxSynchronize(.*ret=201 (CUDA_ERROR_INVALID_CONTEXT)' out.txt &&
	ok "driver row: 201 is CUDA_ERROR_INVALID_CONTEXT" || { fail "201"; cat out.txt; }
grep -q 'cudaStreamSynchronize(.*ret=0 (cudaSuccess)' out.txt &&
	ok "runtime row: cudaSuccess" || { fail "cudaSuccess"; cat out.txt; }
grep -q 'cudaMemcpy(.*kind=cudaMemcpyHostToDevice' out.txt &&
	ok "copy kind: cudaMemcpyKind" || { fail "copy kind"; cat out.txt; }
grep -q 'hip[A-Z]' out.txt && { fail "a HIP name in a CUDA trace"; grep hip out.txt; }
"$L" print --json cn.lbt >out.json || fail "print --json: exit $?"
grep -q '"api":"cuMemAlloc_v2".*"ret_name":"CUDA_ERROR_OUT_OF_MEMORY"' out.json &&
	ok "json: ret_name CUresult" || { fail "json ret_name"; cat out.json; }
"$L" print basic.lbt | grep -q 'ret=0 (hipSuccess)' && ok "HIP trace: hipSuccess" ||
	fail "HIP trace: no hipSuccess"
finish
