# clang_tidy.sh - clang-tidy's analyzer and bugprone checks are clean.
# One clang-tidy per file, as many at a time as there are CPUs: the
# analyzer's time per file goes from under a second to 20 s (kargs.c), and
# one process for all files leaves the other CPUs idle.  Each file's
# output goes to its own log, shown in the order of LINT_SRCS.
command -v clang-tidy >/dev/null || { echo "clang-tidy not installed"; exit 77; }
out=$BUILD/tidy; rm -rf "$out"; mkdir -p "$out"
# shellcheck disable=SC2086 # LINT_SRCS and LINT_CPPFLAGS are word lists
printf '%s\n' $LINT_SRCS | xargs -P "$(nproc 2>/dev/null || echo 1)" -n 1 sh -c '
	clang-tidy -quiet --checks="$TIDY_CHECKS" --warnings-as-errors="*" \
		"$1" -- $LINT_CPPFLAGS >"$0/$(echo "$1" | tr / _).log" 2>&1' "$out"
rc=$?
for f in $LINT_SRCS; do
	cat "$out/$(echo "$f" | tr / _).log"
done >"$BUILD/tidy.log"
grep -v 'warnings generated\|Suppressed\|header-filter' "$BUILD/tidy.log"
exit $rc
