# t_binding.sh - a program linked against each real runtime, referencing
# every row of hip_api.def that runtime exports (tests/shim/layout_gen.sh,
# as t_layouts.sh does with stand-ins), names in each reference the node
# the runtime defines it under, and has every reference bound to the
# preloaded shim; without the shim, to the runtime.
. tests/realrocm/lib.sh
rr_need $RR_SETS
cc=${CC:-cc}
sh mk/gen-map.sh -u "$cc" include/lbshim/hip_api.def |
	awk '/;$/ && !/\*/ && !/^}/ { s = $1; sub(/;/, "", s); print s }' |
	sort >"$TMP/rows"
for s in $RR_SETS; do
	d=$TMP/$s
	mkdir -p "$d"
	so=$(rr_soname "$s")
	lib=$(rr_root "$s")/usr/lib/x86_64-linux-gnu
	# "symbol (node)" of every row the runtime exports
	nm -D --defined-only "$lib/$so" | awk '$3 ~ /@/ {
		n = split($3, b, "@"); print b[1], b[n] }' | sort -u |
		join "$TMP/rows" - >"$d/exported"
	n=$(wc -l <"$d/exported")
	[ "$n" -gt 100 ] || fail "$s: only $n rows exported?"
	awk '{ print "    " $1 ";" }' "$d/exported" >"$d/map"
	sh tests/shim/layout_gen.sh prog "$d/map" >"$d/prog.c"
	$cc -o "$d/prog" "$d/prog.c" -L"$lib" -Wl,--allow-shlib-undefined \
		-l:"$so" -ldl || fail "$s: program"
	# Its references name the runtime's nodes.
	awk '{ print $1 " (" $2 ")" }' "$d/exported" | sort >"$d/want"
	objdump -T "$d/prog" | awk '/UND/ && $(NF-1) ~ /^\(?hip_/ {
		v = $(NF-1); gsub(/[()]/, "", v); print $NF " (" v ")" }' |
		sort >"$d/got"
	diff "$d/want" "$d/got" >"$d/diff" ||
		fail "$s: references and the runtime's nodes differ: $(head -5 "$d/diff")"
	rr_run "$s" "$d/prog" "$lib/$so" >"$d/out.plain" ||
		fail "$s: without the shim: $(tail -3 "$d/out.plain")"
	grep -qx "bound $n of $n" "$d/out.plain" ||
		fail "$s: without the shim: $(head -3 "$d/out.plain")"
	rr_shim "$s" "$d/prog" "$SHIM" >"$d/out.shim" ||
		fail "$s: with the shim: $(tail -3 "$d/out.shim")"
	grep -qx "bound $n of $n" "$d/out.shim" ||
		fail "$s: references past the shim: $(head -5 "$d/out.shim")"
	echo "ROCm $s: $n rows under $(awk '{ print $2 }' "$d/exported" |
		sort -u | wc -l) nodes, every reference bound to the shim"
done
exit 0
