#!/bin/sh
# A small request of more than 512 KiB that the small heap cannot place
# takes a free block of the large heap rather than a new chunk
# (pool_heap.c lb_borrow_large): the runtime sees two hipMalloc calls,
# the large chunk and the first small one.  The program's results are
# the same as without the pool.
. "$(dirname "$0")/lib.sh"
HIPEMU_STATS=$T/s.json run borrow pool "$P" borrow >/dev/null
n=$(calls "$T/s.json" hipMalloc)
[ "$n" = 2 ] || fail "runtime hipMalloc calls: $n, want 2"
run plain plain "$P" borrow >/dev/null
grep -q "^borrow: done" "$T/borrow.out" || fail "no end"
echo ok
