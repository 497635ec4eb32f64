# clang_tidy.sh - clang-tidy's analyzer and bugprone checks are clean.
command -v clang-tidy >/dev/null || { echo "clang-tidy not installed"; exit 77; }
clang-tidy -quiet --checks="$TIDY_CHECKS" --warnings-as-errors='*' $LINT_SRCS \
	-- $LINT_CPPFLAGS >"$BUILD/tidy.log" 2>&1
rc=$?
grep -v 'warnings generated\|Suppressed\|header-filter' "$BUILD/tidy.log"
exit $rc
