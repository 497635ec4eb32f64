#!/bin/sh
# The memory API's edges, call by call: pool_edges prints one answer per
# check; under the pool every line must be the runtime's own, except the
# one lbshim(7) lists (hipIpcGetMemHandle of a pool block), which
# LBSHIM_POOL_BYPASS removes.
. "$(dirname "$0")/lib.sh"
E=$D/pool_edges
plain "$E" >"$T/plain" 2>"$T/plain.err" ||
	{ cat "$T/plain.err"; fail "plain run"; }
pool "$E" >"$T/pool" 2>"$T/pool.err" || { cat "$T/pool.err"; fail "pool run"; }
n=$(wc -l <"$T/plain")
[ "$n" -ge 60 ] || fail "only $n checks ran"
grep -v '^ipc_base ' "$T/plain" >"$T/plain.cmp"
grep -v '^ipc_base ' "$T/pool" >"$T/pool.cmp"
diff "$T/plain.cmp" "$T/pool.cmp" >"$T/diff" ||
	{ cat "$T/diff"; fail "answers differ (< runtime, > pool)"; }
grep -q '^ipc_base  *ret=hipErrorInvalidValue' "$T/pool" ||
	fail "IPC handle of a pool block was not refused"
LBSHIM_POOL_BYPASS=64K pool "$E" >"$T/bypass" 2>"$T/bypass.err" ||
	{ cat "$T/bypass.err"; fail "bypass run"; }
diff "$T/plain" "$T/bypass" ||
	fail "LBSHIM_POOL_BYPASS=64K: answers differ (< runtime, > pool)"
echo "$n checks, the same answers"
