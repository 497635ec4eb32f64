#!/bin/sh
# Golden tests: lbtrace's outputs on generated traces, compared byte for
# byte with tests/tools/lbtrace/golden/NAME.out (stdout) and NAME.err (stderr).
# UPDATE_GOLDEN=1 rewrites the files instead (make lbtrace-golden).
. tests/tools/lbtrace/lib.sh

golden() {
	name=$1; shift
	NO_COLOR=1 "$L" "$@" >"$name.out" 2>"$name.err"
	echo "exit $?" >>"$name.err"
	if [ -n "$UPDATE_GOLDEN" ]; then
		cp "$name.out" "$name.err" "$GOLD/"
		ok "$name (updated)"
		return
	fi
	if cmp -s "$name.out" "$GOLD/$name.out" && cmp -s "$name.err" "$GOLD/$name.err"; then
		ok "$name"
	else
		fail "$name: lbtrace $*"
		diff -u "$GOLD/$name.out" "$name.out" | head -30
		diff -u "$GOLD/$name.err" "$name.err" | head -10
	fi
}

golden basic.print print basic.lbt
golden basic.json print --json basic.lbt
golden basic.summary summary basic.lbt
golden crash.print print crash.lbt
golden crash.json print --json crash.lbt
golden crash.crash crash crash.lbt
golden crashblk.crash crash crashblk.lbt
golden basic.crash crash basic.lbt
golden ring.json print --json ring.lbt
golden ring.summary summary ring.lbt
golden remap.print print remap.lbt
golden remap.json print --json remap.lbt
golden multi.print print multi1.lbt multi2.lbt
golden multi.summary summary multi1.lbt multi2.lbt
golden truncated.print print truncated.lbt
golden corruptblk.summary summary corruptblk.lbt
golden kargs.print print kargs.lbt
golden kargs.json print --json kargs.lbt
golden kargs.chrome export --format chrome -o - kargs.lbt
golden filter.api print --api 'hipMemcpy*' basic.lbt
golden filter.kernel print --json --kernel 'transpose*' basic.lbt
golden filter.tid print --tid 4243 basic.lbt
golden filter.errors print --errors basic.lbt crash.lbt
golden filter.last print --last 3 basic.lbt
golden filter.summary summary --api 'hipMemcpy*' --tid 4242 basic.lbt
golden crash.calls crash --calls 2 crash.lbt
golden crashreg.crash crash --calls 5 crashreg.lbt
golden crashreg.regs crash --calls 5 --registrations crashreg.lbt
golden crashreg.json print --json --errors crashreg.lbt
golden hang.crash crash hang.lbt
golden hang.print print hang.lbt
golden hang.json print --json hang.lbt
golden hang.summary summary hang.lbt
golden term.crash crash term.lbt
golden term.json print --json term.lbt
# calls in flight drawn up to the last moment the trace knows (as crash
# counts their wait), marked in_flight
golden hang.chrome export --format chrome -o - hang.lbt
golden term.chrome export --format chrome -o - term.lbt
golden v2basic.summary summary v2basic.lbt
golden v2long.summary summary v2long.lbt
golden v2cuda.crash crash v2cuda.lbt
finish
