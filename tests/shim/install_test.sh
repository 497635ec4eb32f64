# install_test.sh - make install into a DESTDIR puts the library, the tool,
# the headers and the man pages where users look; uninstall removes them,
# and the directories install created once they are empty, never one that
# was there before or that holds other files.
. tests/shim/lib.sh
make -s install DESTDIR="$TMP/root" PREFIX=/usr/local >"$TMP/log" 2>&1 ||
	fail "install: $(cat "$TMP/log")"
r=$TMP/root/usr/local
for f in lib/liblbshim.so include/lbshim/hip_api.def \
	include/lbshim/hip_api_mem.def include/lbshim/hip_api_copy.def \
	include/lbshim/hip_api_more.def include/lbshim/trace_format.h \
	share/man/man7/lbshim.7; do
	[ -e "$r/$f" ] || fail "missing $f"
done
if [ -e "$BUILD/lbtrace" ]; then
	[ -x "$r/bin/lbtrace" ] || fail "missing bin/lbtrace"
fi
# The installed library works by itself.
LD_LIBRARY_PATH=$FAKE LD_PRELOAD=$r/lib/liblbshim.so "$T/prog_threads" >/dev/null ||
	fail "installed library does not work"
make --no-print-directory uninstall DESTDIR="$TMP/root" PREFIX=/usr/local \
	>"$TMP/log" 2>&1 || fail "uninstall: $(cat "$TMP/log")"
# no error of make's, not even an ignored one (-s would hide it)
grep -q 'Error' "$TMP/log" && fail "uninstall said: $(cat "$TMP/log")"
left=$(find "$TMP/root" -type f | wc -l)
expect_eq "files left after uninstall" "$left" 0
# and no directory it made: DESTDIR is left as it was, empty
left=$(find "$TMP/root" -mindepth 1 | head -n 3)
expect_eq "left after uninstall" "$left" ""

# Directories that were there before stay, empty or not; one install
# made but that holds another file since stays; two installs, then one
# uninstall, leave nothing of lbshim's.
r=$TMP/r2/opt/lb
mkdir -p "$r/lib" "$r/share/man/man1" && echo x >"$r/share/man/man1/other.1"
for i in 1 2; do
	make -s install DESTDIR="$TMP/r2" PREFIX=/opt/lb >"$TMP/log" 2>&1 ||
		fail "install $i: $(cat "$TMP/log")"
done
echo y >"$r/include/mine.h"
make -s uninstall DESTDIR="$TMP/r2" PREFIX=/opt/lb >"$TMP/log" 2>&1 ||
	fail "uninstall: $(cat "$TMP/log")"
left=$(cd "$TMP/r2" && find . | sort | tr '\n' ' ')
expect_eq "left after uninstall over existing folders" "$left" \
	". ./opt ./opt/lb ./opt/lb/include ./opt/lb/include/mine.h ./opt/lb/lib ./opt/lb/share ./opt/lb/share/man ./opt/lb/share/man/man1 ./opt/lb/share/man/man1/other.1 "

# mk/ld-searched.sh knows the loader's folders, through symlinks.
sh mk/ld-searched.sh /usr/lib/x86_64-linux-gnu || fail "the multiarch folder is not searched?"
sh mk/ld-searched.sh "$TMP" && fail "$TMP is said to be searched"
ln -s /usr/lib/x86_64-linux-gnu "$TMP/link"
sh mk/ld-searched.sh "$TMP/link" || fail "a symlink to a searched folder is not seen as one"

# Installed as root (no DESTDIR) into a folder the loader does not search:
# the system's loader cache is left alone, and a note says how to preload.
if [ "$(id -u)" = 0 ] && command -v ldconfig >/dev/null; then
	p=$TMP/prefix
	make -s install PREFIX="$p" >"$TMP/log" 2>&1 ||
		fail "install PREFIX=$p: $(cat "$TMP/log")"
	if ldconfig -p | grep -qF "$p/"; then
		ldconfig	# rebuild the cache from the configuration: undo it
		fail "make install added $p/lib to the loader's cache"
	fi
	grep -qF "note: $p/lib is not in the loader's path; use LD_PRELOAD=$p/lib/liblbshim.so" \
		"$TMP/log" || fail "no note: $(cat "$TMP/log")"
	grep -q '^ldconfig' "$TMP/log" && fail "ldconfig ran: $(cat "$TMP/log")"
	make -s uninstall PREFIX="$p" >"$TMP/log" 2>&1 ||
		fail "uninstall PREFIX=$p: $(cat "$TMP/log")"
fi
exit 0
