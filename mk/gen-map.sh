#!/bin/sh
# gen-map.sh CC DEF [EXTRA] - a linker version script, on stdout, for the
# shim, hipemu and the tests' fake runtime.
#
# The symbols are hip_api.def's rows (LB_API_AS rows by their exported
# symbol) plus EXTRA, lines of "name version" for functions exported beyond
# the .def (hipemu's, the fake runtime's test hooks).  Like the real runtime, each node hip_X
# inherits the one before it; the ROCm 5.2 chain hip_4.2 ... hip_5.2 is
# always present, newer versions of optional rows follow it.
# An EXTRA line "name -" exports name unversioned, in no node (the shim's
# dlopen: a versioned reference such as dlopen@GLIBC_2.34 binds to an
# unversioned definition); such a map has no "local: *", the hidden
# visibility of everything else keeps it in (tests/shim/t_exports.sh).
set -e
cc=$1 def=$2 extra=$3
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
{
	printf '#define LB_API(R, N, P, A, S, K, V, F) N V\n'
	printf '#define LB_API_AS(SYM, R, N, P, A, S, K, V, F) SYM V\n'
	printf '#include "%s"\n' "$def"
} | $cc -E -P -x c - | tr -s ' \t' '\n\n' | grep -v '^$' |
	paste -d ' ' - - | tr -d '"' >"$tmp"
if [ -n "$extra" ]; then
	grep -v '^#' "$extra" | grep -v '^[[:space:]]*$' >>"$tmp"
fi
unversioned=$(awk '$2 == "-"' "$tmp")
sed -i '/ -$/d' "$tmp"
for v in 4.2 4.3 4.4 4.5 5.0 5.1 5.2; do echo "_ $v"; done >>"$tmp"
versions=$(awk '{ print $2 }' "$tmp" | sort -u -V)
prev=""
for v in $versions; do
	echo "hip_$v {"
	syms=$(awk -v v="$v" '$2 == v && $1 != "_" { print $1 }' "$tmp" | sort -u)
	if [ -n "$syms" ]; then
		echo "  global:"
		for s in $syms; do echo "    $s;"; done
	fi
	[ -z "$prev" ] && [ -z "$unversioned" ] && printf '  local:\n    *;\n'
	if [ -n "$prev" ]; then echo "} hip_$prev;"; else echo "};"; fi
	prev=$v
done
