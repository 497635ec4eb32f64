#!/bin/sh
# 20 000 allocations in a hot loop reach the runtime's hipMalloc less than
# 1% of the time (counted by hipemu), with and without kernels using them.
. "$(dirname "$0")/lib.sh"
HIPEMU_STATS=$T/s1.json run hot pool "$P" hot 20000
n=$(calls "$T/s1.json" hipMalloc)
[ "$n" -lt 200 ] || fail "$n runtime hipMalloc calls"
[ "$(calls "$T/s1.json" hipFree)" = 0 ] || fail "pool memory reached hipFree"
HIPEMU_STATS=$T/s2.json run hotk pool "$P" hot 20000 kernel
n=$(calls "$T/s2.json" hipMalloc)
[ "$n" -lt 200 ] || fail "$n runtime hipMalloc calls with kernels"
echo "runtime hipMalloc: $(calls "$T/s1.json" hipMalloc), with kernels $n"
