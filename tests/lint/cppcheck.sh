# cppcheck.sh - cppcheck finds nothing in shim/, policies/, tools/.
#
# cppcheck reads gcc's preprocessed output (mk/lint.mk says why), with
# one thing replaced: every C11 _Generic(e, type: f, ...) becomes the one
# name lb_generic_selection.  cppcheck 2.10 does not know _Generic, and
# the association lists of policies/trace/trace_live.c's lb_live_args()
# (one per argument of every row of hip_api.def, 853) cost its symbol
# database about 90 s of this script's 120 (--showtime=summary), against
# one second without them.  Nothing it checks is lost: a selection is
# resolved by the compiler, which type-checks the lb_arg_* call it picks
# (-Werror), and its controlling expression is never evaluated; cppcheck
# still analyses the call that follows it, with its arguments
# (b, "x", a->x), and every line around it (a null `a` there is still
# reported in each of the 217 cases).
command -v cppcheck >/dev/null || { echo "cppcheck not installed"; exit 77; }
out=$BUILD/lint; rm -rf "$out"; mkdir -p "$out"
for f in $LINT_SRCS; do
	$CC -E $LINT_CPPFLAGS '-D_Generic(e, ...)=lb_generic_selection' \
		"$f" >"$out/$(echo "$f" | tr / _).i" || exit 1
done
cppcheck -q --language=c --enable=warning,portability,performance \
	--error-exitcode=1 "$out"/*.i 2>&1 | grep -v '^/usr/' | tee "$out/report"
[ ! -s "$out/report" ]
