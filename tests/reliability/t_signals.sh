# t_signals.sh - signals during wrapped calls: SIGALRM every 100 us, SIGCHLD,
# SIGINT and SIGTERM caught with and without SA_RESTART: every call
# completes as without the shim, every call is recorded.  A process ended
# by SIGTERM or SIGINT (default action): same exit status as without the
# shim, and its trace holds every call that had returned before the signal.
# asan: yes
. tests/reliability/lib.sh
cd "$TMP" || exit 1
P=$R/prog_signals
IT=1500
[ -n "$REL_ASAN" ] && IT=500
for restart in 1 0; do
	on_emu timeout 60 "$P" storm $restart $IT >plain.out 2>plain.err
	soft_eq "exit without the shim (SA_RESTART=$restart)" "$?" 0
	LBSHIM_POLICIES=all LBSHIM_TRACE=$TMP/s$restart.%p.lbt emu_shim timeout 60 \
		"$P" storm $restart $IT >shim.out 2>shim.err
	rc=$?
	[ $rc = 124 ] && rfail "SA_RESTART=$restart: hang"
	soft_eq "exit (SA_RESTART=$restart)" "$rc" 0
	soft_eq "results (SA_RESTART=$restart)" "$(cat shim.out)" "$(cat plain.out)"
	grep -q "errors 0" plain.out || rfail "errors without the shim: $(cat plain.out)"
	made=$(sed -n 's/^calls \([0-9]*\) .*/\1/p' shim.out)
	set -- s$restart.*.lbt
	# the children forked for SIGCHLD make no HIP call: no file of theirs
	soft_eq "trace files (SA_RESTART=$restart)" "$#" 1
	if [ -f "$1" ]; then
		soft_eq "records (SA_RESTART=$restart)" "$(lbt_calls "$1")" "$made"
	else
		rfail "no trace (SA_RESTART=$restart)"
	fi
	[ "$(shim_lines shim.err)" = 0 ] || rfail "the shim printed: $(head -n 3 shim.err)"
done

for sig in TERM INT; do
	on_emu timeout 60 "$P" die $sig 2 300 >plain.out 2>/dev/null
	want=$?
	LBSHIM_POLICIES=all LBSHIM_TRACE=$TMP/d$sig.%p.lbt emu_shim timeout 60 \
		"$P" die $sig 2 300 >shim.out 2>shim.err
	rc=$?
	soft_eq "exit status after SIG$sig" "$rc" "$want"
	done_calls=$(sed -n 's/^completed //p' shim.out)
	set -- d$sig.*.lbt
	if [ -f "$1" ] && "$R/lbt_count" "$1" >tr; then
		n=$(sed -n 's/^calls //p' tr)
		[ "$n" -ge "$done_calls" ] ||
			rfail "SIG$sig: the trace has $n calls, $done_calls had returned before the signal"
		echo "SIG$sig: $done_calls calls returned before the signal, $n recorded"
	else
		rfail "SIG$sig: no valid trace"
	fi
done
finish
