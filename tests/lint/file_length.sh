# file_length.sh - no source file is longer than 800 lines (STYLE.md: a
# file has one concern; past 800 lines it has more).  Source: C, headers,
# HIP, shell, Python, make fragments and the API table; the golden outputs
# and fuzz corpora under tests/ are data and are left out.
max=800
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	# tracked files and new ones not ignored, as in the working tree
	files=$(git ls-files --cached --others --exclude-standard)
else
	files=$(find . -path ./build -prune -o -type f -print | sed 's|^\./||')
fi
n=0; bad=0
for f in $files; do
	case $f in
	*/golden/* | */corpus/*) continue ;;
	*.c | *.h | *.hip | *.sh | *.py | *.mk | *.def | Makefile) ;;
	*) continue ;;
	esac
	[ -f "$f" ] || continue
	n=$((n + 1))
	lines=$(wc -l <"$f")
	if [ "$lines" -gt "$max" ]; then
		echo "FAIL $f: $lines lines (at most $max): split it by concern"
		bad=1
	fi
done
[ $n -gt 0 ] || { echo "no source files found"; exit 1; }
[ $bad = 0 ] && echo "ok: $n source files, none over $max lines"
exit $bad
