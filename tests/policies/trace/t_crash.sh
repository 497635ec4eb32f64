# A fatal signal leaves the calls made so far, a crash record and the
# crashing thread's backtrace; the exit status is the one without the shim.
. "$(dirname "$0")/lib.sh"

# mode signal frame-to-find calls-before-the-crash
for c in "segv 11 crash_here 5" "segv-thread 11 crash_here 6" \
	 "abort 6 crash_here 5" "overflow 11 recurse 5" "fpe 8 crash_here 5" \
	 "segv-handled 11 crash_here 5"; do
	set -- $c
	plain "$PROG" crash "$1" 5 >plain.out 2>&1
	want=$?
	LBSHIM_POLICIES=trace LBSHIM_TRACE="$1.lbt" traced "$PROG" crash "$1" 5 \
		>out 2>&1
	got=$?
	[ "$got" = "$want" ] || fail "$1: exit $got, $want without the shim"
	cmp -s out plain.out || fail "$1: output differs: $(cat out)"
	"$DUMP" "$1.lbt" >"$1.dump" || fail "$1: dump"
	[ "$(count '^call ' "$1.dump")" = "$4" ] || fail "$1: calls"
	expect "^header .* flags=0x4 " "$1.dump"
	expect "^crash .* sig=$2 " "$1.dump"
	expect "^frame i=[0-9]+ .* name=$3" "$1.dump"
	n=$(sed -n 's/^crash .* frames=\([0-9]*\)$/\1/p' "$1.dump")
	[ "$n" -gt 0 ] && [ "$(count '^frame ' "$1.dump")" = "$n" ] ||
		fail "$1: frames"
	echo "$1: exit $got, $n frames"
done
expect "^crash .* addr=0x10 " segv.dump
expect "^frame i=0 .* name=crash_here$" segv.dump
grep -q "own handler" out ||
	fail "the program's handler did not run"

# The program's own small alternate stack (Python's faulthandler gives the
# main thread about 16 KiB): the shim records the crash and its backtrace
# without overflowing it into the guard page below, then the program's
# handler runs as it would without the shim.  The handler's depth
# ("used", snprintf's included) is compared with the same program's
# under the same preloads less the shim: the shim's own handler may need
# at most 1 KiB more of the stack than the program's handler needs.
#
# Under the sanitizer groups the shim comes after libasan and libubsan,
# whose interceptors run in the program's own handler too (its snprintf
# goes through ASan's printf checker).  The kernel's signal frame grows
# with the CPU's vector state (AT_MINSIGSTKSZ: 1776 on an AMD EPYC
# without AVX-512, 11952 on an Intel Xeon with AVX-512 and AMX).  The
# program's handler alone used, of an 8 KiB stack: 3520 and 6632 bytes;
# under ASan, without the shim, 6216 and more than 8 KiB (it died: the
# Xeon of the GPU machine, 2026-12-06).  Where the program dies in its
# own handler without the shim, the size says nothing of the shim: it is
# reported as not meaningful here and skipped; a larger one still runs.
case $SHIM in
*" "*) SAN_ONLY=${SHIM% *} ;; # the preloads before the shim
*) SAN_ONLY= ;;
esac
meaningful=0
for sz in 8192 16384; do
	TPROG_ALTSTACK=$sz LD_PRELOAD="$SAN_ONLY" \
		plain "$PROG" crash segv-altstack 4 >alt.plain 2>&1
	base=$?
	if [ "$base" != 3 ]; then
		echo "altstack $sz: not meaningful here: the program's own" \
			"handler overflows it without the shim" \
			"${SAN_ONLY:+(under the sanitizers) }(exit $base)"
		continue
	fi
	need=$(sed -n 's/^altstack used \([0-9]*\) of .*/\1/p' alt.plain)
	LBSHIM_POLICIES=trace LBSHIM_TRACE=alt$sz.lbt TPROG_ALTSTACK=$sz \
		traced "$PROG" crash segv-altstack 4 >alt.out 2>&1
	got=$?
	[ "$got" = 3 ] || fail "altstack $sz: exit $got, 3 without the shim"
	expect "^altstack used [0-9]+ of $sz$" alt.out
	used=$(sed -n 's/^altstack used \([0-9]*\) of .*/\1/p' alt.out)
	[ "$used" -le $((need + 1024)) ] ||
		fail "altstack $sz: the shim used $used bytes, the program $need"
	"$DUMP" alt$sz.lbt >alt.dump || fail "altstack $sz: dump"
	[ "$(count '^call ' alt.dump)" = 4 ] || fail "altstack $sz: calls"
	expect "^crash .* sig=11 .* frames=[1-9]" alt.dump
	expect "^frame i=0 .* name=crash_here$" alt.dump
	expect "^frame i=[0-9]+ .* name=main$" alt.dump
	echo "altstack $sz: $(cat alt.out) (without the shim: $need)"
	meaningful=$((meaningful + 1))
done
[ "$meaningful" -gt 0 ] || fail "altstack: no size could be checked"

