# PyTorch's caching allocator hands a block one thread freed to the other
# thread's next allocation on the null stream with no event.  Without the
# shim and in syncs mode no result is wrong.  In remap mode with the
# launch-level check off results go wrong (here kernels whose layout the
# check cannot read: so with it on too), so the shim must have warned
# once, before the second thread's first remapped call, when libc10_hip
# (or libc10_cuda) is loaded and caching is on; not when caching is off
# or in syncs mode.
# With the check on (the default), which orders the hand-overs it sees
# (t_share.sh), the warning is a note at LBSHIM_LOG=info.  With caching
# off, malloc/free each iteration under stream0+pool (the pool's fence)
# gives correct results.
. tests/policies/stream0/lib.sh
P=$D/s0_pt
export LBSHIM_STREAM0_CHECK=off
TORCH=$D/torch/libc10_hip.so
W='stream0: PyTorch.s caching allocator is in use'
legacy "$P" cache >"$T/o" 2>&1 || { cat "$T/o"; fail "without the policy"; }
grep -q "cache: 0 of 24 results wrong" "$T/o" || fail "legacy: $(cat "$T/o")"
S0_PT_TORCH=$TORCH LBSHIM_STREAM0_MODE=syncs perthread "$P" cache >"$T/o" 2>"$T/e" ||
	{ cat "$T/o" "$T/e"; fail "syncs"; }
grep -q "cache: 0 of 24 results wrong" "$T/o" || fail "syncs: $(cat "$T/o")"
grep -q "$W" "$T/e" && fail "syncs mode warned"
# remap with PyTorch's library loaded: one warning, before any result
S0_PT_TORCH=$TORCH perthread "$P" cache >"$T/o" 2>"$T/e" ||
	{ cat "$T/o" "$T/e"; fail "remap"; }
n=$(grep -c "$W" "$T/e")
[ "$n" = 1 ] || { cat "$T/e"; fail "remap with libc10_hip: $n warnings, want 1"; }
grep -q "LBSHIM_STREAM0_MODE=syncs" "$T/e" || fail "the warning names no safe setting"
echo "remap: $(cat "$T/o") (warned)"
# PyTorch's CUDA build keeps its caching allocator in libc10_cuda.so
S0_PT_TORCH=$D/cudatorch/libc10_cuda.so perthread "$P" cache >"$T/o" 2>"$T/e" ||
	{ cat "$T/o" "$T/e"; fail "remap, libc10_cuda"; }
[ "$(grep -c "$W" "$T/e")" = 1 ] || { cat "$T/e"; fail "remap with libc10_cuda: no warning"; }
# the check on: no warning at the default level, a note at info
LBSHIM_STREAM0_CHECK=on S0_PT_TORCH=$TORCH perthread "$P" cache >"$T/o" 2>"$T/e" ||
	{ cat "$T/o" "$T/e"; fail "remap, check on"; }
grep -q "$W" "$T/e" && { cat "$T/e"; fail "warned with the check on"; }
LBSHIM_LOG=info LBSHIM_STREAM0_CHECK=on S0_PT_TORCH=$TORCH perthread "$P" cache \
	>"$T/o" 2>"$T/e" || { cat "$T/o" "$T/e"; fail "remap, check on, info"; }
[ "$(grep -c "$W.*is ordered after" "$T/e")" = 1 ] ||
	{ cat "$T/e"; fail "no note at LBSHIM_LOG=info with the check on"; }
echo "remap, check on: a note at LBSHIM_LOG=info only"
for v in PYTORCH_NO_HIP_MEMORY_CACHING PYTORCH_NO_CUDA_MEMORY_CACHING; do
	env "$v=1" S0_PT_TORCH=$TORCH LD_PRELOAD="$SHIM" LBSHIM_POLICIES=stream0 \
		"$P" mallocfree >"$T/o" 2>"$T/e" || { cat "$T/o" "$T/e"; fail "$v"; }
	grep -q "$W" "$T/e" && fail "warned although $v is set"
done
# newer PyTorch takes only "1" as off (c10::utils::check_env): "0" or an
# empty value leave caching on, and the warning stands
for val in 0 ""; do
	env "PYTORCH_NO_HIP_MEMORY_CACHING=$val" S0_PT_TORCH=$TORCH \
		LD_PRELOAD="$SHIM" LBSHIM_POLICIES=stream0 "$P" mallocfree \
		>"$T/o" 2>"$T/e" || { cat "$T/o" "$T/e"; fail "=$val"; }
	grep -q "$W" "$T/e" ||
		fail "no warning with PYTORCH_NO_HIP_MEMORY_CACHING='$val'"
done
perthread "$P" cache >"$T/o" 2>"$T/e" || { cat "$T/o" "$T/e"; fail "no torch"; }
grep -q "$W" "$T/e" && fail "warned without PyTorch in the process"
# the safe remap configuration: caching off, frees through the pool
PYTORCH_NO_HIP_MEMORY_CACHING=1 S0_PT_TORCH=$TORCH LD_PRELOAD="$SHIM" \
	LBSHIM_POLICIES=stream0,pool "$P" mallocfree >"$T/o" 2>"$T/e" ||
	{ cat "$T/o" "$T/e"; fail "stream0,pool"; }
grep -q "mallocfree: 0 of 24 results wrong" "$T/o" ||
	fail "stream0,pool with caching off: $(cat "$T/o")"
legacy "$P" mallocfree >"$T/o" 2>&1 || { cat "$T/o"; fail "mallocfree legacy"; }
grep -q "mallocfree: 0 of 24 results wrong" "$T/o" || fail "legacy: $(cat "$T/o")"
exit 0
