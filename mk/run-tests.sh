#!/bin/sh
# run-tests.sh GROUP RESULTDIR TEST... - run each test script (exit 0 pass,
# 77 skip, else fail), print one line per test, and write
# "GROUP: P passed, F failed, S skipped" to RESULTDIR/GROUP.
# With QUALIFY=1 a test is named by its directory too (trace/t_calls.sh),
# for a group that runs tests of several directories.  Each test's wall
# seconds and CPU seconds (user + system, of every process it ran) go to
# RESULTDIR/GROUP.d/seconds ("SECONDS NAME CPU" per line): make check is
# bound by CPU on 2 CPUs, so CPU is what a test costs the whole run.
# A group of skipped tests only fails, unless SKIP_OK=1.
group=$1; dir=$2; shift 2
mkdir -p "$dir/$group.d"
pass=0; fail=0; skip=0
# CPU seconds of the children so far: the second line of `times`, run in
# this shell (in a $(...) subshell it would count the subshell's children)
cpu() {
	times >"$dir/$group.d/times"
	tail -n 1 "$dir/$group.d/times" | awk '{ s = 0
		for (i = 1; i <= NF; i++) { split($i, a, "m"); s += a[1] * 60 + a[2] }
		printf "%.1f\n", s }'
}
for t in "$@"; do
	name=$(basename "$t")
	[ "${QUALIFY:-0}" = 1 ] && name=$(basename "$(dirname "$t")")/$name
	log="$dir/$group.d/$(echo "$name" | tr / -).log"
	t0=$(date +%s)
	cpu >"$dir/$group.d/c0"
	sh "$t" >"$log" 2>&1
	rc=$?
	secs=$(($(date +%s) - t0))
	cpu >"$dir/$group.d/c1"
	echo "$secs $name $(cat "$dir/$group.d/c0" "$dir/$group.d/c1" |
		awk 'NR == 1 { a = $1 } NR == 2 { printf "%.1f", $1 - a }')" \
		>>"$dir/$group.d/seconds"
	case $rc in
	0) pass=$((pass + 1)); echo "PASS $group/$name (${secs}s)" ;;
	77) skip=$((skip + 1)); echo "SKIP $group/$name: $(tail -n 1 "$log")" ;;
	*) fail=$((fail + 1)); echo "FAIL $group/$name (exit $rc), log:"
	   sed 's/^/    /' "$log" | tail -n 40 ;;
	esac
done
# Nothing run is a failure, unless the group allows skipping whole
# (SKIP_OK=1: realrocm, where an offline machine skips every test).
if [ $((pass + fail)) = 0 ] && ! { [ "${SKIP_OK:-0}" = 1 ] && [ $skip -gt 0 ]; }; then
	fail=1
fi
echo "$group: $pass passed, $fail failed, $skip skipped" >"$dir/$group"
[ $fail = 0 ]
