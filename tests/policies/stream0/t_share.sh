# What threads share and what they do not (s0_share.hip, built by hipcc so
# that the shim reads its kernels' argument layout), under remap mode:
#   private     buffers of every size the pool serves, each thread's the
#               other's neighbours in memory, with and without the pool:
#               nothing ordered, no hazard (today's 4 KB granules made
#               the pool's blocks 256 B apart "touch": 7 hazards);
#   cache       a shared cache of buffers handed over with no event, as
#               PyTorch's caching allocator does: every sum right, the
#               hand-overs ordered, no hazard (today: 13 of 24 wrong);
#   mallocfree  hipMalloc/hipFree each step, with and without the pool:
#               every sum right, nothing ordered (the pool's fence and
#               the runtime's hipFree order them), no hazard.
# Each passes without the shim.
. tests/policies/stream0/lib.sh
P=$D/s0_share
export HIPEMU_KERNELS=$HIPEMU_KERNELS:$D/libs0share_twin.so
ordered() {
	n=$(sed -n "s/.*stream0: \([0-9]*\) dependencies on other threads' pending work ordered.*/\1/p" "$T/e")
	echo "${n:-0}"
}
for sc in private cache mallocfree; do
	LD_PRELOAD= "$P" $sc >"$T/o" 2>&1 || { cat "$T/o"; fail "$sc without the shim"; }
	for pol in stream0 stream0,pool; do
		LD_PRELOAD=$SHIM LBSHIM_POLICIES=$pol "$P" $sc >"$T/o" 2>"$T/e" ||
			{ cat "$T/o" "$T/e"; fail "$sc under $pol"; }
		cat "$T/o"
		grep -q "hazards:" "$T/e" && { cat "$T/e"; fail "$sc under $pol: a hazard line"; }
		case $sc in cache) want='[1-9][0-9]*' ;; *) want=0 ;; esac
		ordered | grep -qx "$want" ||
			{ cat "$T/e"; fail "$sc under $pol: $(ordered) ordered, want $want"; }
		echo "$sc under $pol: $(ordered) ordered, no hazard"
	done
done
exit 0
