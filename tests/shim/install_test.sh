# install_test.sh - make install into a DESTDIR puts the library, the tool,
# the headers and the man pages where users look; uninstall removes them.
. tests/shim/lib.sh
make -s install DESTDIR="$TMP/root" PREFIX=/usr/local >"$TMP/log" 2>&1 ||
	fail "install: $(cat "$TMP/log")"
r=$TMP/root/usr/local
for f in lib/liblbshim.so include/lbshim/hip_api.def include/lbshim/trace_format.h \
	share/man/man7/lbshim.7; do
	[ -e "$r/$f" ] || fail "missing $f"
done
if [ -e "$BUILD/lbtrace" ]; then
	[ -x "$r/bin/lbtrace" ] || fail "missing bin/lbtrace"
fi
# The installed library works by itself.
LD_LIBRARY_PATH=$FAKE LD_PRELOAD=$r/lib/liblbshim.so "$T/prog_threads" >/dev/null ||
	fail "installed library does not work"
make -s uninstall DESTDIR="$TMP/root" PREFIX=/usr/local >"$TMP/log" 2>&1 ||
	fail "uninstall: $(cat "$TMP/log")"
left=$(find "$TMP/root" -type f | wc -l)
expect_eq "files left after uninstall" "$left" 0
