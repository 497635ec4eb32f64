# lib.sh - helpers for the real-client tests (sourced): tests/shim/lib.sh,
# the client programs, the policy sets to run.
. tests/shim/lib.sh
C=$B/tests/clients
CLIENTS="rocrand hiprand rocsparse hipsparse"
POLICY_SETS="none trace stream0 pool all"
unset HIPEMU_STATS HIPEMU_KERNELS 2>/dev/null || true

# run OUT CLIENT [VAR=VALUE...]: runs a client in $TMP with the given
# environment, without the shim; OUT.out, OUT.err, OUT.rc.
run() {
	out=$1 client=$2
	shift 2
	( cd "$TMP" && env "$@" "$C/client_$client" >"$out.out" 2>"$out.err"
	  echo $? >"$out.rc" )
}
# run_shim OUT CLIENT POLICIES [VAR=VALUE...]: the same under the shim.
run_shim() {
	out=$1 client=$2 pol=$3
	shift 3
	( cd "$TMP" && env LD_PRELOAD="${PRELOAD_PREFIX:+$PRELOAD_PREFIX }$SHIM" \
		LBSHIM_POLICIES="$pol" LBSHIM_TRACE="$out.%p.lbt" "$@" \
		"$C/client_$client" >"$out.out" 2>"$out.err"
	  echo $? >"$out.rc" )
}
# same WHAT A B: exit status, stdout and stderr of runs A and B are equal.
same() {
	expect_eq "$1: exit status" "$(cat "$3.rc")" "$(cat "$2.rc")"
	diff "$2.out" "$3.out" >"$TMP/diff" || fail "$1: output differs: $(cat "$TMP/diff")"
	diff "$2.err" "$3.err" >"$TMP/diff" || fail "$1: stderr differs: $(cat "$TMP/diff")"
}
