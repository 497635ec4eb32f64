# t_policies.sh - stream0 and pool on CUDA (prog_cupol.c, runtime and
# driver API on hipemu's face):
#   - the last error under CUDA's rule: the results and every
#     cudaPeekAtLastError after them the same with the shim as without,
#     under trace, stream0, pool and all three, with the shim's own calls
#     going to cudart (no context on the thread) and to the driver (drv):
#     a failure the pool gives is the program's last error, a success
#     leaves it, cudaErrorNotReady is kept, a driver call leaves it;
#   - the hazard check, as s0_hz.c's copy scenario on HIP: a block read
#     by one thread's pending null-stream copy and written by another's
#     set is one hazard, named in the exit line; an event, an event sync,
#     a stream sync or a device sync between them: none, and the read
#     sees the value before the write;
#   - the entry-point lookups: a driver-API program's functions got
#     through cuGetProcAddress_v2 are the policies' too (its set on
#     stream 0 remapped, its allocation served by the pool).
. tests/cuda/lib.sh
P=$T/prog_cupol
cd "$TMP"
for m in lasterr "lasterr drv"; do
	# shellcheck disable=SC2086
	on_face "$P" $m >"$TMP/plain" 2>&1 || fail "$m without the shim"
	grep -qx 'query 600 600' "$TMP/plain" ||
		fail "$m: the face keeps no cudaErrorNotReady: $(cat "$TMP/plain")"
	for p in trace stream0 pool all; do
		# shellcheck disable=SC2086
		LBSHIM_POLICIES=$p LD_PRELOAD=$SHIM on_face "$P" $m \
			>"$TMP/$p" 2>"$TMP/$p.err" || fail "$m under $p: exit $?"
		diff "$TMP/plain" "$TMP/$p" >"$TMP/diff" ||
			fail "$m under $p: $(cat "$TMP/diff")"
	done
	echo "$m: results and last errors alike under every policy"
done

# The cross-thread dependency (issue 34): ordered, not counted as a
# hazard; with the order kept the reader reads what the writer wrote.
ordered() {
	n=$(sed -n 's/.*stream0: \([0-9]*\) dependencies on other threads.*/\1/p' "$TMP/e")
	echo "${n:-0}"
}
on_face "$P" hazard none >"$TMP/o" 2>&1 || fail "hazard without the shim"
grep -qx 'read 7' "$TMP/o" || fail "hazard without the shim: $(cat "$TMP/o")"
for o in none event evsync sync devsync; do
	LBSHIM_POLICIES=stream0 LD_PRELOAD=$SHIM on_face "$P" hazard $o \
		>"$TMP/o" 2>"$TMP/e" || fail "hazard $o under stream0: $(cat "$TMP/e")"
	case $o in none) want=1 ;; *) want=0 ;; esac
	[ "$(ordered)" = $want ] ||
		fail "hazard $o: $(ordered) dependencies ordered, want $want: $(cat "$TMP/e")"
	! grep -q 'hazards:' "$TMP/e" || fail "hazard $o: a hazard line: $(cat "$TMP/e")"
	grep -qx 'read 7' "$TMP/o" || fail "hazard $o: $(cat "$TMP/o")"
done
echo "hazard: none ordered 1, event evsync sync devsync 0; every read right"

for p in stream0 pool; do
	LBSHIM_POLICIES=$p,trace LBSHIM_TRACE=$TMP/l.$p.lbt LD_PRELOAD=$SHIM \
		on_face "$P" lookup >"$TMP/o" 2>&1 || fail "lookup under $p: $(cat "$TMP/o")"
	"$LBTRACE" print --json "$TMP/l.$p.lbt" >"$TMP/l.$p" || fail "lbtrace print"
done
grep '"api":"cuMemsetD8Async"' "$TMP/l.stream0" |
	grep -q '"stream":"0x0","stream_used":"0x[1-9a-f]' ||
	fail "lookup: cuMemsetD8Async not remapped: $(grep cuMemsetD8Async "$TMP/l.stream0")"
grep '"api":"cuStreamSynchronize"' "$TMP/l.stream0" |
	grep -q '"stream":"0x0","stream_used":"0x[1-9a-f]' ||
	fail "lookup: cuStreamSynchronize(0) not remapped"
grep '"api":"cuMemAlloc_v2"' "$TMP/l.pool" | grep -q '"pool":"miss"' &&
	grep '"api":"cuMemFree_v2"' "$TMP/l.pool" | grep -q '"pool":"hit"' ||
	fail "lookup: cuMemAlloc_v2/cuMemFree_v2 not the pool's: $(grep cuMem "$TMP/l.pool")"
echo "lookup: the looked-up functions remapped (stream0) and served (pool)"
