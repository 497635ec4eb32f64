# PyTorch's autograd pattern: forward on the main thread, backward on a
# thread named pt_autograd_0, the step on the main thread, all on the null
# stream with no event.  Correct without the shim, under the default remap
# mode (pt_autograd_* stays on the legacy null stream, which each S is
# ordered with) and under syncs mode; the debug log names the thread kept
# on the legacy stream.
. tests/policies/stream0/lib.sh
P=$D/s0_pt
legacy "$P" autograd >"$T/o" 2>&1 || { cat "$T/o"; fail "without the policy"; }
LBSHIM_LOG=debug perthread "$P" autograd >"$T/o" 2>"$T/e" ||
	{ cat "$T/o" "$T/e"; fail "remap (default)"; }
grep -q "0 of 5 gradients wrong" "$T/o" || fail "remap: $(cat "$T/o")"
grep -q "stream0: thread [0-9]* stays on the legacy null stream" "$T/e" ||
	fail "remap: the autograd thread was not kept on the legacy stream"
LBSHIM_STREAM0_MODE=syncs perthread "$P" autograd >"$T/o" 2>&1 ||
	{ cat "$T/o"; fail "syncs"; }
exit 0
