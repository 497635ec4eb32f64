# t_run.sh - lbtrace run: arms alternate (A B A B ..., by run ids, trace
# directories and start times), the documented layout and environment,
# the user's LD_PRELOAD kept after the shim, runs without --ab, and the
# ab table at the end.
. tests/tools/ab/lib.sh
need_cmd run
export LD_LIBRARY_PATH=$HIPEMU
P=$AB/prog_loop
cd "$TMP" || fail "cd"

"$LBTRACE" run -n 3 --ab trace/trace,pool -o out -- "$P" 20 >"$TMP/o" 2>"$TMP/e" ||
	fail "exit $?: $(cat "$TMP/e")"
# Policies and trace directories in launch order.
pol=$(sed -n 's/^env LBSHIM_POLICIES=//p' "$TMP/o" | tr '\n' ' ')
[ "$pol" = "trace trace,pool trace trace,pool trace trace,pool " ] || fail "policies in order: $pol"
dirs=$(sed -n "s|^env LBSHIM_TRACE=$TMP/out/||p" "$TMP/o" | tr '\n' ' ')
[ "$dirs" = "A/001/lbshim.%p.lbt B/001/lbshim.%p.lbt A/002/lbshim.%p.lbt B/002/lbshim.%p.lbt A/003/lbshim.%p.lbt B/003/lbshim.%p.lbt " ] ||
	fail "trace patterns: $dirs"
ids=$(sed -n 's/^env LBSHIM_RUN_ID=//p' "$TMP/o")
[ "$(echo "$ids" | sort -n | uniq | tr '\n' ' ')" = "$(echo "$ids" | tr '\n' ' ')" ] || fail "run ids not increasing: $ids"
[ "$(echo "$ids" | wc -l)" = 6 ] || fail "want 6 run ids: $ids"
for d in A/001 A/002 A/003 B/001 B/002 B/003; do
	ls out/$d/lbshim.*.lbt >/dev/null 2>&1 || fail "no trace in out/$d: $(find out)"
done
for i in 1 2 3 4 5 6; do
	grep -q "^lbtrace run: \[$i/6\] [AB] 00[123]: exit 0" "$TMP/e" || fail "progress line $i: $(cat "$TMP/e")"
done
grep -q '^hipMalloc ' "$TMP/o" || fail "no ab table: $(cat "$TMP/o")"
grep -q '^A: 3 runs' "$TMP/o" || fail "table header: $(cat "$TMP/o")"
# The traces' own record of the order: sorted by start time, A B A B A B,
# and each carries its run's id.
"$LBTRACE" ab --json out/A --vs out/B >"$TMP/j" || fail "ab exit $?"
order=$(json "$TMP/j" '"".join(l for t, l in sorted((r["start_ns"], g["label"]) for g in d["groups"] for r in g["run_list"]))')
[ "$order" = ABABAB ] || fail "runs by start time: $order"
tid=$(json "$TMP/j" '" ".join(str(x[1]) for x in sorted((r["start_ns"], r["run_id"]) for g in d["groups"] for r in g["run_list"]))')
[ "$tid" = "$(echo "$ids" | tr '\n' ' ' | sed 's/ $//')" ] || fail "trace run ids $tid, want $ids"

# The user's LD_PRELOAD stays, after the shim's absolute path.
LD_PRELOAD=$AB/libmarker.so "$LBTRACE" run -n 1 -o pre -- "$P" 5 >"$TMP/o" 2>"$TMP/e" || fail "exit $?"
pre=$(sed -n 's/^env LD_PRELOAD=//p' "$TMP/o")
shim=${pre%% *}
[ "$pre" = "$shim $AB/libmarker.so" ] || fail "LD_PRELOAD: $pre"
case $shim in /*/liblbshim.so) ;; *) fail "shim path not absolute: $shim" ;; esac
[ -f "$shim" ] || fail "no $shim"
[ "$(grep -c 'lbtest-marker: loaded' "$TMP/e")" -ge 1 ] || fail "marker library not loaded"
ls pre/001/lbshim.*.lbt >/dev/null 2>&1 || fail "no trace without --ab: $(find pre)"

# Without --ab: the user's policies, plus trace.
LBSHIM_POLICIES=pool "$LBTRACE" run -n 2 -o plain -- "$P" 5 >"$TMP/o" 2>"$TMP/e" || fail "exit $?"
[ "$(sed -n 's/^env LBSHIM_POLICIES=//p' "$TMP/o" | tr '\n' ' ')" = "trace,pool trace,pool " ] || fail "user policies: $(cat "$TMP/o")"
[ -d plain/001 ] && [ -d plain/002 ] || fail "layout without --ab: $(find plain)"

# Default output directory: a new one each time, never reused.
mkdir cwd && cd cwd || fail cd
"$LBTRACE" run -- "$P" 1 >/dev/null 2>&1 || fail "default -o: exit $?"
"$LBTRACE" run -- "$P" 1 >/dev/null 2>&1 || fail "default -o again: exit $?"
[ "$(ls -d lbtrace-run.* | wc -l)" = 2 ] || fail "want two lbtrace-run.* dirs: $(ls)"
cd "$TMP" || fail cd
echo ok
