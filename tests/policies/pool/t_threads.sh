#!/bin/sh
# 16 threads allocate, fill, check and free concurrently, also freeing each
# other's blocks; then on a small device, where out-of-memory trims flush
# every thread's cache while the threads use them.
. "$(dirname "$0")/lib.sh"
run threads pool "$P" threads 16
HIPEMU_MEM_SIZE=40M LBSHIM_LOG=info run small pool "$P" threads 16 tolerate
grep "pool:.*trims" "$T/small.err"
