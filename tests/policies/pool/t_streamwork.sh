#!/bin/sh
# Work that a stream-taking call still has pending on a block keeps the
# block from being handed out again (pool_streamwork.c).  There is no run
# without the pool: the runtime's own hipFree waits for all device work,
# the gate's kernel included, so the program would wait for its gate.
. "$(dirname "$0")/lib.sh"
export HIPEMU_DEVICES=2
export HIPEMU_KERNELS=$HIPEMU_KERNELS:$D/libpwtwin.so
run pool pool "$D/pool_streamwork"
n=$(grep -c 'clobbered=0$' "$T/pool.out")
[ "$n" -ge 12 ] || fail "only $n writers ran"
