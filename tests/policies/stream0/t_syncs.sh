# LBSHIM_STREAM0_MODE=syncs: the IMU thread queues 5 ms, the camera thread
# then 400 ms, the IMU thread syncs the null stream.  Without the policy it
# waits for the camera; in syncs mode it does not, the kernels still run
# IMU first (checked by the program), and the sync counts as a hazard;
# hipDeviceSynchronize is narrowed only with LBSHIM_STREAM0_DEVICE_SYNC=thread.
# Events: one per change of the submitting thread, none per launch.
. tests/policies/stream0/lib.sh
P=$D/s0_pt
SY="LBSHIM_STREAM0_MODE=syncs"
legacy "$P" syncs >"$T/o" 2>&1 || { cat "$T/o"; fail "without the policy"; }
grep -q "imu waited for the camera: yes" "$T/o" || fail "legacy: $(cat "$T/o")"
env $SY LBSHIM_LOG=info LD_PRELOAD="$SHIM" LBSHIM_POLICIES=stream0 "$P" syncs \
	>"$T/o" 2>"$T/e" || { cat "$T/o" "$T/e"; fail "syncs"; }
grep -q "imu waited for the camera: no" "$T/o" || fail "syncs: $(cat "$T/o")"
grep -q 'stream0: thread [0-9]*: 1 of 1 null-stream syncs' "$T/e" ||
	{ cat "$T/e"; fail "syncs: the narrowed sync was not counted"; }
# hipDeviceSynchronize: narrowed only with LBSHIM_STREAM0_DEVICE_SYNC=thread
env $SY S0_PT_DEVSYNC=1 LD_PRELOAD="$SHIM" LBSHIM_POLICIES=stream0 "$P" syncs >"$T/o" 2>&1 || { cat "$T/o"; fail "devsync"; }
grep -q "imu waited for the camera: yes" "$T/o" || fail "syncs, devsync=device: $(cat "$T/o")"
env $SY S0_PT_DEVSYNC=1 LBSHIM_STREAM0_DEVICE_SYNC=thread LD_PRELOAD="$SHIM" LBSHIM_POLICIES=stream0 "$P" syncs \
	>"$T/o" 2>&1 || { cat "$T/o"; fail "devsync=thread"; }
grep -q "imu waited for the camera: no" "$T/o" || fail "syncs, devsync=thread: $(cat "$T/o")"
env $SY HIPEMU_STATS="$T/st" LD_PRELOAD="$SHIM" LBSHIM_POLICIES=stream0 "$P" events \
	>"$T/o" 2>"$T/e" || { cat "$T/o" "$T/e"; fail "events"; }
rec=$(sed -n 's/.*"hipEventRecord": *\([0-9]*\).*/\1/p' "$T/st")
launch=$(sed -n 's/.*"hipModuleLaunchKernel": *\([0-9]*\).*/\1/p' "$T/st")
[ "$launch" = 250 ] || fail "events: $launch launches reached the runtime"
[ "$rec" = 4 ] || fail "events: $rec events recorded for 4 changes of submitter"
HIPEMU_STATS="$T/st" legacy "$P" events >"$T/o" 2>&1 || fail "events legacy"
grep -q '"hipEventRecord": *[1-9]' "$T/st" && fail "legacy run recorded events"
# bad mode: one warning naming the variable; remap is kept
LBSHIM_STREAM0_MODE=fast perthread "$P" rename >"$T/o" 2>"$T/e" ||
	{ cat "$T/o" "$T/e"; fail "bad mode"; }
grep -q 'LBSHIM_STREAM0_MODE' "$T/e" || fail "no warning for a bad mode"
grep -q "before own, after own" "$T/o" || fail "bad mode did not keep remap"
exit 0
