# lib.sh - shared by tests/tools/lbtrace/test_*.sh: paths, and the generated
# traces in a fresh work directory (the tests cd there, so file names in
# the outputs are short and the same on every machine).
BUILD=${BUILD:-build}
TOP=$(pwd)
L=${LBTRACE:-"$TOP/$BUILD/lbtrace"}
GEN="$TOP/$BUILD/tests/tools/lbtrace/gen_trace"
GOLD="$TOP/tests/tools/lbtrace/golden"
# A work directory per lbtrace under test (named by its folder: build,
# asan): groups lbtrace and lbtrace-asan run these tests at once under -j.
W="$TOP/$BUILD/tests/tools/lbtrace/work.$(basename "$(dirname "$L")").$(basename "$0" .sh)"
rm -rf "$W" && mkdir -p "$W" && cd "$W" || exit 1
for k in basic crash crashblk crashreg hang term ring remap kargs truncated badmagic \
	badversion badblock corruptblk short v2basic v2cuda v2long; do
	"$GEN" $k $k.lbt || { echo "gen_trace $k failed"; exit 1; }
done
"$GEN" multi multi1.lbt multi2.lbt || exit 1
# poke FILE OFFSET HEX...: writes the bytes at OFFSET
poke() {
	pf=$1 po=$2
	shift 2
	ps=
	for b in "$@"; do ps="$ps$(printf '\\%03o' "0x$b")"; done
	# shellcheck disable=SC2059
	printf "$ps" | dd of="$pf" bs=1 seek="$po" conv=notrunc 2>/dev/null
}

# fill FILE OFFSET N CHAR: N bytes CHAR at OFFSET
fill() {
	head -c "$3" /dev/zero | tr '\0' "$4" |
		dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}

# rejected NAME WANT: NAME.lbt alone shows nothing, says WANT, exits 2;
# beside a good file ($REJECT_GOOD), the good file is shown as alone
rejected() {
	"$L" summary "$1.lbt" >out.txt 2>err.txt
	rc=$?
	if [ $rc != 2 ] || [ -s out.txt ] || [ "$(wc -l <err.txt)" != 1 ] ||
		! grep -q "^lbtrace: $1.lbt: $2" err.txt; then
		fail "$1: exit $rc, wanted 2 and '$1.lbt: $2':"
		cat err.txt
		return
	fi
	"$L" print "$1.lbt" "$REJECT_GOOD" >out.txt 2>/dev/null
	rc=$?
	"$L" print "$REJECT_GOOD" >want.txt
	[ $rc = 2 ] && cmp -s want.txt out.txt && ok "$1: $(cat err.txt)" ||
		fail "$1 beside a good file: exit $rc, or not the good one's output"
}

fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }
finish() { [ $fails = 0 ] && echo "all passed" && exit 0; echo "$fails failed"; exit 1; }
