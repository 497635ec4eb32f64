# t_config.sh - bad configuration: one warning naming the variable, the
# value and what is accepted; defaults kept; the program unaffected.
. tests/shim/lib.sh
run() { LD_LIBRARY_PATH=$FAKE with_shim "$T/prog_threads" >"$TMP/out" 2>"$TMP/err"; }
LBSHIM_LOG=loud run
expect_eq "exit" "$?" 0
expect_eq "warnings" "$(grep -c 'LBSHIM_LOG="loud": not one of error, warn, info, debug' "$TMP/err")" 1
LBSHIM_POLICIES="trace,bogus, ,pool" run
expect_eq "exit" "$?" 0
expect_eq "warnings" "$(grep -c 'unknown policy "bogus" (accepted: trace, stream0, pool, all, none)' "$TMP/err")" 1
# Non-ASCII and huge values are shown safely (truncated, non-printables as ?).
LBSHIM_LOG="$(printf 'x\303\251%0300d' 0)" run
expect_eq "exit" "$?" 0
grep -q 'LBSHIM_LOG="x??0000' "$TMP/err" || fail "value not shown safely: $(cat "$TMP/err")"
[ "$(wc -c <"$TMP/err")" -lt 400 ] || fail "warning not bounded"
# Empty is a value too.
LBSHIM_LOG= run
expect_eq "warnings" "$(grep -c 'LBSHIM_LOG="": not one of' "$TMP/err")" 1
# setuid-like: secure_getenv ignores the environment; tested in check_config.
exit 0
