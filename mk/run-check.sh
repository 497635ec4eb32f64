#!/bin/sh
# run-check.sh GROUP RESULTDIR CMD... - run a Check runner (or any command
# printing Check's "N%: Checks: X, Failures: Y, Errors: Z" lines), show its
# output, and write "GROUP: P passed, F failed" to RESULTDIR/GROUP.
group=$1; dir=$2; shift 2
mkdir -p "$dir"
log="$dir/$group.log"
"$@" >"$log" 2>&1
rc=$?
cat "$log"
checks=0; bad=0
for l in $(sed -n 's/.*Checks: \([0-9]*\), Failures: \([0-9]*\), Errors: \([0-9]*\).*/\1:\2:\3/p' "$log"); do
	c=${l%%:*}; r=${l#*:}; f=${r%%:*}; e=${r#*:}
	checks=$((checks + c)); bad=$((bad + f + e))
done
if [ $rc != 0 ] && [ $bad = 0 ]; then
	bad=1	# crashed or failed before Check could count
fi
[ $checks = 0 ] && [ $bad = 0 ] && bad=1	# ran nothing: not a pass
echo "$group: $((checks - bad < 0 ? 0 : checks - bad)) passed, $bad failed" >"$dir/$group"
[ $bad = 0 ]
