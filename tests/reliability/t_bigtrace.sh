# t_bigtrace.sh - lbtrace summary on big traces, written by gen_big in the
# trace format directly: it finishes, counts every record, and its peak
# memory does not grow with the number of records.  make check: 0.5 and 2
# million records (RSS at 2M must stay far below 4 times RSS at 0.5M);
# make stress: 100 million (6.4 GB; skipped below 20 GB of free disk).
. tests/reliability/lib.sh
[ -x "$LBT" ] || { echo "skip: no $LBT (make build/lbtrace)"; exit 77; }
cd "$TMP" || exit 1

# summ N: generates N records, runs lbtrace summary; sets rss (KiB).
summ() {
	"$R/gen_big" big.lbt "$1" || fail "gen_big $1 failed"
	timeout 1800 "$R/rss_run" "$LBT" summary big.lbt >sum.out 2>sum.err
	rc=$?
	[ $rc = 0 ] || fail "lbtrace summary on $1 records: exit $rc: $(tail -n 3 sum.err)"
	rss=$(sed -n 's/^maxrss_kb //p' sum.err)
	# every record counted once: the calls column of the api table
	got=$(awk '$NF ~ /^hip/ && $1 ~ /^[0-9]+$/ { s += $1 } END { print s + 0 }' sum.out)
	soft_eq "records counted by summary ($1)" "$got" "$1"
	echo "$1 records: lbtrace summary peak RSS $rss KiB"
	rm -f big.lbt
}

if [ "$REL_MODE" = stress ]; then
	free_kb=$(df -Pk . | awk 'NR == 2 { print $4 }')
	if [ "$free_kb" -lt $((20 * 1024 * 1024)) ]; then
		echo "skip: $((free_kb / 1024 / 1024)) GB free here, 20 GB needed for 100M records"
		exit 77
	fi
	summ 2000000
	small=$rss
	summ 100000000
	[ "$rss" -le $((small * 2 + 65536)) ] ||
		rfail "peak RSS $rss KiB for 100M records, $small KiB for 2M: grows with the trace"
else
	summ 500000
	small=$rss
	summ 2000000
	# proportional growth would be 4x; allow noise, not growth
	[ "$rss" -le $((small * 3 / 2 + 8192)) ] ||
		rfail "peak RSS $rss KiB for 2M records, $small KiB for 0.5M: grows with the trace"
fi
finish
