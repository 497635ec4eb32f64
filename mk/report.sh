#!/bin/sh
# report.sh DIR GROUP... - one summary line per test group, then the total.
dir=$1; shift
pass=0; fail=0; rc=0
echo "---- lbshim test summary ----"
for g in "$@"; do
	f="$dir/$g"
	if [ ! -s "$f" ]; then
		echo "$g: no result (the group did not finish)"; rc=1; continue
	fi
	line=$(tail -n 1 "$f")
	echo "$line"
	p=$(echo "$line" | sed -n 's/.* \([0-9]*\) passed.*/\1/p')
	x=$(echo "$line" | sed -n 's/.* \([0-9]*\) failed.*/\1/p')
	pass=$((pass + ${p:-0})); fail=$((fail + ${x:-0}))
	[ "${x:-1}" = 0 ] || rc=1
done
echo "$pass passed, $fail failed"
exit $rc