# A crash inside a runtime call: that call is recorded as in flight
# (flag 0x10, ret -1) with its arguments, before the crash record.
plain "$PROG" crash inrt 5 >/dev/null 2>&1
want=$?
LBSHIM_POLICIES=trace LBSHIM_TRACE=inrt.lbt traced "$PROG" crash inrt 5 >/dev/null 2>&1
got=$?
[ "$got" = "$want" ] || fail "inrt: exit $got, $want without the shim"
"$DUMP" inrt.lbt >inrt.dump
[ "$(count '^call .* api=hipMemset ret=0 ' inrt.dump)" = 5 ] || fail "inrt: calls"
expect "^call .* api=hipMemset ret=-1 dev=0 flags=16 .* a0=0xdead0000 a1=0x2a a2=0x8 " inrt.dump
expect "^crash .* sig=11 .* addr=0xdead0000 " inrt.dump
expect "^frame i=0 .* name=hipMemset$" inrt.dump
grep -A1 'flags=16' inrt.dump | grep -q '^crash ' || fail "inrt: order"

# Frame names that are another function's are marked (flags=1): in a
# stripped library a static function gets the nearest exported symbol
# below it.  The frames with a name of their own are not marked.
LIBS=$BUILD/trace/libtstrip.so
LBSHIM_POLICIES=trace LBSHIM_TRACE=strip.lbt TPROG_STRIPLIB=$LIBS \
	traced "$PROG" crash stripped 3 >/dev/null 2>&1
[ $? = 139 ] || fail "stripped: exit $?"
"$DUMP" strip.lbt >strip.dump || fail "stripped: dump"
expect "^frame i=0 .* flags=1 name=tstrip_before$" strip.dump
expect "^frame i=1 .* flags=0 name=tstrip_fault$" strip.dump
expect "^frame i=[0-9]+ .* flags=0 name=crash_here$" strip.dump
expect "^frame i=[0-9]+ .* flags=0 name=main$" strip.dump
expect "^frame i=0 .* flags=0 name=crash_here$" segv.dump
# and in libc, when it has no full symbol table (Debian's is stripped):
# memcpy's variants are local symbols, so the name is a neighbour's
LBSHIM_POLICIES=trace LBSHIM_TRACE=memcpy.lbt traced "$PROG" crash memcpy 3 \
	>/dev/null 2>&1
"$DUMP" memcpy.lbt >memcpy.dump || fail "memcpy: dump"
expect "^frame i=[0-9]+ .* flags=0 name=crash_here$" memcpy.dump
libc=$(ldd "$PROG" | sed -n 's/.*libc\.so\.6 => \([^ ]*\).*/\1/p')
# (under ASan, memcpy is its interceptor's, not libc's)
if [ -n "$libc" ] && command -v readelf >/dev/null &&
	! readelf -S "$libc" | grep -q '\.symtab' &&
	! expr "$SHIM" : '.*asan' >/dev/null; then
	expect "^frame i=0 .* flags=1 name=" memcpy.dump
fi
echo "guessed frames: $(grep -c 'flags=1' strip.dump) in strip.dump"

# SIGKILL: nothing can run, but every call made is in the file.
plain "$PROG" crash kill 7 >/dev/null 2>&1
want=$?
LBSHIM_POLICIES=trace LBSHIM_TRACE=kill.lbt traced "$PROG" crash kill 7
got=$?
[ "$got" = "$want" ] || fail "kill: exit $got, $want without the shim"
"$DUMP" kill.lbt >kill.dump
[ "$(count '^call .* api=hipMemset ' kill.dump)" = 7 ] || fail "kill: calls"
[ "$(count '^crash ' kill.dump)" = 0 ] || fail "kill: crash record"
expect "^header .* flags=0x0 " kill.dump

# Python's faulthandler still reports the crash, after the shim recorded it.
if command -v python3 >/dev/null; then
	cat >crash.py <<'PY'
import ctypes, faulthandler
faulthandler.enable()
ctypes.CDLL("libamdhip64.so.5", mode=ctypes.RTLD_GLOBAL)
hip = ctypes.CDLL(None)  # the global scope, where the shim comes first
p = ctypes.c_void_p()
hip.hipMalloc(ctypes.byref(p), ctypes.c_size_t(64))
ctypes.string_at(0)
PY
	plain python3 crash.py >py.plain 2>&1
	want=$?
	LBSHIM_POLICIES=trace LBSHIM_TRACE=py.lbt traced python3 crash.py \
		>py.out 2>&1
	got=$?
	[ "$got" = "$want" ] || fail "python: exit $got, $want without the shim"
	expect "Fatal Python error: Segmentation fault" py.out
	"$DUMP" py.lbt >py.dump
	expect "^call .* api=hipMalloc ret=0 " py.dump
	expect "^crash .* sig=11 " py.dump
fi

# A machine without libunwind (opened at run time, not linked: the GPU
# machine had none, and a linked one kept every program from starting):
# the program runs and crashes as without the shim, the crash record is
# there without frames, and the shim says so once.
NOUW=$BUILD/trace/libtnounwind.so
plain "$PROG" crash segv 5 >/dev/null 2>&1
want=$?
env LD_LIBRARY_PATH="$FAKE" LD_PRELOAD="${SHIM%"${SHIM##* }"}$NOUW ${SHIM##* }" \
	LBSHIM_POLICIES=trace LBSHIM_TRACE=nouw.lbt "$PROG" crash segv 5 \
	>nouw.out 2>nouw.err
got=$?
[ "$got" = "$want" ] || fail "no libunwind: exit $got, $want without the shim"
[ "$(grep -c '^lbshim: trace: libunwind.so.8 cannot be loaded' nouw.err)" = 1 ] ||
	fail "no libunwind: the line: $(cat nouw.err)"
"$DUMP" nouw.lbt >nouw.dump || fail "no libunwind: dump"
[ "$(count '^call ' nouw.dump)" = 5 ] || fail "no libunwind: calls"
expect "^crash .* sig=11 .* frames=0$" nouw.dump
echo ok
