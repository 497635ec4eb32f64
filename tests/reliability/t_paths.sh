# t_paths.sh - trace paths: never follow a symlink, never overwrite, never
# create a file other than the trace (and its numbered siblings), mode
# 0600; an expanded %r or %h cannot move the file out of the directory the
# user wrote.
# asan: yes
. tests/reliability/lib.sh
cd "$TMP" || exit 1
P=$R/prog_sweep
run() { # PATTERN [VAR=VALUE...]
	pat=$1; shift
	env LBSHIM_POLICIES=trace LBSHIM_TRACE="$pat" "$@" \
		LD_LIBRARY_PATH=$HIPEMU LD_PRELOAD="${PRELOAD_PREFIX:+$PRELOAD_PREFIX }$SHIM" \
		timeout 60 "$P" >"$TMP/o" 2>"$TMP/e"
	rc=$?
	[ $rc = 0 ] || rfail "$pat: exit $rc: $(cat "$TMP/e")"
}
tree() { (cd "$1" && find . -mindepth 1 | sort | tr '\n' ' '); }

# A symlink planted at the name, to a file of someone else's.
mkdir -p a/d
echo precious >victim
ln -s "$TMP/victim" a/d/t.lbt
run a/d/t.lbt
soft_eq "victim through a symlink" "$(cat victim)" precious
[ -L a/d/t.lbt ] || rfail "the symlink was replaced"
soft_eq "files (symlink)" "$(tree a)" "./d ./d/t.1.lbt ./d/t.lbt "
# A dangling symlink: its target is not created.
ln -s "$TMP/nothere" a/d/u.lbt
run a/d/u.lbt
[ -e nothere ] && rfail "a dangling symlink's target was created"
soft_eq "files (dangling)" "$(tree a/d)" "./t.1.lbt ./t.lbt ./u.1.lbt ./u.lbt "
# An existing file is never overwritten: the next number is used.
rm -rf a; mkdir -p a/d
echo mine >a/d/t.lbt
echo mine1 >a/d/t.1.lbt
run a/d/t.lbt
soft_eq "existing file" "$(cat a/d/t.lbt)" mine
soft_eq "existing sibling" "$(cat a/d/t.1.lbt)" mine1
soft_eq "files (existing)" "$(tree a)" "./d ./d/t.1.lbt ./d/t.2.lbt ./d/t.lbt "
"$R/lbt_count" a/d/t.2.lbt >/dev/null || rfail "t.2.lbt is not a trace"
# Mode 0600, whatever the umask.
soft_eq "mode (umask 000)" "$(umask 000; run a/d/m.lbt; stat -c %a a/d/m.lbt)" 600
soft_eq "mode (umask 077)" "$(umask 077; run a/d/n.lbt; stat -c %a a/d/n.lbt)" 600

# %r from a hostile RANK: stays in the directory.
rm -rf a; mkdir -p a/b/d
(cd a/b && run d/t.%r.lbt RANK=../../x)
soft_eq "files (RANK=../../x)" "$(find a -type f | wc -l)" 1
[ -z "$(find a -type f ! -path 'a/b/d/*')" ] || rfail "RANK escaped: $(tree a)"
rm -rf a; mkdir -p a/b/d
(cd a/b && run d/t.%r.lbt RANK=0/../../../y OMPI_COMM_WORLD_RANK=../z)
n=$(find a -type f | wc -l)
soft_eq "one file (RANK=0/../../../y)" "$n" 1
[ -z "$(find a -type f ! -path 'a/b/d/*')" ] || rfail "RANK with a slash escaped: $(tree a)"
soft_eq "outside the test directory" "$(find "$TMP" -maxdepth 1 -newer victim -type f ! -name o ! -name e | wc -l)" 0
# %h from a hostile host name, in a UTS namespace of our own.
rm -rf a; mkdir -p a/d
SETH="import socket; socket.sethostname('../../h/../evil')"
if unshare -u sh -c "python3 -c \"$SETH\" && [ \"\$(uname -n)\" = ../../h/../evil ]" 2>/dev/null; then
	unshare -u sh -c 'python3 -c "$4"; cd a && env LBSHIM_POLICIES=trace LBSHIM_TRACE=d/t.%h.lbt \
		LD_LIBRARY_PATH="$1" LD_PRELOAD="$2" timeout 60 "$3" >/dev/null 2>&1' sh \
		"$HIPEMU" "${PRELOAD_PREFIX:+$PRELOAD_PREFIX }$SHIM" "$P" "$SETH"
	soft_eq "files (hostname ../../h/../evil)" "$(find a -type f | wc -l)" 1
	echo "host name trace: $(tree a)"
	[ -z "$(find a -type f ! -path 'a/d/*')" ] || rfail "the host name escaped: $(tree a)"
else
	echo "note: no UTS namespace here; %h with a hostile host name not tested"
fi
# A pattern that names a directory that does not exist: one warning, no
# file, the program unaffected.
run nodir/t.lbt
soft_eq "warnings (no directory)" "$(grep -c '^lbshim: ' e)" 1
[ -e nodir ] && rfail "a directory was created"
finish
