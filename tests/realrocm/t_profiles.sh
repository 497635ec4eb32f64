# t_profiles.sh - what hipemu's profiles and the stand-in layouts claim
# of a release (mk/rocm-layouts.txt), against the real runtime of that
# release where both answer:
#   - the version nodes it defines (readelf -V) and its soname;
#   - every row of hip_api.def it exports, under which node (the layout's
#     rows: gen-map.sh -p, which builds the profiles and t_layouts.sh's
#     stand-ins), none more, none fewer;
#   - its per-thread (_spt) functions (the layout's spt line);
#   - hipRuntimeGetVersion, against hipemu's profile of that release
#     (5.7, 7.2; 6.4 has none).
# Without a device the real runtime answers every other call with an
# error hipemu (which always has one) does not give: nothing to compare.
. tests/realrocm/lib.sh
rr_need $RR_SETS
L=mk/rocm-layouts.txt
sh mk/gen-map.sh -u cc include/lbshim/hip_api.def |
	awk '/;$/ && !/\*/ && !/^}/ { s = $1; sub(/;/, "", s); print s }' |
	sort >"$TMP/rows"
for s in $RR_SETS; do
	so=$(rr_soname "$s")
	rt=$(rr_root "$s")/usr/lib/x86_64-linux-gnu/$so
	expect_eq "$s: soname" \
		"$(readelf -d "$rt" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')" \
		"$(awk -v r="$s" '$1 == "layout" && $2 == r { print $3 }' $L)"
	awk -v r="$s" '$1 == "layout" && $2 == r {
		for (i = 4; i <= NF; i++) print "hip_" $i }' $L >"$TMP/nodes.want"
	readelf -V "$rt" | sed -n '/Version definition/,/Version needs/p' |
		grep -v 'Flags: BASE' |
		sed -n 's/.*Name: \(hip_[0-9.]*\).*/\1/p' >"$TMP/nodes.got"
	diff "$TMP/nodes.want" "$TMP/nodes.got" >"$TMP/d" ||
		fail "$s: version nodes (< layout, > runtime): $(cat "$TMP/d")"
	sh mk/gen-map.sh -p "$s" cc include/lbshim/hip_api.def |
		awk '/^hip_/ { v = $1 } /;$/ && !/\*/ && !/^}/ {
			s = $1; sub(/;/, "", s); print s, v }' |
		sort >"$TMP/rows.want"
	nm -D --defined-only "$rt" | awk '$3 ~ /@/ {
		n = split($3, b, "@"); print b[1], b[n] }' | sort -u |
		join "$TMP/rows" - >"$TMP/rows.got"
	diff "$TMP/rows.want" "$TMP/rows.got" >"$TMP/d" ||
		fail "$s: rows exported (< layout, > runtime): $(head -10 "$TMP/d")"
	awk -v r="$s" '$1 == "spt" && $2 == r {
		for (i = 3; i <= NF; i++) print $i }' $L | sort >"$TMP/spt.want"
	nm -D --defined-only "$rt" | awk '{ s = $3; sub(/@.*/, "", s);
		if (s ~ /_spt$/) print s }' | sort -u >"$TMP/spt.got"
	diff "$TMP/spt.want" "$TMP/spt.got" >"$TMP/d" ||
		fail "$s: _spt functions (< layout, > runtime): $(cat "$TMP/d")"
	line="ROCm $s: $(wc -l <"$TMP/nodes.got") nodes, $(wc -l <"$TMP/rows.got") rows, $(wc -l <"$TMP/spt.got") _spt as the layout says"
	emu=$RR_EMU/$s/$so
	if [ -e "$emu" ]; then
		ver() { python3 -c "import ctypes, sys
v = ctypes.c_int(-1)
r = ctypes.CDLL(sys.argv[1]).hipRuntimeGetVersion(ctypes.byref(v))
print(r, v.value)" "$1"; }
		want=$(rr_run "$s" /usr/bin/python3 -c "import ctypes, sys
v = ctypes.c_int(-1)
r = ctypes.CDLL(sys.argv[1]).hipRuntimeGetVersion(ctypes.byref(v))
print(r, v.value)" "$rt") || fail "$s: version of the runtime"
		got=$(ver "$emu") || fail "$s: version of hipemu's profile"
		expect_eq "$s: hipRuntimeGetVersion, hipemu's profile" "$got" "$want"
		line="$line; hipemu's profile reports $want too"
	fi
	echo "$line"
done
exit 0
