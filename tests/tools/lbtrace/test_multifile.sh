#!/bin/sh
# Several files read as one, some of them bad (issue #38): print, summary,
# crash and export read every file that can be read, name each one that
# cannot once ("lbtrace: FILE: reason", as ab does), show the good ones
# exactly as if the bad ones were not given, and exit 2.  A directory
# stands for the *.lbt files under it, as for ab.
. tests/tools/lbtrace/lib.sh

echo 'not a trace at all' >notrace.lbt
head -c 5000 basic.lbt >hdrcut.lbt # ends inside the 8192-byte header

# the message each bad file must get, once
BAD_MSGS='missing.lbt: No such file or directory
notrace.lbt: byte 0: not an lbshim trace
hdrcut.lbt: byte 5000: file ends inside the 8192-byte header'

# run CMD... : stdout in out.txt (export: the -o file), stderr in err.txt
run() {
	if [ "$1" = export ]; then
		shift
		rm -f out.txt
		"$L" export --format chrome -o out.txt "$@" >/dev/null 2>err.txt
	else
		"$L" "$@" >out.txt 2>err.txt
	fi
	rc=$?
}

# mixed WHAT CMD ARGS...: CMD (one word, its options in ARGS) on ARGS
# gives what it gives on the good files among them (want.txt), names each
# bad one once, exits 2
mixed() {
	what=$1; shift
	c=$1; shift
	goods=
	for f in "$@"; do
		case $f in missing.lbt | notrace.lbt | hdrcut.lbt) ;;
		*) goods="$goods $f" ;;
		esac
	done
	# shellcheck disable=SC2086
	run $c $goods
	[ $rc = 0 ] || { fail "$what: good files alone: exit $rc"; cat err.txt; return; }
	mv out.txt want.txt
	run $c "$@"
	if [ $rc != 2 ]; then
		fail "$what: exit $rc, wanted 2"
	elif ! cmp -s want.txt out.txt; then
		fail "$what: the good files' output differs from theirs alone"
		diff want.txt out.txt | head -n 5
	elif [ "$(wc -l <err.txt)" != 3 ]; then
		fail "$what: not one stderr line per bad file:"; cat err.txt
	else
		bad=0
		echo "$BAD_MSGS" | while IFS= read -r m; do
			n=$(grep -c "^lbtrace: $m" err.txt)
			[ "$n" = 1 ] || { echo "'$m' said $n times"; exit 1; }
		done || bad=1
		[ $bad = 0 ] && ok "$what" || { fail "$what: messages:"; cat err.txt; }
	fi
}

for cmd in print "print --json" summary crash export; do
	good=basic.lbt
	[ "$cmd" = crash ] && good=crash.lbt
	# shellcheck disable=SC2086
	{
	mixed "$cmd: bad files after" $cmd $good missing.lbt notrace.lbt hdrcut.lbt
	mixed "$cmd: bad files first" $cmd hdrcut.lbt missing.lbt notrace.lbt $good
	mixed "$cmd: interleaved" $cmd notrace.lbt $good hdrcut.lbt missing.lbt
	mixed "$cmd: two good files merged" $cmd multi1.lbt missing.lbt \
		multi2.lbt notrace.lbt hdrcut.lbt
	}
	[ -s want.txt ] || fail "$cmd: the good files' output is empty"
done

# Only bad files: nothing to show, each named, exit 2; export writes no file.
run print missing.lbt notrace.lbt
[ $rc = 2 ] && [ ! -s out.txt ] && [ "$(wc -l <err.txt)" = 2 ] &&
	ok "only bad files" || fail "only bad files: exit $rc, $(cat err.txt)"
rm -f none.json
"$L" export --format chrome -o none.json hdrcut.lbt 2>/dev/null
[ -e none.json ] && fail "export created its output with no trace read"

