#!/bin/sh
# Work that a stream-taking call still has pending on a block keeps the
# block from being handed out again (pool_streamwork.c); the control run
# without the pool shows the program's check itself.
. "$(dirname "$0")/lib.sh"
export HIPEMU_DEVICES=2
export HIPEMU_KERNELS=$HIPEMU_KERNELS:$D/libpwtwin.so
run plain plain "$D/pool_streamwork"
run pool pool "$D/pool_streamwork"
