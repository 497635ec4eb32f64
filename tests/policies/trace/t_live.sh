# LBSHIM_TRACE_LIVE / HIP_TRACE_API: one line per call on stderr.
. "$(dirname "$0")/lib.sh"

re='^<<hip-api pid:[0-9]+ tid:[0-9]+ hipMemcpy \(0x[0-9a-f]+, 0x7f[0-9a-f]+, 4000000, hipMemcpyDeviceToHost\) ret=0 \(hipSuccess\) \+[0-9]+ us>>$'
LBSHIM_TRACE_LIVE=1 traced "$PROG" live 2>err || fail "exit $?"
expect "$re" err
expect '^<<hip-api pid:[0-9]+ tid:[0-9]+ hipMalloc \(0x[0-9a-f]+, 4000000\) ret=0 \(hipSuccess\) \+[0-9]+ us>>$' err
[ "$(wc -l <err)" = 2 ] || fail "lines: $(cat err)"
ls | grep -q '\.lbt$' && fail "live alone wrote a file"
HIP_TRACE_API=1 traced "$PROG" live 2>err2 || fail "exit $?"
expect "$re" err2
grep -q "$(printf '\033')" err2 && fail "colour on a pipe"
# Errors are named; live and a file together.
LBSHIM_TRACE_LIVE=1 LBSHIM_POLICIES=trace LBSHIM_TRACE=both.lbt \
	traced "$PROG" calls >/dev/null 2>err3 || fail "exit $?"
expect ' hipMalloc \(0x[0-9a-f]+, 2199023255552\) ret=2 \(hipErrorOutOfMemory\) ' err3
expect ' hipLaunchKernel \(0x[0-9a-f]+, \{2,3,4\}, \{64,1,1\}, 0, 128, 0x[0-9a-f]+\) ret=0 ' err3
expect ' hipModuleGetFunction \(0x[0-9a-f]+, 0x[0-9a-f]+, "modkern"\) ret=0 ' err3
"$DUMP" both.lbt >dump || fail "no file"
[ "$(count '^call ' dump)" = "$(count '^<<hip-api ' err3)" ] ||
	fail "lines and records differ"
# A crash is announced too.
LBSHIM_TRACE_LIVE=1 traced "$PROG" crash segv 1 >/dev/null 2>err4
expect '^<<hip-api pid:[0-9]+ tid:[0-9]+ CRASH SIGSEGV addr=0x10>>$' err4
# Colour only on a terminal, never with NO_COLOR.
if command -v script >/dev/null; then
	LBSHIM_TRACE_LIVE=1 LD_LIBRARY_PATH="$FAKE" LD_PRELOAD="$SHIM" \
		script -qec "'$PROG' live" /dev/null >tty.out 2>&1 </dev/null
	grep -q "$(printf '\033')\[1;36mhipMemcpy" tty.out || fail "no colour on a tty"
	NO_COLOR=1 LBSHIM_TRACE_LIVE=1 LD_LIBRARY_PATH="$FAKE" LD_PRELOAD="$SHIM" \
		script -qec "'$PROG' live" /dev/null >tty2.out 2>&1 </dev/null
	grep -q "hipMemcpy" tty2.out || fail "no line on the tty"
	grep -q "$(printf '\033')" tty2.out && fail "colour with NO_COLOR"
fi
echo ok
