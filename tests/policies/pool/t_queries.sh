#!/bin/sh
# IPC refusal, hipMemGetInfo, address ranges and attributes, managed and
# pitched memory, and the edge cases of the allocation calls.
. "$(dirname "$0")/lib.sh"
run ipc pool "$P" ipc
grep -q "LBSHIM_POOL_BYPASS=" "$T/ipc.err" &&
	grep -q "torch.multiprocessing" "$T/ipc.err" ||
	fail "no IPC warning naming the setting"
run meminfo pool "$P" meminfo
# small blocks: counted by the thread caches, folded in at a thread's exit
run meminfo_threads pool "$P" meminfo_threads
run range pool "$P" range
run managed pool "$P" managed
run pitch pool "$P" pitch
run ext pool "$P" extmalloc
run reset pool "$P" reset
run capture pool "$P" capture
