# t_lasterr.sh - hipRuntimeGetVersion and the last error on the real
# runtimes, without a device:
#   - the version each runtime reports is its package's major.minor;
#   - the rule the shim picks (LBSHIM_LOG=debug, with stream0 or pool:
#     only they need one): overwritten by every call on 5.x and 6.x, kept
#     until read on 7.x (shim/lasterr.c), learnt from the soname without
#     a call of the runtime (shim/rtstart.c);
#   - what a program observes (prog_nodev.c: failed calls, calls that
#     succeed without a device, the last-error functions; and
#     tests/shim/prog_lasterr.c, the shim group's sequence) is the same
#     with the shim under every policy set as without it.
. tests/realrocm/lib.sh
rr_need $RR_SETS
cd "$TMP" || exit 1
for s in $RR_SETS; do
	so=$(rr_soname "$s")
	rr_cc "$s" "$TMP/nodev$s" "$RR_TOP/tests/realrocm/prog_nodev.c"
	rr_cc "$s" "$TMP/lasterr$s" "$RR_TOP/tests/shim/prog_lasterr.c"
	rr_run "$s" "$TMP/nodev$s" "$so" >"nodev$s.plain" 2>&1 ||
		fail "$s: prog_nodev: $(cat "nodev$s.plain")"
	rr_run "$s" "$TMP/lasterr$s" >"lasterr$s.plain" 2>&1 ||
		fail "$s: prog_lasterr: $(cat "lasterr$s.plain")"
	v=$(sed -n 's/^version //p' "nodev$s.plain")
	pkg=$(rr_version "$s")
	want=$(echo "$pkg" | awk -F. '{ print $1 * 10000000 + $2 * 100000 }')
	[ -n "$v" ] && [ "$v" -ge "$want" ] && [ "$v" -lt $((want + 100000)) ] ||
		fail "$s: hipRuntimeGetVersion $v for package $pkg"
	for p in none trace stream0 pool all; do
		for prog in nodev lasterr; do
			arg=
			[ $prog = nodev ] && arg=$so
			LBSHIM_POLICIES=$p LBSHIM_TRACE=t.%p.lbt LBSHIM_LOG=debug \
				rr_shim "$s" "$TMP/$prog$s" $arg \
				>"$prog$s.$p" 2>"$prog$s.$p.err" ||
				fail "$s, $p: $prog: exit $?: $(tail -3 "$prog$s.$p.err")"
			diff "$prog$s.plain" "$prog$s.$p" >d ||
				fail "ROCm $s, LBSHIM_POLICIES=$p, $prog: last errors" \
				"differ (< runtime alone, > with the shim): $(head -10 d)"
		done
		case $s:$p in
		*:none | *:trace) rule= ;;
		7.*) rule="runtime $so: last error kept until read (7.x)" ;;
		*) rule="runtime $so: last error overwritten by every call" ;;
		esac
		[ -z "$rule" ] && continue
		grep -qxF "lbshim: $rule" "nodev$s.$p.err" ||
			fail "$s, $p: the rule: $(grep 'last error' "nodev$s.$p.err")"
	done
	echo "ROCm $s ($pkg): hipRuntimeGetVersion $v;" \
		"$(grep -c . "nodev$s.plain") + $(grep -c . "lasterr$s.plain")" \
		"lines the same under none, trace, stream0, pool, all"
done
exit 0
