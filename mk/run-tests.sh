#!/bin/sh
# run-tests.sh GROUP RESULTDIR TEST... - run each test script (exit 0 pass,
# 77 skip, else fail), print one line per test, and write
# "GROUP: P passed, F failed, S skipped" to RESULTDIR/GROUP.
# With QUALIFY=1 a test is named by its directory too (trace/t_calls.sh),
# for a group that runs tests of several directories.  Each test's wall
# seconds go to RESULTDIR/GROUP.d/seconds ("SECONDS NAME" per line).
group=$1; dir=$2; shift 2
mkdir -p "$dir/$group.d"
pass=0; fail=0; skip=0
for t in "$@"; do
	name=$(basename "$t")
	[ "${QUALIFY:-0}" = 1 ] && name=$(basename "$(dirname "$t")")/$name
	log="$dir/$group.d/$(echo "$name" | tr / -).log"
	t0=$(date +%s)
	sh "$t" >"$log" 2>&1
	rc=$?
	secs=$(($(date +%s) - t0))
	echo "$secs $name" >>"$dir/$group.d/seconds"
	case $rc in
	0) pass=$((pass + 1)); echo "PASS $group/$name (${secs}s)" ;;
	77) skip=$((skip + 1)); echo "SKIP $group/$name: $(tail -n 1 "$log")" ;;
	*) fail=$((fail + 1)); echo "FAIL $group/$name (exit $rc), log:"
	   sed 's/^/    /' "$log" | tail -n 40 ;;
	esac
done
[ $((pass + fail)) = 0 ] && fail=1
echo "$group: $pass passed, $fail failed, $skip skipped" >"$dir/$group"
[ $fail = 0 ]
