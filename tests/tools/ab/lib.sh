# lib.sh - helpers for the ab group's shell tests (sourced).
# Environment: BUILD (default build); LBTRACE, the lbtrace to test
# (default $BUILD/lbtrace; tests/tools/ab/ab_main works too, see mk/ab.mk).
set -u
: "${BUILD:=build}"
ROOT=$PWD
B=$ROOT/$BUILD
: "${LBTRACE:=$B/lbtrace}"
case $LBTRACE in /*) ;; *) LBTRACE=$ROOT/$LBTRACE ;; esac
AB=$B/tests/tools/ab
GEN=$AB/gen
HIPEMU=$B/hipemu
TMP=$(mktemp -d "${TMPDIR:-/tmp}/lbshim-ab.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
unset LBSHIM_POLICIES LBSHIM_LOG LBSHIM_TRACE LBSHIM_TRACE_LIVE HIP_TRACE_API \
	LBSHIM_HIP_LIBRARY LBSHIM_RUN_ID LD_PRELOAD HIPEMU_PROFILE \
	HIPEMU_KERNELS 2>/dev/null || true

# The interpreter itself: a pyenv shim costs half a second a start.
PY=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null) || PY=python3

fail() {
	echo "FAIL: $*"
	exit 1
}

# need_cmd CMD: skip (77) until lbtrace has the command CMD.
need_cmd() {
	if ! "$LBTRACE" "$1" --help >/dev/null 2>&1; then
		echo "skip: '$LBTRACE $1 --help' fails: ab/run not hooked into lbtrace yet"
		exit 77
	fi
}

# json FILE EXPR: evaluates the Python expression EXPR with d = the JSON
# document in FILE; prints the result.
json() {
	"$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

# expect_true FILE EXPR WHAT: fails unless EXPR is true of FILE's JSON.
expect_true() {
	r=$(json "$1" "$2") || fail "$3: cannot evaluate $2"
	[ "$r" = True ] || fail "$3: $2 is $r ($(head -c 2000 "$1"))"
}

# svg_ok FILE: FILE is well-formed XML with an <svg> root.
svg_ok() {
	"$PY" -c 'import xml.dom.minidom,sys; d=xml.dom.minidom.parse(sys.argv[1]); assert d.documentElement.tagName=="svg"' "$1" ||
		fail "$1 is not well-formed SVG"
}
