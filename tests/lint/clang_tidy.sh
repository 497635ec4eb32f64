# clang_tidy.sh - clang-tidy's analyzer and bugprone checks are clean.
# One clang-tidy per file, as many at a time as there are CPUs: the
# analyzer's time per file goes from under a second to 20 s (kargs.c), and
# one process for all files leaves the other CPUs idle.  Each file's
# output goes to its own log, shown in the order of LINT_SRCS.
# glibc's malloc keeps what clang frees instead of unmapping it and
# faulting it in again: a fifth of clang-tidy's time here was system time,
# page faults under the hypervisor, and these settings cut that by two
# thirds (2.7 -> 0.8 s over six of the files); make check is bound by CPU.
GLIBC_TUNABLES=glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=4294967295:glibc.malloc.hugetlb=1
export GLIBC_TUNABLES
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
