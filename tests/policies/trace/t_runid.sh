# LBSHIM_RUN_ID: a decimal number 0..UINT64_MAX goes into the header's
# run_id; anything else costs one warning (naming the variable, the value
# cut short, and what is accepted) and run_id 0.
. "$(dirname "$0")/lib.sh"

runid() { # VALUE: the header's run_id, the warnings in err
	rm -f r.lbt
	LBSHIM_RUN_ID=$1 LBSHIM_POLICIES=trace LBSHIM_TRACE=r.lbt \
		traced "$PROG" loop 3 2>err || fail "run id '$1': exit $?"
	"$DUMP" r.lbt | sed -n 's/^header .* run_id=\([0-9]*\) .*/\1/p'
}
good() { # VALUE WANT
	got=$(runid "$1")
	[ "$got" = "$2" ] || fail "run id '$1': run_id '$got', want $2"
	[ -s err ] && { cat err; fail "run id '$1': a warning"; }
}
bad() { # VALUE
	got=$(runid "$1")
	[ "$got" = 0 ] || fail "run id '$1' accepted as $got"
	[ "$(count . err)" = 1 ] || { cat err; fail "run id '$1': want one line"; }
	expect '^lbshim: LBSHIM_RUN_ID=.*accepted: a decimal number 0\.\.[0-9]{20}\).*run_id 0' err
	[ "$(wc -c <err)" -lt 400 ] || fail "run id: a warning of $(wc -c <err) bytes"
}

good 0 0
good 42 42
good 0042 42
good 18446744073709551615 18446744073709551615
bad ""
bad -1
bad +5
bad " 5"
bad "5 "
bad 12K
bad 0x10
bad 18446744073709551616
bad 99999999999999999999999
bad "$(head -c 65536 /dev/zero | tr '\0' 7)"
bad "$(printf '\303\251')"
expect 'LBSHIM_RUN_ID="\?\?"' err
echo ok
