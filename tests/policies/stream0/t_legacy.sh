# hipStreamLegacy stays the legacy null stream under stream0, in both
# modes: a kernel the main thread queues on it waits for another thread's
# earlier null-stream work (checked by the program: it sees 7).
. tests/policies/stream0/lib.sh
P=$D/s0_pt
legacy "$P" legacy >"$T/o" 2>&1 || { cat "$T/o"; fail "without the policy"; }
perthread "$P" legacy >"$T/o" 2>&1 || { cat "$T/o"; fail "remap"; }
LBSHIM_STREAM0_MODE=syncs perthread "$P" legacy >"$T/o" 2>&1 || { cat "$T/o"; fail "syncs"; }
exit 0
