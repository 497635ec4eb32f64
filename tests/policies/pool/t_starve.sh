#!/bin/sh
# Allocations the pool does not serve, refused by the runtime for want of
# memory that the pool holds in free chunks: the pool gives its chunks
# back and the call is made once more (hipemu counts two calls).  Each
# kind succeeds without the pool too.  Host memory is not counted against
# hipemu's device, so its refusal is injected; without the pool the
# injected failure stands.  An allocation larger than the device is
# retried once and fails with the runtime's error.
. "$(dirname "$0")/lib.sh"
export HIPEMU_MEM_SIZE=64M
api() {
	case $1 in
	fine|huge) echo hipExtMallocWithFlags ;;
	managed-host) echo hipMallocManaged ;;
	async) echo hipMallocAsync ;;
	frompool) echo hipMallocFromPoolAsync ;;
	mempitch) echo hipMemAllocPitch ;;
	array) echo hipMallocArray ;;
	arraycreate) echo hipArrayCreate ;;
	array3d) echo hipArray3DCreate ;;
	memcreate) echo hipMemCreate ;;
	3d) echo hipMalloc3D ;;
	3darray) echo hipMalloc3DArray ;;
	host) echo hipHostMalloc ;;
	hostalloc) echo hipHostAlloc ;;
	mallochost) echo hipMallocHost ;;
	memallochost) echo hipMemAllocHost ;;
	esac
}
for k in fine managed-host async frompool mempitch array arraycreate \
	array3d memcreate 3d 3darray; do
	run "plain-$k" plain "$P" starve $k >/dev/null
	HIPEMU_STATS=$T/$k.json LBSHIM_LOG=info \
		run "pool-$k" pool "$P" starve $k
	n=$(calls "$T/$k.json" "$(api $k)")
	[ "$n" = 2 ] || fail "$k: $n runtime calls, want 2 (refused, retried)"
	grep -q "pool: .* 1 refused allocations retried" "$T/pool-$k.err" ||
		{ cat "$T/pool-$k.err"; fail "$k: no retry counted"; }
done
for k in host hostalloc mallochost memallochost; do
	a=$(api $k)
	export HIPEMU_FAIL=$a:1:hipErrorOutOfMemory
	HIPEMU_STATS=$T/$k.json run "pool-$k" pool "$P" starve $k
	n=$(calls "$T/$k.json" "$a")
	[ "$n" = 2 ] || fail "$k: $n runtime calls, want 2 (refused, retried)"
	if plain "$P" starve $k >"$T/plain-$k" 2>&1; then
		fail "$k: the injected refusal did not happen"
	fi
	unset HIPEMU_FAIL
done
HIPEMU_STATS=$T/huge.json pool "$P" starve huge >"$T/huge" 2>&1 &&
	fail "an allocation larger than the device succeeded"
grep -q "starve huge: hipErrorOutOfMemory" "$T/huge" ||
	{ cat "$T/huge"; fail "huge: not the runtime's error"; }
n=$(calls "$T/huge.json" hipExtMallocWithFlags)
[ "$n" = 2 ] || fail "huge: $n runtime calls, want 2 (refused, retried once)"
