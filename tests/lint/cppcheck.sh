# cppcheck.sh - cppcheck finds nothing in shim/, policies/, tools/.
command -v cppcheck >/dev/null || { echo "cppcheck not installed"; exit 77; }
out=$BUILD/lint; rm -rf "$out"; mkdir -p "$out"
for f in $LINT_SRCS; do
	$CC -E $LINT_CPPFLAGS "$f" >"$out/$(echo "$f" | tr / _).i" || exit 1
done
cppcheck -q --language=c --enable=warning,portability,performance \
	--error-exitcode=1 "$out"/*.i 2>&1 | grep -v '^/usr/' | tee "$out/report"
[ ! -s "$out/report" ]