# A directory: its *.lbt files, searched recursively, in name order; other
# files, hidden entries and links to directories left alone.
mkdir -p dir/r1 dir/r2 dir/r2/deep
cp multi1.lbt dir/r1/p1.lbt
cp multi2.lbt dir/r2/deep/p2.lbt
cp crash.lbt dir/r2/c.lbt
echo 'a log' >dir/r1/log.txt
cp notrace.lbt dir/.hidden.lbt
ln -s .. dir/r1/up
ln -s ../r1/p1.lbt dir/r2/link.lbt
FILES="dir/r1/p1.lbt dir/r2/c.lbt dir/r2/deep/p2.lbt dir/r2/link.lbt"
for cmd in print "print --json" summary crash export; do
	# shellcheck disable=SC2086
	run $cmd $FILES
	mv out.txt want.txt
	for d in dir dir/; do
		# shellcheck disable=SC2086
		run $cmd $d
		# the link to p1.lbt is p1.lbt again: read once, and said
		if [ $rc != 0 ] || [ "$(cat err.txt)" != "lbtrace: dir/r2/link.lbt: the same file as dir/r1/p1.lbt, read once" ]; then
			fail "$cmd $d: exit $rc: $(cat err.txt)"
		elif ! cmp -s want.txt out.txt; then
			fail "$cmd $d: not the output of its files in name order"
			diff want.txt out.txt | head -n 5
		else
			ok "$cmd $d"
		fi
	done
done
# a bad trace inside is named, the rest shown
rm dir/r2/link.lbt
cp notrace.lbt dir/r2/zbad.lbt
run summary dir
[ $rc = 2 ] && [ -s out.txt ] &&
	[ "$(cat err.txt)" = \
		"lbtrace: dir/r2/zbad.lbt: byte 0: not an lbshim trace (bad magic)" ] &&
	ok "a bad trace in a directory" ||
	fail "a bad trace in a directory: exit $rc: $(cat err.txt)"
rm dir/r2/zbad.lbt
# a directory without traces is named
mkdir -p empty/sub
echo x >empty/sub/notes.txt
run print empty basic.lbt
[ $rc = 2 ] && [ -s out.txt ] &&
	[ "$(cat err.txt)" = "lbtrace: empty: no trace file (*.lbt) in it" ] &&
	ok "a directory without traces" ||
	fail "a directory without traces: exit $rc: $(cat err.txt)"

# ab says it in the same words (one code for both).
"$L" print missing.lbt basic.lbt >/dev/null 2>p.err
"$L" ab missing.lbt basic.lbt --vs basic.lbt >/dev/null 2>a.err
head -n 1 a.err | cmp -s - p.err && ok "ab names a missing file as print does" ||
	fail "ab: '$(head -n 1 a.err)', print: '$(cat p.err)'"
"$L" ab empty basic.lbt --vs basic.lbt >/dev/null 2>a.err
grep -qx 'lbtrace: empty: no trace file (\*.lbt) in it' a.err &&
	ok "ab names a directory without traces" ||
	fail "ab and an empty directory: $(cat a.err)"
# a file named twice, or named and found in a directory, is read once
"$L" summary basic.lbt >one.out 2>/dev/null
mkdir -p twice && cp basic.lbt twice/copy.lbt && ln -f basic.lbt twice/hard.lbt
run summary basic.lbt basic.lbt twice
[ $rc = 0 ] && [ "$(grep -c 'read once' err.txt)" = 2 ] &&
	grep -q "^lbtrace: twice/hard.lbt: the same file as basic.lbt, read once$" err.txt &&
	[ "$("$L" summary basic.lbt twice/copy.lbt 2>/dev/null | wc -l)" = "$(wc -l <out.txt)" ] &&
	ok "the same file is read once" ||
	fail "the same file twice: exit $rc: $(cat err.txt)"
# ab's count of files is of those it read, not of those it was given
"$L" ab basic.lbt notrace.lbt hdrcut.lbt missing.lbt --vs basic.lbt \
	>a.out 2>a.err
grep -q '^A: 1 run, 1 file, ' a.out && ok "ab counts the files it read" ||
	fail "ab counted bad files: $(head -n 1 a.out)"
finish
