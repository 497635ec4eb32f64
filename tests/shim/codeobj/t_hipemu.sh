#!/bin/sh
# t_hipemu.sh - on hipemu, a hipcc program with no argument tables
# (async.hip) launches asynchronously with its arguments copied, sizes and
# offsets from the code object's metadata: <<<>>> launches of registered
# kernels, and a module read with hipModuleLoadData launched with
# kernelParams and with an "extra" buffer.  A kernel without a twin is
# named once on stderr however often it is launched.
B=${BUILD:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rc=0
LD_LIBRARY_PATH=$B/hipemu "$B/codeobj/async" >"$tmp/out" 2>"$tmp/err" || rc=1
cat "$tmp/out" "$tmp/err"
grep -q '^ok <<<>>>: asynchronous$' "$tmp/out" || rc=1
n=$(grep -c 'kernel _Z6orphaniPi: no twin' "$tmp/err")
[ "$n" = 1 ] || { echo "FAIL: the missing twin named $n times, want 1"; rc=1; }
LD_LIBRARY_PATH=$B/hipemu "$B/codeobj/async" module "$B/codeobj/async.co" \
	>"$tmp/out" 2>&1 || rc=1
cat "$tmp/out"
grep -q '^ok module extra: asynchronous$' "$tmp/out" || rc=1
exit $rc
