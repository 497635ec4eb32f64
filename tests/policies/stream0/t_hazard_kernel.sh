# The launch-level hazard check for kernels (s0_hzk.hip, built by hipcc so
# that the shim reads its kernels' argument layout): thread A's kernel reads
# block X while still pending, thread B's kernel (X as a global_buffer
# argument, or inside a by-value struct) or copy writes it with no event: one
# hazard, marked on B's launch, the exit line naming the kernel demangled,
# as lbtrace does.  With an event between them, or a write 1 MB away, none;
# B's launch memo (a relaunch with the same pointers) changes neither, nor
# does it hide a relaunch on another device (memodev: A's read is the
# hazard) or in a fork's child (memofork).  Skipped when the shim has no
# kernel-argument registry (lb_launch_ptrs): kernels then go unchecked, as
# lbshim(7) says.
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
for o in none struct copy event far memo memo2 memoev; do
	legacy "$P" $o >"$T/o" 2>&1 || { cat "$T/o"; fail "$o without the policy"; }
	grep -q ": read 7$" "$T/o" || fail "$o without the policy: $(cat "$T/o")"
	perthread "$P" $o >"$T/o" 2>"$T/e" || { cat "$T/o" "$T/e"; fail "$o under stream0"; }
	case $o in
	none | struct | copy | memo | memo2) want=1 ;;
	*) want=0 ;;
	esac
	[ "$(touched)" = $want ] || { cat "$T/e"; fail "$o: $(touched) touch hazards, want $want"; }
	echo "kernel $o: $(touched) hazards"
done
# the memo's seal is for one device: B's relaunch on device 1 (memodev)
HIPEMU_DEVICES=2 perthread "$P" memodev >"$T/o" 2>"$T/e" ||
	{ cat "$T/o" "$T/e"; fail "memodev under stream0"; }
[ "$(touched)" = 1 ] || { cat "$T/e"; fail "memodev: $(touched) touch hazards, want 1"; }
echo "kernel memodev: 1 hazards"
# nor a fork (memofork: the child's relaunch, the child's report)
perthread "$P" memofork >"$T/o" 2>"$T/e" ||
	{ cat "$T/o" "$T/e"; fail "memofork under stream0"; }
[ "$(touched)" = 1 ] || { cat "$T/e"; fail "memofork: $(touched) touch hazards, want 1"; }
echo "kernel memofork: 1 hazards"
perthread "$P" none >"$T/o" 2>"$T/e"
grep -qF "first in hipLaunchKernel (kernel hzk_fill(int*, int, int))" "$T/e" ||
	{ cat "$T/e"; fail "the exit line names no kernel"; }
LBSHIM_STREAM0_CHECK=off perthread "$P" none >"$T/o" 2>"$T/e"
[ "$(touched)" = 0 ] || fail "LBSHIM_STREAM0_CHECK=off counted"
[ -x "$B/lbtrace" ] || { echo "no $B/lbtrace: trace mark not checked"; exit 0; }
LBSHIM_TRACE=$T/t.lbt LD_PRELOAD=$SHIM LBSHIM_POLICIES=trace,stream0 \
	"$P" none >/dev/null 2>&1 || fail "none under trace,stream0"
"$B/lbtrace" print --json "$T/t.lbt" >"$T/j" || fail "lbtrace print"
n=$(grep '"api":"hipLaunchKernel"' "$T/j" | grep -c '"hazard":true')
[ "$n" = 1 ] || fail "$n launches marked, want 1"
grep '"hazard":true' "$T/j" | grep -q '_Z8hzk_fillPiii' ||
	fail "the marked launch is not B's hzk_fill"
echo "trace: B's hzk_fill marked"
exit 0
