# t_fast.sh - stream0's standing answers (shim/fast.h): a thread's
# submissions that the core answers without the policy's hook still get
# what the policy would give after what the answer rests on changed: a
# device switch, another thread's capture, device reset or stream
# destroy, a fork, thread exit; and what is no submission (a kernel's
# name looked up by the null stream).  Each scenario of s0_fast, with the launch-level check
# on (the default: launches take the hook, user streams the answer) and
# off (launches take the null answer too).
. tests/policies/stream0/lib.sh
export HIPEMU_DEVICES=2
for c in on off; do
	for sc in device handles capture reset destroy fork exit epoch nameref; do
		LBSHIM_STREAM0_CHECK=$c HIPEMU_STATS=$T/st.json \
			timeout 120 sh -c 'LD_PRELOAD=$0 LBSHIM_POLICIES=stream0 "$1" "$2"' \
			"$SHIM" "$D/s0_fast" "$sc" >"$T/o" 2>"$T/e" ||
			{ cat "$T/o" "$T/e"; fail "$sc, check $c"; }
		n() { sed -n "s/.*\"$1\": \([0-9]*\).*/\1/p" "$T/st.json"; }
		case $sc in
		reset)	# the S the reset destroyed, then a new one
			[ "$(n hipStreamCreateWithFlags)" = 2 ] ||
				fail "reset, check $c: $(n hipStreamCreateWithFlags) streams made, want 2" ;;
		destroy) # flags read at the first submission and after the destroy
			want=2; [ $c = off ] && want=
			[ "$(n hipStreamGetFlags)" = "$want" ] ||
				fail "destroy, check $c: flags read $(n hipStreamGetFlags) times, want ${want:-0}" ;;
		nameref) # a name lookup is not work on the null stream
			grep 'hazards' "$T/e" && fail "nameref, check $c: counted" ;;
		esac
	done
done
exit 0
