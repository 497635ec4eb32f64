# t_load.sh - load with every policy on: threads making mixed calls (8
# threads for 2 s in make check, 32 for 10 s in make stress): no deadlock
# (timeout), no error, no lost record (the calls the program made = the
# call records in the trace), memory bounded (VmRSS at the end against a
# quarter of the way).
# asan: yes
. tests/reliability/lib.sh
cd "$TMP" || exit 1
if [ "$REL_MODE" = stress ]; then NT=32 SECS=10; else NT=8 SECS=2; fi
LBSHIM_POLICIES=all LBSHIM_TRACE=$TMP/t.%p.lbt emu_shim timeout 120 \
	"$R/prog_load" $NT $SECS >out 2>err
rc=$?
cat out
[ $rc = 124 ] && fail "deadlock: still running after 120 s"
[ $rc = 0 ] || fail "exit $rc: $(tail -n 5 err)"
soft_eq "errors" "$(sed -n 's/^errors //p' out)" 0
made=$(sed -n 's/^calls //p' out)
[ "$made" -gt 0 ] || fail "no calls made"
set -- t.*.lbt
[ -f "$1" ] || fail "no trace: $(cat err)"
"$R/lbt_count" "$1" >tr || fail "trace not valid"
soft_eq "call records (program made $made)" "$(sed -n 's/^calls //p' tr)" "$made"
soft_eq "lost records" "$(sed -n 's/^lost //p' tr)" 0
soft_eq "threads in the trace" "$(sed -n 's/^threads //p' tr)" $((NT + 1))
set -- $(sed -n 's/^rss_kb //p' out)
# The device memory hipemu keeps and the pool's chunks are reached early;
# what may grow with time is bounded by a constant, not by the call count.
[ "$3" -le $(($1 * 2 + 65536)) ] || rfail "VmRSS grew from $1 KiB (a quarter of the way) to $3 KiB"
[ "$(shim_lines err)" = 0 ] || rfail "the shim printed: $(head -n 3 err)"
finish
