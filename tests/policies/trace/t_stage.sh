# Staging (policies/trace/trace_stage.c): a busy thread's records go to a
# ring of resident blocks, copied into place by the helper.  What a call
# recorded before it returned is in the file whatever kills the process,
# and a block that is in the file twice (its copy and the staged block:
# the process died between the copy and the clearing) is read once.
TOP=$(cd "$(dirname "$0")/../../.." && pwd)
. "$(dirname "$0")/lib.sh"
LBT=$BUILD/lbtrace
N=300000 # ~290 blocks: the ring of 64 wraps four times

# SIGKILL right after the last call: the latest blocks are only staged.
(LBSHIM_POLICIES=trace LBSHIM_TRACE=kill.lbt traced "$PROG" crash kill $N) \
	>/dev/null 2>&1
"$DUMP" --check-seq $N kill.lbt >check
expect "^threads=1 ok$" check
"$DUMP" kill.lbt >kill.dump
expect "^header .* flags=0x0 " kill.dump
[ "$(count '^lost ' kill.dump)" = 0 ] || fail "kill: records lost"

# SIGSEGV: the crash record goes to the staged block, after every call.
LBSHIM_POLICIES=trace LBSHIM_TRACE=segv.lbt traced "$PROG" crash segv $N \
	>/dev/null 2>&1
"$DUMP" --check-seq $N segv.lbt >check
expect "^threads=1 ok$" check
"$DUMP" segv.lbt >segv.dump
[ "$(count '^crash ' segv.dump)" = 1 ] || fail "segv: crash record"
[ "$(tail -n 40 segv.dump | grep -c '^call .*api=hipMemset .*a1=0x493df ')" = 1 ] ||
	fail "segv: the last call is not just before the crash"

# Many threads, clean exit: every record once, in order.
LBSHIM_POLICIES=trace LBSHIM_TRACE=thr.lbt traced "$PROG" threads 4 100000 ||
	fail "threads: exit $?"
"$DUMP" --check-seq 100000 thr.lbt >check
expect "^threads=4 ok$" check

# A block twice: a whole copy, then a copy cut short (the copy of the
# other block interrupted by the kill), appended as the staging leaves
# them.  Read once each, the fuller copy.
cp thr.lbt dup.lbt
# blocks start after the header and its name table: header_size, the
# u32 at byte 12
H=$(od -An -tu4 -j12 -N4 thr.lbt | tr -d ' ')
[ -n "$H" ] && [ "$H" -gt 8192 ] || fail "header_size '$H'"
blk() { sed -n "s/^block file_index=\([0-9]*\) thread=$1 .* ordinal=$2 .*/\1/p" thr.dump; }
"$DUMP" thr.lbt >thr.dump
a=$(blk 1 5); b=$(blk 2 7)
[ -n "$a" ] && [ -n "$b" ] || fail "no blocks to copy"
tail -c +$((H + a * 65536 + 1)) thr.lbt | head -c 65536 >>dup.lbt
tail -c +$((H + b * 65536 + 1)) thr.lbt | head -c 32768 >>dup.lbt
head -c 32768 /dev/zero >>dup.lbt
# and the cut copy before the whole one as well: order must not matter
cp thr.lbt dup2.lbt
tail -c +$((H + b * 65536 + 1)) thr.lbt | head -c 32768 >>dup2.lbt
head -c 32768 /dev/zero >>dup2.lbt
for f in dup.lbt dup2.lbt; do
	"$DUMP" --check-seq 100000 $f >check
	expect "^threads=4 ok$" check
	for c in print summary; do
		"$LBT" $c thr.lbt >want.txt 2>&1
		"$LBT" $c $f 2>&1 | sed "s/$f/thr.lbt/" >got.txt
		cmp -s want.txt got.txt ||
			{ diff want.txt got.txt | head; fail "$f: lbtrace $c differs"; }
	done
done
echo ok
