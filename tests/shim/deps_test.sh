# deps_test.sh - mk/deps.sh: `ensure` says nothing when every package is
# there; when one is missing it installs it with apt's progress on stderr
# (a fresh machine must not sit in minutes of silence) and nothing on
# stdout.  apt-get, dpkg-query and id are fakes on PATH: nothing is
# installed for real.
. tests/shim/lib.sh
mkdir -p "$TMP/bin"
cat >"$TMP/bin/id" <<'X'
#!/bin/sh
echo 0
X
# dpkg-query: every package installed, except those in $MISSING.
cat >"$TMP/bin/dpkg-query" <<'X'
#!/bin/sh
for p; do :; done
case " $MISSING " in *" $p "*) exit 1 ;; esac
echo "install ok installed"
X
cat >"$TMP/bin/apt-get" <<'X'
#!/bin/sh
echo "apt-get $*" >>"$APT_LOG"
echo "Get:1 http://deb.example/debian bookworm InRelease ($1)"
X
chmod +x "$TMP/bin/"*
export APT_LOG="$TMP/apt.log"
run() { PATH="$TMP/bin:$PATH" MISSING=$1 sh mk/deps.sh ensure >"$TMP/out" 2>"$TMP/err"; }

run "" || fail "ensure with nothing missing: exit $?: $(cat "$TMP/err")"
[ -s "$TMP/out" ] || [ -s "$TMP/err" ] && fail "ensure with nothing missing said: $(cat "$TMP/out" "$TMP/err")"
[ -e "$APT_LOG" ] && fail "ensure ran apt-get with nothing missing"

run "valgrind" || fail "ensure with valgrind missing: exit $?: $(cat "$TMP/err")"
grep -q "install -y -q valgrind$" "$APT_LOG" || fail "apt-get not asked for valgrind: $(cat "$APT_LOG")"
[ -s "$TMP/out" ] && fail "deps wrote on stdout: $(cat "$TMP/out")"
grep -q '^Get:1 .*(update)' "$TMP/err" || fail "apt-get update's progress hidden: $(cat "$TMP/err")"
grep -q '^Get:1 .*(install)' "$TMP/err" || fail "apt-get install's progress hidden: $(cat "$TMP/err")"
exit 0
