# Which threads remap mode moves: LBSHIM_STREAM0_THREADS and _EXCLUDE
# (thread-name globs, defaults '*' and 'pt_autograd_*').  The name is read
# at the thread's first null-stream call: a later rename moves nothing.
. tests/policies/stream0/lib.sh
P=$D/s0_pt
perthread "$P" rename >"$T/o" 2>"$T/e" || { cat "$T/o" "$T/e"; fail "default"; }
grep -q "rename: before own, after own" "$T/o" || fail "default: $(cat "$T/o")"
grep -q "pt_autograd_0 from the start: legacy" "$T/o" ||
	fail "default: pt_autograd_0 was remapped"
legacy "$P" rename >"$T/o" 2>&1 || fail "legacy"
grep -q "rename: before legacy, after legacy" "$T/o" || fail "legacy: $(cat "$T/o")"
# only threads named cam*: the worker stays legacy
LBSHIM_STREAM0_THREADS='cam*,imu*' perthread "$P" rename >"$T/o" 2>&1 || fail "THREADS"
grep -q "rename: before legacy, after legacy" "$T/o" || fail "THREADS: $(cat "$T/o")"
# exclude nothing: the autograd thread is remapped too
LBSHIM_STREAM0_EXCLUDE= perthread "$P" rename >"$T/o" 2>&1 || fail "EXCLUDE="
grep -q "pt_autograd_0 from the start: own" "$T/o" || fail "EXCLUDE=: $(cat "$T/o")"
LBSHIM_STREAM0_EXCLUDE='work*' perthread "$P" rename >"$T/o" 2>&1 || fail "EXCLUDE"
grep -q "rename: before legacy, after legacy" "$T/o" || fail "EXCLUDE: $(cat "$T/o")"
# blanks around a list's entries are not part of the globs
LBSHIM_STREAM0_EXCLUDE=' imu*, work* ' perthread "$P" rename >"$T/o" 2>"$T/e" ||
	fail "EXCLUDE with blanks"
grep -q "rename: before legacy, after legacy" "$T/o" ||
	fail "EXCLUDE with blanks: $(cat "$T/o")"
[ -s "$T/e" ] && { cat "$T/e"; fail "EXCLUDE with blanks warned"; }
# a bad list: one warning naming the variable, the default kept
LBSHIM_STREAM0_THREADS='a,,b' perthread "$P" rename >"$T/o" 2>"$T/e" || fail "bad"
[ "$(grep -c 'LBSHIM_STREAM0_THREADS' "$T/e")" = 1 ] || { cat "$T/e"; fail "bad list: no single warning"; }
grep -q "rename: before own, after own" "$T/o" || fail "bad list: default not kept"
exit 0
