# t_spt.sh - per-thread builds with current headers: prog_spt.c built
# against the 6.4 and 7.2 headers (libamdhip64-dev of the set) with
# HIP_API_PER_THREAD_DEFAULT_STREAM and linked to that real runtime
# references exactly the release's _spt functions (mk/rocm-layouts.txt's
# spt line), each of them binds to the shim (LD_DEBUG=bindings), the
# trace records each call under its _spt name, and the answers are the
# runtime's own under every policy set.
. tests/realrocm/lib.sh
rr_need 6.4 7.2
for s in 6.4 7.2; do
	d=$TMP/$s
	mkdir -p "$d"
	rr_cc "$s" "$d/spt" tests/realrocm/prog_spt.c \
		-DHIP_API_PER_THREAD_DEFAULT_STREAM -I"$(rr_root "$s")/usr/include"
	awk -v r="$s" '$1 == "spt" && $2 == r {
		for (i = 3; i <= NF; i++) print $i }' mk/rocm-layouts.txt |
		sort >"$d/want"
	nm -D --undefined-only "$d/spt" | awk '{ s = $2; sub(/@.*/, "", s);
		if (s ~ /^hip/) print s }' | sort >"$d/refs"
	diff "$d/want" "$d/refs" >"$d/diff" ||
		fail "$s: references (< the release's _spt, > the program's): $(cat "$d/diff")"
	n=$(wc -l <"$d/refs")
	rr_run "$s" "$d/spt" >"$d/plain" 2>&1 || fail "$s: $(tail -3 "$d/plain")"
	LD_DEBUG=bindings rr_shim "$s" "$d/spt" >/dev/null 2>"$d/bindings" ||
		fail "$s: with the shim, LD_DEBUG=bindings"
	sed -n "s/.*binding file [^ ]*spt \[0\] to \([^ ]*\) \[0\]: normal symbol \`\(hip[A-Za-z0-9_]*\)'.*/\2 \1/p" \
		"$d/bindings" | sort -u >"$d/bound"
	awk '{ print $1 }' "$d/bound" | sort -u >"$d/bound.names"
	diff "$d/refs" "$d/bound.names" >"$d/diff" ||
		fail "$s: bindings seen (< references, > bound): $(cat "$d/diff")"
	past=$(awk -v shim="$SHIM" '$2 != shim' "$d/bound")
	[ -z "$past" ] || fail "$s: not bound to the shim: $past"
	for p in none trace stream0 pool all; do
		LBSHIM_POLICIES=$p LBSHIM_TRACE=$d/$p.%p.lbt \
			rr_shim "$s" "$d/spt" >"$d/$p" 2>"$d/$p.err" ||
			fail "$s, $p: exit $?: $(tail -3 "$d/$p.err")"
		diff "$d/plain" "$d/$p" >"$d/diff" ||
			fail "ROCm $s, LBSHIM_POLICIES=$p: answers differ: $(head "$d/diff")"
	done
	"$B/lbtrace" print --json "$d"/trace.*.lbt >"$d/json" ||
		fail "$s: lbtrace print"
	sed -n 's/.*"api":"\([^"]*\)".*"ret":\([0-9-]*\),.*/\1 \2/p' "$d/json" |
		sort >"$d/traced"
	sed 's/ .*/_spt/' "$d/plain" | paste -d ' ' - "$d/plain" |
		awk '{ print $1, $3 }' | sort >"$d/want.traced"
	diff "$d/want.traced" "$d/traced" >"$d/diff" ||
		fail "$s: trace (< the calls as _spt, > recorded): $(head "$d/diff")"
	echo "ROCm $s headers: $n _spt references, each bound to the shim" \
		"and traced under its _spt name"
done
exit 0
