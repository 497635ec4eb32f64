#!/bin/sh
# asan: no - valgrind cannot run an ASan binary; lbtrace-asan covers the
# same commands under ASan+UBSan
# lbtrace print / summary / crash / export under valgrind memcheck: no
# invalid access, no leak.
. tests/tools/lbtrace/lib.sh
command -v valgrind >/dev/null || { echo "valgrind not installed"; exit 77; }
vg="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect"
for args in "print basic.lbt" "print --json --last 5 crash.lbt basic.lbt" \
	"summary basic.lbt ring.lbt" "crash crash.lbt" "crash hang.lbt term.lbt" \
	"export --format chrome -o x.json basic.lbt" "print truncated.lbt" \
	"export --svg x.svg --window 0,1 basic.lbt crash.lbt hang.lbt" \
	"export --svg x.svg --last 5 --tid 4242 basic.lbt" \
	"print corruptblk.lbt" "print badmagic.lbt" \
	"crash missing.lbt badmagic.lbt short.lbt crash.lbt" "summary ." \
	"summary v2long.lbt v2basic.lbt basic.lbt" "crash v2cuda.lbt"; do
	$vg "$L" $args >/dev/null 2>vg.txt
	rc=$?
	if [ $rc = 99 ] || grep -q '^==' vg.txt; then
		fail "memcheck: lbtrace $args"; cat vg.txt
	else
		ok "memcheck: lbtrace $args (exit $rc)"
	fi
done
finish
