#!/bin/sh
# gen-map.sh DEF [EXTRA] - a linker version script from hip_api.def (and an
# optional file of "version symbol" lines): one node per HIP version, each
# inheriting the one before, like the ROCm runtime's own.
def=$1; extra=$2
{
	printf '#define LB_API(R, N, P, A, S, K, V, F) LBSYM V N\n'
	printf '#define LB_API_AS(SYM, R, N, P, A, S, K, V, F) LBSYM V SYM\n'
	cat "$def"
} | cpp -P -undef - | tr -s ' \t\n' ' ' | sed 's/LBSYM/\n/g' |
	awk 'NF >= 2 { gsub(/"/, "", $1); gsub(/"/, "", $2); print $1, $2 }' \
	>"${TMPDIR:-/tmp}/lbmap.$$"
[ -n "$extra" ] && grep -v '^#' "$extra" | awk 'NF == 2' >>"${TMPDIR:-/tmp}/lbmap.$$"
sort -u "${TMPDIR:-/tmp}/lbmap.$$" | sort -s -t. -k1,1n -k2,2n | awk '
	{ syms[$1] = syms[$1] "\t\t" $2 ";\n"; if (!($1 in seen)) { seen[$1] = 1; order[n++] = $1 } }
	END {
		prev = ""
		for (i = 0; i < n; i++) {
			v = order[i]
			printf "hip_%s {\n\tglobal:\n%s", v, syms[v]
			if (i == 0) printf "\tlocal:\n\t\t*;\n"
			printf "}%s;\n", prev == "" ? "" : " hip_" prev
			prev = v
		}
	}'
rm -f "${TMPDIR:-/tmp}/lbmap.$$"
