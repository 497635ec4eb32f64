#!/bin/sh
# 20 000 allocations in a hot loop reach the runtime's hipMalloc less than
# 1% of the time (counted by hipemu), with and without kernels using them.
# The exit report counts every call once, hit or miss: with the pool
# alone, its hits take the serve path (shim/run_solo.h, lb_serve), which
# keeps the counts itself.
. "$(dirname "$0")/lib.sh"
HIPEMU_STATS=$T/s1.json LBSHIM_LOG=info run hot pool "$P" hot 20000
r=$(sed -n 's/.*pool: allocations \([0-9]*\) hits, \([0-9]*\) misses; frees \([0-9]*\) hits, \([0-9]*\) misses.*/\1 \2 \3 \4/p' "$T/hot.err")
set -- $r
[ $# = 4 ] || fail "no pool counts in the exit report: $(cat "$T/hot.err")"
[ $(($1 + $2)) = 20000 ] || fail "allocations counted $1 hits + $2 misses, not 20000"
[ "$2" = "$(calls "$T/s1.json" hipMalloc)" ] ||
	fail "$2 allocation misses counted, $(calls "$T/s1.json" hipMalloc) runtime hipMalloc calls"
[ "$3 $4" = "20000 0" ] || fail "frees counted $3 hits, $4 misses, not 20000 hits"
n=$(calls "$T/s1.json" hipMalloc)
[ "$n" -lt 200 ] || fail "$n runtime hipMalloc calls"
[ "$(calls "$T/s1.json" hipFree)" = 0 ] || fail "pool memory reached hipFree"
HIPEMU_STATS=$T/s2.json run hotk pool "$P" hot 20000 kernel
n=$(calls "$T/s2.json" hipMalloc)
[ "$n" -lt 200 ] || fail "$n runtime hipMalloc calls with kernels"
echo "runtime hipMalloc: $(calls "$T/s1.json" hipMalloc), with kernels $n"
