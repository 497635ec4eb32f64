#!/bin/sh
# Random allocations and frees with a byte pattern per block: no overlap,
# 256-byte alignment, every pattern intact, address ranges right.
. "$(dirname "$0")/lib.sh"
run f1 pool "$P" fuzz 1 1500
run f2 pool "$P" fuzz 7 1500
LBSHIM_POOL_CHUNK=4M LBSHIM_POOL_MAX_BLOCK=3M run f3 pool "$P" fuzz 3 1000
