#!/bin/sh
# IPC refusal, hipMemGetInfo, address ranges and attributes, managed and
# pitched memory, and the edge cases of the allocation calls.
. "$(dirname "$0")/lib.sh"
run ipc pool "$P" ipc
grep -q "leave the pool policy off" "$T/ipc.err" || fail "no IPC warning"
run meminfo pool "$P" meminfo
run range pool "$P" range
run managed pool "$P" managed
run pitch pool "$P" pitch
run ext pool "$P" extmalloc
run reset pool "$P" reset
run capture pool "$P" capture
