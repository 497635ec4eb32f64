# A case that hangs, ended the way an evaluation harness ends it (issue
# 38): SIGTERM, or SIGKILL.  The sync it hangs in (behind a stream
# callback that sleeps, on hipemu) is in the trace as a call in flight,
# and `lbtrace crash` names it, its thread, how long it had been waiting
# and how the process ended.  The exit status is the one without the
# shim, and a program with a SIGTERM handler of its own keeps it.
. "$(dirname "$0")/lib.sh"

EMU=${EMU_DIR:-$BUILD/hipemu}
HANG=$BUILD/trace/thang
LBTRACE=${LBTRACE:-$BUILD/lbtrace}
[ -f "$EMU/libamdhip64.so.5" ] && [ -x "$HANG" ] ||
	{ echo "hipemu not built"; exit 77; }

# wait_mark NAME PID: until thang's marker says its main thread is asleep
# inside the sync (30 s at most).
wait_mark() {
	i=0
	while [ ! -s "$1.mark" ] && [ $i -lt 600 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	[ -s "$1.mark" ] || { kill -KILL "$2"; fail "$1: never inside the sync"; }
}

# hang NAME SIG ARGS...: thang ARGS on hipemu (under the shim, tracing to
# NAME.lbt, when TRACED is set; LBSHIM_TRACE_RING=$RING and
# THANG_CALLS=$CALLS when set), killed by SIG once inside the sync (for
# SIGKILL, once the trace's heartbeat has passed the sync's entry, so the
# wait it shows is above 0: 20 s at most, while thang sleeps 60 s); sets
# rc (the exit status) and tid (its main thread).
hang() {
	hn=$1 hs=$2
	shift 2
	rm -f "$hn.mark" "$hn.lbt"
	if [ -n "$TRACED" ]; then
		env THANG_MARK="$hn.mark" LD_LIBRARY_PATH="$EMU" \
			LD_PRELOAD="$SHIM" LBSHIM_POLICIES=trace \
			LBSHIM_TRACE="$hn.lbt" ${RING:+LBSHIM_TRACE_RING=$RING} \
			${CALLS:+THANG_CALLS=$CALLS} \
			"$HANG" "$@" >"$hn.out" 2>"$hn.err" &
	else
		env THANG_MARK="$hn.mark" LD_LIBRARY_PATH="$EMU" \
			${CALLS:+THANG_CALLS=$CALLS} \
			"$HANG" "$@" >"$hn.out" 2>"$hn.err" &
	fi
	pid=$!
	wait_mark "$hn" "$pid"
	tid=$(cat "$hn.mark")
	if [ "$hs" = KILL ] && [ -n "$TRACED" ]; then
		i=0
		until beat_past "$hn.lbt" || [ $i -ge 400 ]; do
			sleep 0.05
			i=$((i + 1))
		done
	fi
	kill -"$hs" "$pid"
	wait "$pid" 2>/dev/null
	rc=$?
}

# beat_past FILE: the header's heartbeat is later than the entry of the
# sync in flight (its t0); lbt_dump reads the file as it is being written.
beat_past() {
	"$DUMP" "$1" >beat.dump 2>/dev/null || return 1
	alive=$(sed -n 's/^header .* alive=\([0-9]*\) .*/\1/p' beat.dump)
	t0=$(sed -n 's/^call .* api=hip[A-Za-z]*Synchronize ret=-1 .* t0=\([0-9]*\)$/\1/p' \
		beat.dump | tail -n 1)
	[ -n "$alive" ] && [ -n "$t0" ] &&
		awk -v a="$alive" -v t="$t0" 'BEGIN { exit !(a > t) }'
}

# waited FILE API: the seconds lbtrace crash says API had been waiting
waited() {
	sed -n "s/^  $2(.*: entered at [0-9.]* s, waiting \([0-9.]*\) s until .*/\1/p" "$1"
}

traced_hang() { # NAME SIG ARGS...: hang, under the shim
	TRACED=1
	hang "$@"
	TRACED=
}

# name signal sync-api args
for c in "term-stream TERM hipStreamSynchronize stream" \
	 "kill-stream KILL hipStreamSynchronize stream" \
	 "kill-device KILL hipDeviceSynchronize device"; do
	set -- $c
	name=$1 sig=$2 api=$3 mode=$4
	hang "$name.plain" "$sig" "$mode"
	want=$rc
	traced_hang "$name" "$sig" "$mode"
	[ "$rc" = "$want" ] || fail "$name: exit $rc, $want without the shim"
	[ "$sig" = TERM ] && [ "$rc" != 143 ] && fail "$name: exit $rc, not 143"
	[ "$sig" = KILL ] && [ "$rc" != 137 ] && fail "$name: exit $rc, not 137"
	"$LBTRACE" crash "$name.lbt" >"$name.crash" 2>&1 ||
		fail "$name: lbtrace crash: $(cat "$name.crash")"
	expect "^in flight:$" "$name.crash"
	expect "^  $api\(.*\) on thread $tid .*: entered at [0-9.]+ s, waiting [0-9.]+ s until " "$name.crash"
	w=$(waited "$name.crash" "$api")
	awk -v w="$w" 'BEGIN { exit !(w > 0) }' ||
		fail "$name: waited '$w' s: $(cat "$name.crash")"
	# the sync is its thread's last call, shown in flight
	grep -A1 'hipStreamAddCallback(' "$name.crash" | tail -n 1 |
		grep -q "$api(.*) in flight" ||
		fail "$name: the sync is not the last call: $(cat "$name.crash")"
	if [ "$sig" = TERM ]; then
		expect '^\*\*\* SIGTERM \(SI_USER\) sent by pid [0-9]+' "$name.crash"
		expect "^thread: $tid " "$name.crash"
		expect "waiting [0-9.]+ s until the SIGTERM$" "$name.crash"
	else
		expect '^no crash recorded and no clean exit: killed' "$name.crash"
		expect "waiting [0-9.]+ s until the writer's last heartbeat$" \
			"$name.crash"
	fi
	echo "$name: exit $rc, $api in flight, waited $w s"
done
# the stream the sync was given, as hipStreamCreate returned it
"$DUMP" kill-stream.lbt >ks.dump
s=$(sed -n 's/^call .* api=hipStreamCreate ret=0 .* a0=\(0x[0-9a-f]*\) .*/\1/p' ks.dump)
expect "^  hipStreamSynchronize\(stream=$s\) on thread" kill-stream.crash

# A ring that went round: the entry is the newest record of the ring, read
# last, and its wait comes from the heartbeat (the helper runs for rings
# too).
RING=4K CALLS=200
traced_hang ring KILL device
RING= CALLS=
[ "$rc" = 137 ] || fail "ring: exit $rc"
"$LBTRACE" crash --calls 3 ring.lbt >ring.crash 2>&1 || fail "ring: lbtrace crash"
expect "^last 3 calls of thread $tid " ring.crash
tail -n 1 ring.crash | grep -q 'hipDeviceSynchronize() in flight' ||
	fail "ring: the sync is not the newest record: $(cat ring.crash)"
w=$(waited ring.crash hipDeviceSynchronize)
awk -v w="$w" 'BEGIN { exit !(w > 0) }' || fail "ring: waited '$w' s"

# A SIGTERM handler of the program's, installed before its first HIP call
# or after it: it runs as without the shim (its output, its exit status),
# and the trace still shows the sync in flight, the process having ended
# with neither a crash record nor a clean exit.
for own in own-before own-after; do
	hang "$own.plain" TERM stream "$own"
	want=$rc
	[ "$want" = 7 ] || fail "$own: exit $want without the shim"
	traced_hang "$own" TERM stream "$own"
	[ "$rc" = 7 ] || fail "$own: exit $rc, 7 without the shim"
	cmp -s "$own.out" "$own.plain.out" || fail "$own: output $(cat "$own.out")"
	"$LBTRACE" crash "$own.lbt" >"$own.crash" 2>&1 || fail "$own: lbtrace crash"
	expect '^no crash recorded and no clean exit' "$own.crash"
	expect "^  hipStreamSynchronize\(.*\) on thread $tid " "$own.crash"
	echo "$own: exit $rc, the program's handler ran"
done
echo ok
