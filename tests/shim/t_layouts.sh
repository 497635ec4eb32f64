# t_layouts.sh - a program linked against each real ROCm layout (5.2, 5.7,
# 6.2, 6.4, 7.x: mk/rocm-layouts.txt, nodes from clr's hip_hcc.map.in and
# the real runtimes, tests/realrocm/t_profiles.sh) has every
# reference to a row of hip_api.def bound to the preloaded shim, whatever
# node the reference names.  Stand-in runtimes get exactly the layout's
# nodes and symbols, so the program's references carry them (checked).
# Controls: a preload object defining the same symbols under a node no
# runtime has (hip_9.9) is bypassed by every reference (a versioned
# definition must match: glibc elf/dl-lookup.c check_match), and the same
# object with unversioned definitions catches every reference (a
# definition without a version hash matches any non-hidden version).
. tests/shim/lib.sh
cc=${CC:-cc}
def=include/lbshim/hip_api.def
nrows=$(sh mk/gen-map.sh -u "$cc" $def |
	awk '/;$/ && !/\*/ && !/^}/' | wc -l)

build_layout() {	# build_layout REL -> $TMP/REL/{libamdhip64.so.N,prog}
	d=$TMP/$1
	mkdir -p "$d"
	soname=$(awk -v r="$1" '$1 == "layout" && $2 == r { print $3 }' \
		mk/rocm-layouts.txt)
	[ -n "$soname" ] || fail "no layout $1"
	sh mk/gen-map.sh -p "$1" "$cc" $def >"$d/map" || fail "gen-map -p $1"
	sh tests/shim/layout_gen.sh runtime "$d/map" >"$d/rt.c"
	sh tests/shim/layout_gen.sh prog "$d/map" >"$d/prog.c"
	$cc -shared -fPIC -o "$d/$soname" "$d/rt.c" -Wl,-soname,"$soname" \
		-Wl,--version-script="$d/map" || fail "stand-in $1"
	ln -sf "$soname" "$d/libamdhip64.so"
	$cc -fPIE -pie -o "$d/prog" "$d/prog.c" -L"$d" -lamdhip64 -ldl ||
		fail "program $1"
	# The program's references name the layout's nodes.
	awk '/^hip_/ { v = $1 } /;$/ && !/\*/ && !/^}/ {
		s = $1; sub(/;/, "", s); print s " (" v ")" }' "$d/map" |
		sort >"$d/want"
	objdump -T "$d/prog" | awk '$2 == "DF" || $4 == "*UND*" || /UND/' |
		awk '$NF !~ /GLIBC/ && $(NF-1) ~ /^\(?hip_/ {
			v = $(NF-1); gsub(/[()]/, "", v); print $NF " (" v ")" }' |
		sort >"$d/got"
	diff "$d/want" "$d/got" >"$d/diff" ||
		fail "$1: references do not carry the layout's nodes: $(head -5 "$d/diff")"
}

# control preload objects: all rows, under hip_9.9, and unversioned
sh mk/gen-map.sh -u "$cc" $def >"$TMP/u.map"
sh tests/shim/layout_gen.sh runtime "$TMP/u.map" >"$TMP/ctl.c"
sed 's/^{/hip_9.9 {/' "$TMP/u.map" >"$TMP/v.map"
$cc -shared -fPIC -o "$TMP/libwrong.so" "$TMP/ctl.c" \
	-Wl,--version-script="$TMP/v.map" || fail "control build"
$cc -shared -fPIC -o "$TMP/libplain.so" "$TMP/ctl.c" \
	-Wl,--version-script="$TMP/u.map" || fail "control build"

for rel in 5.2 5.7 6.2 6.4 7.2; do
	build_layout $rel
	d=$TMP/$rel
	n=$(wc -l <"$d/want")
	[ "$n" -gt 0 ] || fail "$rel: no rows in the layout"
	LD_LIBRARY_PATH=$d LD_PRELOAD=$TMP/libwrong.so "$d/prog" \
		"$TMP/libwrong.so" >"$d/out.wrong"
	grep -q "^bound 0 of $n\$" "$d/out.wrong" ||
		fail "$rel: a hip_9.9 definition caught references: $(tail -1 "$d/out.wrong")"
	LD_LIBRARY_PATH=$d LD_PRELOAD=$TMP/libplain.so "$d/prog" \
		"$TMP/libplain.so" >"$d/out.plain"
	grep -q "^bound $n of $n\$" "$d/out.plain" ||
		fail "$rel: unversioned control: $(head -3 "$d/out.plain")"
	LD_LIBRARY_PATH=$d with_shim "$d/prog" "$SHIM" >"$d/out.shim"
	grep -q "^bound $n of $n\$" "$d/out.shim" ||
		fail "$rel: references past the shim: $(head -5 "$d/out.shim")"
	echo "$rel: $n of $nrows rows in the layout, all bound to the shim"
done
# The four rows whose nodes were wrong, as the 6.2 and 7.x programs name
# them (6.2 map: hipGetProcAddress in hip_6.1, the C-named launches in
# hip_4.2, hipEventRecord_spt in hip_5.2).
for s in 'hipGetProcAddress (hip_6.1)' 'hipExtModuleLaunchKernel (hip_4.2)' \
	'hipHccModuleLaunchKernel (hip_4.2)' 'hipEventRecord_spt (hip_5.2)'; do
	grep -qxF "$s" "$TMP/6.2/got" || fail "6.2 program lacks $s"
	grep -qxF "$s" "$TMP/7.2/got" || fail "7.x program lacks $s"
done
