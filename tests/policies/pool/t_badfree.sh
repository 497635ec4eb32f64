#!/bin/sh
# Interior and double frees: hipErrorInvalidValue and one warning; a
# pointer the pool does not own gets the runtime's own answer.
. "$(dirname "$0")/lib.sh"
run pool pool "$P" badfree
n=$(grep -c "not the start of a live pool block" "$T/pool.err")
[ "$n" = 1 ] || { cat "$T/pool.err"; fail "$n warnings, want 1"; }
plain "$P" badfree >"$T/plain.out" 2>&1 || true
a=$(grep '^foreign=' "$T/pool.out"); b=$(grep '^foreign=' "$T/plain.out")
[ -n "$a" ] && [ "$a" = "$b" ] || fail "foreign free: pool $a, runtime $b"
a=$(grep '^null=' "$T/pool.out"); b=$(grep '^null=' "$T/plain.out")
[ "$a" = "$b" ] || fail "hipFree(NULL): pool $a, runtime $b"
