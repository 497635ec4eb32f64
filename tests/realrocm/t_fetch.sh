# t_fetch.sh - the cache of real ROCm builds (fetch.sh): every set there,
# with its own loader and runtime, and the versions tested; a second
# fetch finds them without apt; a machine that cannot reach the archive
# skips with one line (77), or fails with LBSHIM_ROCM_REQUIRE=1; the
# host's apt and dpkg state is left alone; a fetch waits for another one
# holding the cache's lock, then finds its work done.
. tests/realrocm/lib.sh
rr_need $RR_SETS
for s in $RR_SETS; do
	[ -x "$(rr_ldso "$s")" ] || fail "$s: no loader in the set"
	[ -e "$(rr_root "$s")/usr/lib/x86_64-linux-gnu/$(rr_soname "$s")" ] ||
		fail "$s: no $(rr_soname "$s")"
	echo "ROCm $s: $(grep -E '^(libc6|libamdhip64-[0-9]|libmiopen1|librocfft0|libhipblas[0-9]|libhipsolver[0-9]|libhipsparselt0) ' \
		"$RC/$s/packages" | tr '\n' ';' | sed 's/;$//; s/;/, /g')"
done

# Present: no apt, no output, exit 0.
touch -d '2000-01-01' "$RC/fetch.log" 2>/dev/null
out=$(sh tests/realrocm/fetch.sh $RR_SETS 2>&1) || fail "second fetch: $out"
[ -z "$out" ] || fail "second fetch printed: $out"
[ "$(stat -c %Y "$RC/fetch.log")" = "$(date -d 2000-01-01 +%s)" ] ||
	fail "second fetch ran apt (fetch.log written)"

# The host's apt state, before and after a fetch into a cache of its own
# from an archive that cannot be reached (apt-get update runs).
host_state() {
	{
		md5sum /var/lib/dpkg/status 2>/dev/null
		ls -l --time-style=+%s /var/lib/apt/lists /var/cache/apt \
			/var/cache/apt/archives 2>/dev/null
	} >"$1"
}
host_state "$TMP/apt.before"
dead=http://127.0.0.1:9/debian
LBSHIM_ROCM_REQUIRE=0 LBSHIM_ROCM_CACHE=$TMP/c LBSHIM_ROCM_MIRROR=$dead \
	sh tests/realrocm/fetch.sh 5.7 >"$TMP/off.out" 2>"$TMP/off.err"
rc=$?
expect_eq "offline: exit status" "$rc" 77
expect_eq "offline: lines" "$(wc -l <"$TMP/off.err")" 1
grep -q "^realrocm: skipped: cannot reach Debian's archive ($dead)" \
	"$TMP/off.err" || fail "offline line: $(cat "$TMP/off.err")"
[ -s "$TMP/off.out" ] && fail "offline: stdout: $(cat "$TMP/off.out")"
LBSHIM_ROCM_REQUIRE=1 LBSHIM_ROCM_CACHE=$TMP/c LBSHIM_ROCM_MIRROR=$dead \
	sh tests/realrocm/fetch.sh 5.7 >/dev/null 2>"$TMP/req.err"
rc=$?
expect_eq "offline, LBSHIM_ROCM_REQUIRE=1: exit status" "$rc" 1
grep -q "LBSHIM_ROCM_REQUIRE=1" "$TMP/req.err" ||
	fail "offline, required: $(cat "$TMP/req.err")"
host_state "$TMP/apt.after"
diff "$TMP/apt.before" "$TMP/apt.after" >"$TMP/apt.diff" ||
	fail "the host's apt state changed: $(head -5 "$TMP/apt.diff")"
[ -s "$TMP/c/apt/sources.list" ] || fail "no sources list in the cache"

# The lock: a fetch that finds a set missing waits for the one holding
# the lock, then finds the set it put there.  Without the lock it would
# try the dead archive and exit 77.
c=$TMP/lk
mkdir -p "$c"
awk '$1 != "#" && $2 == "5.7"' tests/realrocm/sets.txt >"$TMP/def"
flock "$c/lock" sh -c "while [ ! -e '$TMP/go' ]; do sleep 0.1; done
	mkdir -p '$c/5.7' && cp '$TMP/def' '$c/5.7/def' &&
	echo 'libc6 0' >'$c/5.7/packages'" &
holder=$!
while [ ! -e "$c/lock" ]; do sleep 0.1; done
LBSHIM_ROCM_CACHE=$c LBSHIM_ROCM_MIRROR=$dead \
	sh tests/realrocm/fetch.sh 5.7 >"$TMP/lk.out" 2>&1 &
waiter=$!
# Until the waiter blocks in flock(1) (at most 60 s: not a timing test).
i=0
until pgrep -P "$waiter" -x flock >/dev/null; do
	i=$((i + 1))
	[ $i -lt 600 ] || { touch "$TMP/go"; fail "the fetch never waited"; }
	sleep 0.1
done
touch "$TMP/go"
wait "$holder"
wait "$waiter"
rc=$?
expect_eq "fetch after the lock: exit status ($(cat "$TMP/lk.out"))" "$rc" 0
exit 0
