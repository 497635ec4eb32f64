# t_rows.sh - pass-through exactness on the real runtimes: every row of
# the table that returns hipError_t and the runtime defines, called with
# zero arguments (prog_rows.c), gives each answer the runtime gives
# alone, with the shim under every policy set.  There is no device here:
# every answer is an error path of the runtime, the policies' included
# (the pool refusing a null pointer, stream0 creating its stream).
#
# The answers themselves are the runtimes' (checked, so that a change of
# Debian's builds shows): 6.4 and 7.2 answer hipErrorNoDevice (100) to
# every call; 5.7 hipErrorInvalidDevice (101) to the first one, the one
# that starts it, then hipErrorNoDevice (shim/rtstart.c).
. tests/realrocm/lib.sh
rr_need $RR_SETS
for s in $RR_SETS; do
	so=$(rr_soname "$s")
	rr_cc "$s" "$TMP/rows$s" tests/realrocm/prog_rows.c \
		-Wno-deprecated-declarations
	rr_run "$s" "$TMP/rows$s" "$so" >"$TMP/$s.plain" 2>"$TMP/$s.plain.err" ||
		fail "$s: without the shim: exit $?: $(cat "$TMP/$s.plain.err")"
	tail -n 1 "$TMP/$s.plain" | grep -q '^called [1-9][0-9]*, absent' ||
		fail "$s: $(tail -n 1 "$TMP/$s.plain")"
	first=$(sed -n '1s/.* //p' "$TMP/$s.plain")
	rest=$(sed '1d;$d' "$TMP/$s.plain" | awk '{ print $2 }' | sort -u | tr '\n' ' ')
	case $s in
	5.7) expect_eq "$s: first answer" "$first" 101 ;;
	*) expect_eq "$s: first answer" "$first" 100 ;;
	esac
	expect_eq "$s: every other answer" "$rest" "100 "
	for p in none trace stream0 pool all; do
		( cd "$TMP" && LBSHIM_POLICIES=$p LBSHIM_TRACE=$s.%p.lbt \
			LBSHIM_LOG=error rr_shim "$s" "$TMP/rows$s" "$so" \
			>"$TMP/$s.$p" 2>"$TMP/$s.$p.err" ) ||
			fail "$s, $p: exit $?: $(cat "$TMP/$s.$p.err")"
		diff "$TMP/$s.plain" "$TMP/$s.$p" >"$TMP/d" ||
			fail "ROCm $s, LBSHIM_POLICIES=$p: answers differ" \
			"(< runtime alone, > with the shim): $(head -10 "$TMP/d")"
		[ -s "$TMP/$s.$p.err" ] &&
			fail "$s, $p: stderr: $(head -5 "$TMP/$s.$p.err")"
	done
	# The trace has a record of every call.
	n=$(sed '$d' "$TMP/$s.plain" | wc -l)
	"$B/lbtrace" print --json "$TMP/$s".*.lbt >"$TMP/$s.json" 2>/dev/null
	got=$(grep -c '"type":"call"' "$TMP/$s.json")
	[ "$got" -ge $((2 * n)) ] ||
		fail "$s: $got call records for 2 traced runs of $n calls"
	echo "ROCm $s ($(rr_version "$s")): $(tail -n 1 "$TMP/$s.plain"):" \
		"the same answers under none, trace, stream0, pool, all"
done
exit 0
