# A forked child writes its own file; the parent's has only its own calls.
# asan: no - forkstress forks while 4 threads call malloc; GCC 12's libasan
# has no fork handler for its allocator lock, so a child can hang in malloc
# under ASan with or without the shim (the shim-asan group forks too).
. "$(dirname "$0")/lib.sh"

LBSHIM_POLICIES=trace traced "$PROG" fork >out 2>err || fail "exit $?"
[ -s err ] && { cat err; fail "warnings"; }
c=$(sed -n 's/^child=//p' out)
p=$(sed -n 's/^parent=//p' out)
"$DUMP" "lbshim.$p.lbt" >pdump || fail "no parent file: $(ls)"
"$DUMP" "lbshim.$c.lbt" >cdump || fail "no child file: $(ls)"
[ "$(count '^call .* a0=0x1 ' pdump)" = 5 ] || fail "parent calls"
[ "$(count '^call .* a0=0x64 ' pdump)" = 0 ] || fail "child calls in parent"
[ "$(count '^call .* a0=0x64 ' cdump)" = 5 ] || fail "child calls"
[ "$(count '^call ' cdump)" = 5 ] || fail "parent calls in child"
expect "^header version=2 pid=$c ppid=$p " cdump
expect "^header .* pid=$p .* flags=0x1 " pdump

# Forks while other threads are recording: every child's file has its 100
# calls and nothing else, the parent's all 4 x 200000.
mkdir fs && cd fs || fail "mkdir"
LBSHIM_POLICIES=trace traced "$PROG" forkstress 2>err || fail "forkstress: exit $?"
[ -s err ] && { cat err; fail "warnings"; }
[ "$(ls | grep -c '\.lbt$')" = 21 ] || fail "files: $(ls)"
ppid_files=0
for f in *.lbt; do
	"$DUMP" "$f" >d || fail "$f: dump"
	n=$(count '^call ' d)
	if [ "$n" = 100 ]; then
		[ "$(count '^call .* a0=0x100 ' d)" = 100 ] || fail "$f: not the child's"
	else
		"$DUMP" --check-seq 200000 "$f" | grep -q '^threads=4 ok$' ||
			fail "$f: $n calls"
		ppid_files=$((ppid_files + 1))
	fi
done
[ "$ppid_files" = 1 ] || fail "parent files: $ppid_files"
echo ok
