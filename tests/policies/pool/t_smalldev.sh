#!/bin/sh
# A device too small for the pool's chunks (1M: no 2 MiB small chunk; 3M:
# no 4 MiB large chunk): each block gets a chunk of its own size, so the
# pool holds as many blocks as the runtime alone, and after they are freed
# trim gives them back for a larger allocation.
. "$(dirname "$0")/lib.sh"
blocks() { sed -n 's/^oom: \([0-9]*\) blocks.*/\1/p' "$T/$1.out"; }
export HIPEMU_MEM_SIZE=1M
run plain1 plain "$P" oom 1024 524288
run pool1 pool "$P" oom 1024 524288
a=$(blocks plain1) b=$(blocks pool1)
[ "$b" -ge 1 ] && [ "$b" = "$a" ] ||
	fail "1M device: the pool held $b blocks of 1 KiB, the runtime $a"
export HIPEMU_MEM_SIZE=3M
run plain3 plain "$P" oom 3145728 0
run pool3 pool "$P" oom 3145728 0
a=$(blocks plain3) b=$(blocks pool3)
[ "$b" -ge 1 ] && [ "$b" = "$a" ] ||
	fail "3M device: the pool held $b blocks of 3 MiB, the runtime $a"
