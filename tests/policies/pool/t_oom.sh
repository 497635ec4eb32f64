#!/bin/sh
# A small device: the pool fails cleanly with hipErrorOutOfMemory, and after
# the blocks are freed a large allocation succeeds because the pool gives
# its cached chunks back.  LBSHIM_POOL_LIMIT in bytes and in percent.
. "$(dirname "$0")/lib.sh"
export HIPEMU_MEM_SIZE=64M
run oom pool "$P" oom 1048576 50000000
LBSHIM_POOL_LIMIT=16M run limit pool "$P" oom 1048576 12000000
n=$(sed -n 's/^oom: \([0-9]*\) blocks.*/\1/p' "$T/limit.out")
[ "$n" -le 16 ] && [ "$n" -ge 8 ] || fail "16M limit held $n MiB blocks"
LBSHIM_POOL_LIMIT=50% run pct pool "$P" oom 1048576 0
n=$(sed -n 's/^oom: \([0-9]*\) blocks.*/\1/p' "$T/pct.out")
[ "$n" -le 32 ] && [ "$n" -ge 24 ] || fail "50% of 64M held $n MiB blocks"
# a failing runtime hipMalloc: the pool returns the runtime's error
HIPEMU_FAIL=hipMalloc:1+:hipErrorOutOfMemory run inj pool "$P" oom 4096 0
