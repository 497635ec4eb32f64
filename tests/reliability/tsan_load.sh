# tsan_load.sh - the load test (t_load.sh's program) with the shim built
# with ThreadSanitizer (build/tsan/liblbshim.so), on hipemu's TSan build
# when there is one: no report.  8 threads for 2 s in make check, 32 for
# 10 s in make stress.
. tests/reliability/lib.sh
cd "$TMP" || exit 1
: "${TSAN_SHIM:=$B/tsan/liblbshim.so}"
[ -f "$TSAN_SHIM" ] || fail "no $TSAN_SHIM (make tsan-shim)"
LIBTSAN=$(${CC:-cc} -print-file-name=libtsan.so)
[ -f "$LIBTSAN" ] || { echo "skip: no libtsan.so"; exit 77; }
EMU=$B/hipemu-tsan
if [ ! -f "$EMU/libamdhip64.so.5" ]; then
	echo "note: no hipemu TSan build ($EMU); using the plain hipemu"
	EMU=$HIPEMU
fi
if [ "$REL_MODE" = stress ]; then NT=32 SECS=10; else NT=8 SECS=2; fi
for pol in all trace stream0 pool; do
	LBSHIM_POLICIES=$pol LBSHIM_TRACE=$TMP/t.%p.lbt \
		TSAN_OPTIONS="exitcode=66 halt_on_error=0 report_signal_unsafe=1 history_size=4" \
		LD_LIBRARY_PATH=$EMU LD_PRELOAD="$LIBTSAN $TSAN_SHIM" \
		timeout 300 "$R/prog_load" $NT $SECS >out 2>err
	rc=$?
	echo "$pol: exit $rc, $(sed -n 's/^calls //p' out) calls"
	[ $rc = 124 ] && rfail "$pol: deadlock (still running after 300 s)"
	if grep -q 'ThreadSanitizer' err; then
		keep=$B/tests/reliability/tsan-$pol.log
		cp err "$keep"
		rfail "$pol: $(grep -c '^WARNING: ThreadSanitizer' err) ThreadSanitizer reports, all in $keep; where:"
		# one line per report: the first frame in the shim of each access
		awk '/^WARNING: ThreadSanitizer/ { w = $0; n = 0; next }
		     /^ *#0 / && w != "" { printf "    %s at %s\n", (n++ ? "  and" : w), $2 " " $3 }
		     /^$/ { if (n >= 2) w = "" }' err | head -n 30
	elif [ $rc != 0 ]; then
		rfail "$pol: exit $rc: $(tail -n 5 err)"
	fi
	soft_eq "$pol: errors" "$(sed -n 's/^errors //p' out)" 0
	rm -f t.*.lbt
done
finish
