# LBSHIM_TRACE_RING: one ring per thread that keeps only the newest records.
. "$(dirname "$0")/lib.sh"

LBSHIM_POLICIES=trace LBSHIM_TRACE=ring.lbt LBSHIM_TRACE_RING=8K \
	traced "$PROG" loop 10000 2>err || fail "exit $?"
[ -s err ] && { cat err; fail "warnings"; }
# the header with its name table (header_size, the u32 at byte 12), the
# crash block, one ring
H=$(od -An -tu4 -j12 -N4 ring.lbt | tr -d ' ')
[ "$(stat -c %s ring.lbt)" = $((H + 2 * 8192)) ] ||
	fail "size $(stat -c %s ring.lbt), header $H"
"$DUMP" ring.lbt >dump
expect "^header .* flags=0x3 block_size=8192 ring_slots=127 " dump
expect "^ring thread=0 laps=[1-9][0-9]* " dump
# The newest 127 records, oldest first, ending with the last call.
sed -n 's/^call .* api=hipMemset .* a1=\(0x[0-9a-f]*\) .*/\1/p' dump >vals
[ "$(wc -l <vals)" = 127 ] || fail "$(wc -l <vals) records"
[ "$(tail -n 1 vals)" = 0x270f ] || fail "last $(tail -n 1 vals)"
awk '{ v = strtonum($1) } NR > 1 && v != prev + 1 { bad = 1 } { prev = v }
	END { exit bad }' vals 2>/dev/null ||
	python3 -c 'import sys; v=[int(l,16) for l in open("vals")]; sys.exit(any(b!=a+1 for a,b in zip(v,v[1:])))' ||
	fail "not consecutive"

# A crash in ring mode: the newest calls, then the crash and its frames.
LBSHIM_POLICIES=trace LBSHIM_TRACE=ringc.lbt LBSHIM_TRACE_RING=8K \
	traced "$PROG" crash segv 1000 >/dev/null 2>&1
"$DUMP" ringc.lbt >cdump
expect "^crash .* sig=11 " cdump
expect "^frame i=0 .* name=crash_here$" cdump
expect "a1=0x3e7 " cdump
[ "$(count '^call ' cdump)" -lt 127 ] || fail "crash did not take slots"
echo ok
