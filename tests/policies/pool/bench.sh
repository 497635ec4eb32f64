#!/bin/sh
# bench.sh - the pool's speed and fragmentation on hipemu, printed only.
# Goals (brief): a hipMalloc+hipFree pair <= 40 ns on one thread and
# <= 120 ns median on 8; fragmentation of the inference replay <= 10%.
B=${PT_BUILD:-build}
SHIM=${PT_SHIM:-$B/liblbshim.so}
X=$B/tests/policies/pool/pool_bench
export LD_LIBRARY_PATH=$B/hipemu
unset LBSHIM_POLICIES LBSHIM_LOG LBSHIM_POOL_CHUNK LBSHIM_POOL_MAX_BLOCK \
	LBSHIM_POOL_LIMIT LBSHIM_POOL_FREE HIPEMU_COST_MALLOC_NS
T=$(mktemp -d "${TMPDIR:-/tmp}/poolbench.XXXXXX")
trap 'rm -rf "$T"' EXIT
val() { sed -n "s/.* $1=\([0-9.]*\).*/\1/p" "$2" | head -n 1; }
pool() { LD_PRELOAD=$SHIM LBSHIM_POLICIES=pool "$@"; }
plain() { LD_PRELOAD=$SHIM LBSHIM_POLICIES=none "$@"; }

echo "== pool: hipMalloc+hipFree of 4 KiB"
pool "$X" mt 1 3000000 >"$T/m1"
echo "1 thread:  median $(val median_ns_per_pair "$T/m1") ns per pair," \
	"p90 $(val p90 "$T/m1"), mean $(val mean "$T/m1") (goal <= 40)"
pool "$X" mt 8 200000 >"$T/mt"
echo "8 threads: median $(val median_ns_per_pair "$T/mt") ns per pair," \
	"p90 $(val p90 "$T/mt") (goal median <= 120; $(nproc) CPUs)"

echo "== against hipemu's allocation path, HIPEMU_COST_MALLOC_NS=51000"
HIPEMU_COST_MALLOC_NS=51000 plain "$X" pair 2000 >"$T/rt"
HIPEMU_COST_MALLOC_NS=51000 pool "$X" pair 200000 >"$T/pl"
a=$(val ns_per_pair "$T/rt"); b=$(val ns_per_pair "$T/pl")
echo "runtime $a ns, pool $b ns per pair: speedup" \
	"$(echo "$a $b" | awk '{printf "%.0fx", $1 / $2}')"

echo "== replay of a transformer inference's allocations (12 layers, dynamic lengths)"
HIPEMU_COST_MALLOC_NS=51000 plain "$X" replay 8 >"$T/r0"
HIPEMU_COST_MALLOC_NS=51000 LBSHIM_LOG=info pool "$X" replay 200 \
	>"$T/r1" 2>"$T/r1.err"
a=$(val us_per_forward "$T/r0"); b=$(val us_per_forward "$T/r1")
live=$(val peak_live_bytes "$T/r1")
res=$(sed -n 's/.*reserved peak \([0-9.]*\) MiB.*/\1/p' "$T/r1.err")
echo "runtime $a us, pool $b us per forward: speedup" \
	"$(echo "$a $b" | awk '{printf "%.0fx", $1 / $2}')"
echo "peak live $(echo "$live" | awk '{printf "%.1f", $1 / 1048576}') MiB," \
	"pool reserved peak $res MiB: fragmentation" \
	"$(echo "$live $res" | awk '{printf "%.1f%%", 100 * (1 - $1 / 1048576 / $2)}')" \
	"(goal <= 10%)"
grep "lbshim: pool:" "$T/r1.err" | sed 's/^/  /'
