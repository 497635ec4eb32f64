# The launch-level check for kernels (s0_hzk.hip, built by hipcc so that
# the shim reads its kernels' argument layout): thread A's kernel reads
# block X while still pending, thread B's kernel (X as a global_buffer
# argument, or inside a by-value struct) or copy writes it with no event:
# one dependency, ordered (B's stream waits for A's: A reads 7, as on the
# legacy stream), marked "ordered" on B's launch.  With an event between
# them, or a write 1 MB away, nothing is ordered; B's launch memo (a
# relaunch with the same pointers) changes neither, nor does it hide a
# relaunch in a fork's child (memofork).  A relaunch on another device
# (memodev) depends on work that cannot be ordered from A's device: one
# hazard, A's, the exit line naming the kernel demangled, as lbtrace
# does.  Skipped when the shim has no kernel-argument registry
# (lb_launch_ptrs): kernels then go unchecked, as lbshim(7) says.
. tests/policies/stream0/lib.sh
P=$D/s0_hzk
export HIPEMU_KERNELS=$HIPEMU_KERNELS:$D/libs0hzk_twin.so
# SHIM may be a preload list (the sanitizer runs: libasan first): the
# shim is its last word.
lib=${SHIM##* }
nm "$lib" 2>/dev/null | grep -q ' [Tt] lb_launch_ptrs$' ||
	{ echo "skip: $lib has no lb_launch_ptrs"; exit 77; }
touched() {
	n=$(sed -n 's/.* \([0-9]*\) launches, copies or sets touched memory.*/\1/p' "$T/e")
	echo "${n:-0}"
}
ordered() {
	n=$(sed -n "s/.*stream0: \([0-9]*\) dependencies on other threads' pending work ordered.*/\1/p" "$T/e")
	echo "${n:-0}"
}
for o in none struct copy event far memo memosmall memo2 memoev; do
	legacy "$P" $o >"$T/o" 2>&1 || { cat "$T/o"; fail "$o without the policy"; }
	grep -q ": read 7$" "$T/o" || fail "$o without the policy: $(cat "$T/o")"
	perthread "$P" $o >"$T/o" 2>"$T/e" || { cat "$T/o" "$T/e"; fail "$o under stream0"; }
	grep -q ": read 7$" "$T/o" || { cat "$T/e"; fail "$o under stream0: $(cat "$T/o")"; }
	case $o in
	none | struct | copy | memo | memosmall | memo2) want=1 ;;
	*) want=0 ;;
	esac
	[ "$(ordered)" = $want ] || { cat "$T/e"; fail "$o: $(ordered) ordered, want $want"; }
	[ "$(touched)" = 0 ] || { cat "$T/e"; fail "$o: $(touched) hazards"; }
	echo "kernel $o: read 7, $(ordered) ordered"
done
# B's relaunch on device 1 (memodev): A's read on device 0 depends on it,
# which the check cannot order across devices: a hazard, named
HIPEMU_DEVICES=2 perthread "$P" memodev >"$T/o" 2>"$T/e" ||
	{ cat "$T/o" "$T/e"; fail "memodev under stream0"; }
[ "$(touched)" = 1 ] || { cat "$T/e"; fail "memodev: $(touched) touch hazards, want 1"; }
grep -qF "first in hipLaunchKernel (kernel hzk_peek(int const*, int*))" "$T/e" ||
	{ cat "$T/e"; fail "the exit line names no kernel"; }
echo "kernel memodev: 1 hazard, named"
# nor a fork (memofork: the child's relaunch, the child's report)
perthread "$P" memofork >"$T/o" 2>"$T/e" ||
	{ cat "$T/o" "$T/e"; fail "memofork under stream0"; }
[ "$(ordered)" = 1 ] || { cat "$T/e"; fail "memofork: $(ordered) ordered, want 1"; }
echo "kernel memofork: 1 ordered"
LBSHIM_STREAM0_CHECK=off perthread "$P" none >"$T/o" 2>"$T/e"
[ "$(ordered)" = 0 ] && [ "$(touched)" = 0 ] || fail "LBSHIM_STREAM0_CHECK=off counted"
[ -x "$B/lbtrace" ] || { echo "no $B/lbtrace: trace mark not checked"; exit 0; }
LBSHIM_TRACE=$T/t.lbt LD_PRELOAD=$SHIM LBSHIM_POLICIES=trace,stream0 \
	"$P" none >/dev/null 2>&1 || fail "none under trace,stream0"
"$B/lbtrace" print --json "$T/t.lbt" >"$T/j" || fail "lbtrace print"
n=$(grep '"api":"hipLaunchKernel"' "$T/j" | grep -c '"ordered":true')
[ "$n" = 1 ] || fail "$n launches marked, want 1"
grep '"ordered":true' "$T/j" | grep -q '_Z8hzk_fillPiii' ||
	fail "the marked launch is not B's hzk_fill"
echo "trace: B's hzk_fill marked ordered"
exit 0
