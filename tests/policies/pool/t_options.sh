#!/bin/sh
# Bad option values: one warning naming the variable, defaults kept; the
# statistics at exit under LBSHIM_LOG=info.
. "$(dirname "$0")/lib.sh"
LBSHIM_POOL_CHUNK=1x LBSHIM_POOL_MAX_BLOCK=big LBSHIM_POOL_LIMIT=150% \
	LBSHIM_POOL_FREE=maybe LBSHIM_POOL_BYPASS=lots LBSHIM_LOG=info \
	run opts pool "$P" hot 400
for v in LBSHIM_POOL_CHUNK LBSHIM_POOL_MAX_BLOCK LBSHIM_POOL_LIMIT \
	LBSHIM_POOL_FREE LBSHIM_POOL_BYPASS; do
	n=$(grep -c "$v" "$T/opts.err")
	[ "$n" = 1 ] || { cat "$T/opts.err"; fail "$v: $n warnings"; }
done
grep -q "pool: .* chunks (peak" "$T/opts.err" || fail "no statistics"
grep -q "pool: .* hits, .* misses" "$T/opts.err" || fail "no hit counts"
LBSHIM_POOL_CHUNK=64M LBSHIM_POOL_MAX_BLOCK=1G LBSHIM_POOL_LIMIT=4G \
	LBSHIM_POOL_BYPASS=2M run good pool "$P" hot 400
[ ! -s "$T/good.err" ] || { cat "$T/good.err"; fail "warnings for good values"; }
