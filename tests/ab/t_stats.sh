# t_stats.sh - the statistics under ab (Check suite check_stats).
. tests/ab/lib.sh
"$AB/check_stats" || fail "check_stats"
