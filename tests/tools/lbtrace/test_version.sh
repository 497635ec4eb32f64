#!/bin/sh
# One version, said everywhere (include/lbshim/version.h): lbtrace
# --version, lbtrace --help's usage, the trace header that the real trace
# policy writes (shown by summary and crash) and the shim's start-up line
# at LBSHIM_LOG=info.  A trace from before the field shows none.
. tests/tools/lbtrace/lib.sh
V=$(sed -n 's/^#define LB_VERSION "\(.*\)"$/\1/p' "$TOP/include/lbshim/version.h")
[ -n "$V" ] || { echo "no LB_VERSION in include/lbshim/version.h"; exit 1; }

out=$("$L" --version 2>err.txt); rc=$?
[ $rc = 0 ] && [ "$out" = "lbtrace $V" ] && [ ! -s err.txt ] &&
	ok "--version: lbtrace $V" || fail "--version: exit $rc, '$out'"
"$L" -V | grep -qx "lbtrace $V" && ok "-V" || fail "-V"
"$L" --help | grep -q -- "lbtrace --version" && ok "--help names --version" ||
	fail "--help does not name --version"

# the generated traces: crash.lbt says a version, basic.lbt (older) none
"$L" summary crash.lbt | head -1 | grep -q ', lbshim 9\.8\.7-test,' &&
	ok "summary shows the header's version" || fail "summary: no version"
"$L" summary basic.lbt | head -1 | grep -q 'lbshim' &&
	fail "summary of an old trace shows a version" ||
	ok "no version in an old trace"

SHIM=$TOP/$BUILD/liblbshim.so
PROG=$TOP/$BUILD/trace/tprog
FAKE=$TOP/$BUILD/trace/fake
if [ -x "$PROG" ] && [ -f "$SHIM" ] && [ -f "$FAKE/libamdhip64.so.5" ]; then
	LD_LIBRARY_PATH=$FAKE LD_PRELOAD=$SHIM LBSHIM_POLICIES=trace \
		LBSHIM_LOG=info LBSHIM_TRACE=$W/v.lbt "$PROG" calls \
		>/dev/null 2>info.txt
	grep -qx "lbshim: version $V" info.txt &&
		ok "LBSHIM_LOG=info says the version" ||
		{ fail "LBSHIM_LOG=info: no 'lbshim: version $V'"; cat info.txt; }
	"$L" summary v.lbt | head -1 | grep -q ", lbshim $V," &&
		ok "the real writer's header carries $V" ||
		{ fail "real trace: no version"; "$L" summary v.lbt | head -2; }
	LD_LIBRARY_PATH=$FAKE LD_PRELOAD=$SHIM LBSHIM_POLICIES=trace \
		LBSHIM_TRACE=$W/w.lbt "$PROG" calls >/dev/null 2>warn.txt
	grep -q "version" warn.txt && fail "version said at the default level" ||
		ok "silent at the default level"
else
	echo "shim or trace test programs not built: real-trace part skipped"
fi
finish
