#!/bin/sh
# The stream0 modes' concurrent paths under ThreadSanitizer: the shim built
# with TSan (build/tsan/liblbshim.so) on hipemu's TSan build when there is
# one; threads taking the null stream over from each other (syncs mode's
# in-flight handshake), blocks crossing threads, an exiting thread's drain,
# remap's hazard check (s0_hz), the standing answers withdrawn by other
# threads (s0_fast: capture, reset, destroy).
# No report may appear.
B=${S0_BUILD:-build}
D=$B/tests/policies/stream0
SHIM=$B/tsan/liblbshim.so
HE=$B/hipemu-tsan
[ -e "$HE/libamdhip64.so.5" ] || HE=$B/hipemu
[ -f "$SHIM" ] || { echo "FAIL: no $SHIM"; exit 1; }
TSANLIB=$(cc -print-file-name=libtsan.so)
[ -f "$TSANLIB" ] || { echo "skip: no libtsan.so"; exit 77; }
T=$(mktemp -d "${TMPDIR:-/tmp}/s0tsan.XXXXXX")
trap 'rm -rf "$T"' EXIT
unset LBSHIM_LOG LBSHIM_STREAM0_THREADS LBSHIM_STREAM0_EXCLUDE S0_PT_TORCH
export LD_LIBRARY_PATH=$HE HIPEMU_KERNELS=$D/libs0twins.so
export TSAN_OPTIONS="halt_on_error=0 exitcode=66 history_size=4"
bad=0
# tsan NAME PROG ARGS... (environment as given): no report, exit 0
tsan() {
	name=$1
	shift
	LBSHIM_POLICIES=stream0 LD_PRELOAD="$TSANLIB $SHIM" timeout 120 \
		"$@" >"$T/o" 2>"$T/e"
	rc=$?
	n=$(grep -c 'WARNING: ThreadSanitizer' "$T/e")
	echo "$name: exit $rc, $n reports"
	if [ "$n" != 0 ] || [ $rc != 0 ]; then
		sed -n '1,60p' "$T/e"
		bad=1
	fi
}
for mode in syncs remap; do
	for sc in events syncs cache exitpend; do
		LBSHIM_STREAM0_MODE=$mode tsan "$mode/$sc" "$D/s0_pt" "$sc"
	done
done
# remap's hazard check: blocks handed across threads, events, device syncs
for o in none event devsync free; do
	tsan "remap/hazard $o" "$D/s0_hz" copy "$o"
done
# the standing answers (shim/fast.h), withdrawn from another thread
for c in on off; do
	for sc in capture reset destroy; do
		LBSHIM_STREAM0_CHECK=$c tsan "remap/fast $sc check $c" \
			"$D/s0_fast" "$sc"
	done
done
[ $bad = 0 ] || { echo "FAIL: ThreadSanitizer reports or failures"; exit 1; }
exit 0
