#!/bin/sh
# gen-map.sh [-u | -p VERSION] CC DEF [EXTRA] - a linker version script, on
# stdout, for the shim, hipemu and the tests' fake runtimes.
#
# The symbols are hip_api.def's rows (LB_API_AS rows by their exported
# symbol) plus EXTRA, lines of "name version" for functions exported beyond
# the .def (hipemu's, the fake runtime's test hooks).
#
#   (default)   every symbol under its node; each node hip_X inherits the
#               one before it, as in the real runtime; the ROCm 5.2 chain
#               hip_4.2 ... hip_5.2 is always present.
#   -u          one anonymous node: unversioned definitions (the shim).
#               glibc binds a versioned reference to an unversioned
#               definition (elf/dl-lookup.c check_match: a definition
#               whose version index has no hash, VER_NDX_GLOBAL, matches
#               any version that is not hidden), so a program linked
#               against any runtime, whatever node it names, binds to the
#               preloaded shim: no node can be wrong or too new.
#   -p VERSION  the layout of that ROCm release, from mk/rocm-layouts.txt:
#               exactly its nodes, and only the symbols it exports.
set -e
mode=all
prof=
case $1 in
-u) mode=unversioned; shift ;;
-p) mode=profile; prof=$2; shift 2 ;;
esac
cc=$1 def=$2 extra=$3
facts=$(dirname "$0")/rocm-layouts.txt
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
# name node opt(0/1)
{
	printf '#define LB_API(R, N, P, A, S, K, V, F, T, ...) @ N V F\n'
	printf '#define LB_API_AS(Y, R, N, P, A, S, K, V, F, T, ...) @ Y V F\n'
	printf '#include "%s"\n' "$def"
} | $cc -E -P -x c - | tr '\n@' ' \n' | tr -d '"' |
	awk 'NF >= 2 { print $1, $2, ($0 ~ /LB_F_OPT/) ? 1 : 0 }' >"$tmp"
if [ -n "$extra" ]; then
	grep -v '^#' "$extra" | grep -v '^[[:space:]]*$' |
		awk '{ print $1, $2, 0 }' >>"$tmp"
fi

if [ "$mode" = unversioned ]; then
	echo "{"
	echo "  global:"
	awk '{ print "    " $1 ";" }' "$tmp" | sort -u
	printf '  local:\n    *;\n};\n'
	exit 0
fi

if [ "$mode" = profile ]; then
	nodes=$(awk -v p="$prof" '$1 == "layout" && $2 == p {
		for (i = 4; i <= NF; i++) print $i }' "$facts")
	if [ -z "$nodes" ]; then
		echo "gen-map.sh: no layout $prof in $facts" >&2
		exit 1
	fi
	# Keep a symbol if the release exports it: 5.2 is the installed
	# runtime (rows absent from it are LB_F_OPT, checked against it by
	# tests/shim/check_table.c); later releases export a symbol from its
	# node on, unless a span line says otherwise.
	awk -v p="$prof" -v facts="$facts" '
	function vnum(v, a) { split(v, a, "."); return a[1] * 100 + a[2] }
	BEGIN {
		while ((getline l < facts) > 0) {
			n = split(l, f, " ")
			if (f[1] == "span") { lo[f[2]] = f[3]; hi[f[2]] = f[4] }
		}
		pv = vnum(p)
	}
	{
		if (p == "5.2") { if ($3 == 0) print $1, $2; next }
		if ($1 in lo) {
			if (pv < vnum(lo[$1])) next
			if (hi[$1] != "-" && pv > vnum(hi[$1])) next
		} else if (vnum($2) > pv)
			next
		print $1, $2
	}' "$tmp" >"$tmp.k"
	mv "$tmp.k" "$tmp"
	# Every symbol must sit in one of the release's nodes.
	bad=$(awk -v ns=" $(echo $nodes) " '
		index(ns, " " $2 " ") == 0 { print $1 "@hip_" $2 }' "$tmp")
	if [ -n "$bad" ]; then
		echo "gen-map.sh: not a node of ROCm $prof: $bad" >&2
		exit 1
	fi
	versions=$nodes
else
	awk '{ print $1, $2 }' "$tmp" >"$tmp.k"
	mv "$tmp.k" "$tmp"
	for v in 4.2 4.3 4.4 4.5 5.0 5.1 5.2; do echo "_ $v"; done >>"$tmp"
	versions=$(awk '{ print $2 }' "$tmp" | sort -u -V)
fi

prev=""
for v in $versions; do
	echo "hip_$v {"
	syms=$(awk -v v="$v" '$2 == v && $1 != "_" { print $1 }' "$tmp" | sort -u)
	if [ -n "$syms" ]; then
		echo "  global:"
		for s in $syms; do echo "    $s;"; done
	fi
	[ -z "$prev" ] && printf '  local:\n    *;\n'
	if [ -n "$prev" ]; then echo "} hip_$prev;"; else echo "};"; fi
	prev=$v
done
