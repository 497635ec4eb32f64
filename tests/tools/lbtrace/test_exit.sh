#!/bin/sh
# Exit status and messages: 0 ok, 1 bad usage (one line, then the usage),
# 2 unreadable or invalid file (naming the file and the byte offset);
# a truncated trace is not an error.
. tests/tools/lbtrace/lib.sh

# expect RC GREP-PATTERN-ON-STDERR ARGS...
expect() {
	want=$1 pat=$2; shift 2
	"$L" "$@" >out.txt 2>err.txt
	rc=$?
	if [ $rc != "$want" ]; then
		fail "lbtrace $*: exit $rc, wanted $want"; cat err.txt
	elif [ -n "$pat" ] && ! head -n 1 err.txt | grep -q -- "$pat"; then
		fail "lbtrace $*: first stderr line lacks '$pat':"; cat err.txt
	else
		ok "lbtrace $* -> $rc"
	fi
}

# bad usage: one "lbtrace: ..." line, then the usage
usage_case() {
	expect 1 "^lbtrace: " "$@"
	sed -n 2p err.txt | grep -q '^usage: lbtrace' ||
		fail "lbtrace $*: second line is not the usage"
}
usage_case
usage_case bogus basic.lbt
usage_case print
usage_case print --bogus basic.lbt
usage_case print --last 0 basic.lbt
usage_case print --last x basic.lbt
usage_case print --tid abc basic.lbt
usage_case print --api
usage_case crash --calls 0 crash.lbt
usage_case crash --json crash.lbt
usage_case export basic.lbt
usage_case export --format svg -o x.json basic.lbt
usage_case summary --json basic.lbt

expect 0 "" --help
grep -q '^usage: lbtrace COMMAND' out.txt || fail "--help prints no usage"
for c in print summary crash export; do
	expect 0 "" $c --help
	grep -q "^usage: lbtrace $c" out.txt || fail "$c --help prints no usage"
done

expect 2 "missing.lbt: No such file" print missing.lbt
expect 2 "badmagic.lbt: byte 0: " print badmagic.lbt
expect 2 "badversion.lbt: byte 8: " summary badversion.lbt
expect 2 "badblock.lbt: byte 20: " crash badblock.lbt
expect 2 "short.lbt: byte 100: " print --json short.lbt
: >empty.lbt
expect 2 "empty.lbt: byte 0: " print empty.lbt
mkdir -p adir
expect 2 "adir: no trace file (\*.lbt) in it" print adir
# one bad file among good ones: named, the good ones shown, exit 2
# (test_multifile.sh has the cases)
expect 2 "badmagic.lbt" print basic.lbt badmagic.lbt
[ -s out.txt ] || fail "an invalid file hid the good one"
# a corrupt block: the rest is shown, the block is named, exit 2
expect 2 "corruptblk.lbt: byte 16384: bad block header" print corruptblk.lbt
[ -s out.txt ] || fail "corrupt block: nothing shown of the rest"

# truncated: not an error, exactly one line on stderr, whole records shown
expect 0 "truncated.lbt: truncated at byte 17384" print truncated.lbt
[ "$(wc -l <err.txt)" = 1 ] || fail "truncated: not one stderr line"
n=$(wc -l <out.txt)
full=$("$L" print basic.lbt | wc -l)
[ "$n" -gt 0 ] && [ "$n" -lt "$full" ] ||
	fail "truncated: $n lines shown, full trace has $full"
# what is shown is a prefix of each thread's records
"$L" print --tid 4242 basic.lbt | head -n "$("$L" print --tid 4242 truncated.lbt 2>/dev/null | wc -l)" >a.txt
"$L" print --tid 4242 truncated.lbt 2>/dev/null >b.txt
cmp -s a.txt b.txt || fail "truncated: thread 4242's records are not a prefix"

# output that cannot be written
expect 2 "" export --format chrome -o /nonexistent/dir/x.json basic.lbt
if [ -w /dev/full ]; then
	"$L" print basic.lbt >/dev/full 2>err.txt; rc=$?
	[ $rc = 2 ] || fail "write to /dev/full: exit $rc"
fi
# colour: never into a pipe; on a terminal unless NO_COLOR is set
esc=$(printf '\033')
env -u NO_COLOR "$L" print basic.lbt | grep -q "$esc" && fail "colour into a pipe"
if command -v script >/dev/null; then
	env -u NO_COLOR script -qec "$L print --errors basic.lbt" /dev/null >tty.txt 2>&1
	grep -q "$esc" tty.txt && ok "colour on a terminal" || fail "no colour on a terminal"
	NO_COLOR=1 script -qec "$L print --errors basic.lbt" /dev/null >tty.txt 2>&1
	grep -q "$esc" tty.txt && fail "colour despite NO_COLOR" || ok "NO_COLOR"
fi
finish
