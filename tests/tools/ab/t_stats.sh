# t_stats.sh - the statistics under ab (Check suite check_stats).
. tests/tools/ab/lib.sh
"$AB/check_stats" || fail "check_stats"
