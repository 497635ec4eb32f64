# t_run_notrace.sh - lbtrace run says when a run wrote no trace, and why
# when it can tell: a program that never calls HIP, one that drops
# LD_PRELOAD before it does, a statically linked one, a setuid one (as
# root only: a setuid program of root's own is not run in secure mode),
# a Python program that calls HIP through ctypes.CDLL.
# A run that wrote its trace says nothing of the kind.
. tests/tools/ab/lib.sh
need_cmd run
export LD_LIBRARY_PATH=$HIPEMU
P=$AB/prog_loop
cd "$TMP" || fail "cd"

"$LBTRACE" run -o traced -- "$P" 3 >/dev/null 2>"$TMP/e" || fail "traced run: exit $?"
grep -q 'no trace' "$TMP/e" && fail "a traced run says 'no trace': $(cat "$TMP/e")"

# No HIP call at all; every run is named, the reason said once.
"$LBTRACE" run -n 2 -o nohip -- sh -c 'exit 0' >/dev/null 2>"$TMP/e" ||
	fail "no-HIP run: exit $?"
grep -q '^lbtrace run: \[1/2\] 001: exit 0, .* s, no trace$' "$TMP/e" &&
	grep -q '^lbtrace run: \[2/2\] 002: exit 0, .* s, no trace$' "$TMP/e" ||
	fail "runs without a trace not marked: $(cat "$TMP/e")"
[ "$(grep -c 'wrote no trace' "$TMP/e")" = 1 ] || fail "reason not said once: $(cat "$TMP/e")"
grep -q '^lbtrace run: 2 of 2 runs wrote no trace: sh made no HIP call through the shim' "$TMP/e" ||
	fail "no-HIP reason: $(cat "$TMP/e")"

# HIP calls, but the shim is not in the process: LD_PRELOAD dropped.
"$LBTRACE" run -o dropped -- env -u LD_PRELOAD "$P" 3 >/dev/null 2>"$TMP/e" ||
	fail "dropped run: exit $?"
grep -q '1 of 1 run wrote no trace: env made no HIP call through the shim (it never called HIP, or liblbshim.so was not loaded' "$TMP/e" ||
	fail "LD_PRELOAD dropped: $(cat "$TMP/e")"

# Python calling HIP through ctypes.CDLL: the calls bypass the shim (dlsym
# on the runtime's own handle); the likely cause and the recipe are named,
# for a script, a -c string and a script run by its #! line.  A Python
# program without ctypes gets the general reason plus the ctypes hint.
cat >ct.py <<'X'
import ctypes
hip = ctypes.CDLL("libamdhip64.so.5")
p = ctypes.c_void_p()
assert hip.hipMalloc(ctypes.byref(p), ctypes.c_size_t(64)) == 0
X
{ echo "#!$PY"; cat ct.py; } >ctexe && chmod +x ctexe
for how in script dash-c shebang; do
	case $how in
	script) set -- "$PY" ct.py ;;
	dash-c) set -- "$PY" -c "$(cat ct.py)" ;;
	shebang) set -- ./ctexe ;;
	esac
	"$LBTRACE" run -o "ct-$how" -- "$@" >/dev/null 2>"$TMP/e" ||
		fail "ctypes run ($how): exit $?: $(cat "$TMP/e")"
	grep -q "wrote no trace: .* made no HIP call through the shim: it calls HIP through ctypes.CDLL(...), which looks each function up on the runtime's own handle, and that bypasses the preloaded shim; .*ctypes.CDLL(None) (the README's ctypes recipe" "$TMP/e" ||
		fail "ctypes ($how): $(cat "$TMP/e")"
done
"$LBTRACE" run -o pynohip -- "$PY" -c 'pass' >/dev/null 2>"$TMP/e" ||
	fail "python without HIP: exit $?"
grep -q "made no HIP call through the shim (it never called HIP, .*; or it calls HIP through Python's ctypes.CDLL(...), whose calls bypass the shim: see the README's ctypes recipe)" "$TMP/e" ||
	fail "python without ctypes: $(cat "$TMP/e")"

# No loader: certain, and said so.
"$LBTRACE" run -o static -- "$AB/prog_static" >/dev/null 2>"$TMP/e" ||
	fail "static run: exit $?"
grep -q "wrote no trace: liblbshim.so was not loaded into $AB/prog_static (it is statically linked" "$TMP/e" ||
	fail "static program: $(cat "$TMP/e")"

# setuid to another user: the loader runs it in secure mode.
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
	cp /bin/true "$TMP/sutrue" && chown nobody "$TMP/sutrue" &&
		chmod 4755 "$TMP/sutrue" || fail "setuid copy"
	chmod 755 "$TMP"
	"$LBTRACE" run -o suid -- "$TMP/sutrue" >/dev/null 2>"$TMP/e" ||
		fail "setuid run: exit $?"
	if grep -q "$(df -P "$TMP" | awk 'NR == 2 { print $6 }') .*nosuid" /proc/mounts; then
		echo "$TMP is on a nosuid mount: setuid part not asserted"
	else
		grep -q "not loaded into $TMP/sutrue (it is setuid or setgid" "$TMP/e" ||
			fail "setuid program: $(cat "$TMP/e")"
	fi
fi

# A command that cannot start is named as such, not as "no trace".
"$LBTRACE" run -o nx -- "$TMP/no-such-program" >/dev/null 2>"$TMP/e"
grep -q 'no trace' "$TMP/e" && fail "missing command called 'no trace': $(cat "$TMP/e")"
echo ok
