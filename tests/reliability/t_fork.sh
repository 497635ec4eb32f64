# t_fork.sh - fork while other threads are inside wrappers (children call
# HIP, then _exit), fork then exec, posix_spawn and vfork + exec: no
# deadlock (timeout), and each process its own trace: distinct files, each
# valid, holding exactly that process's calls.
# asan: yes
. tests/reliability/lib.sh
cd "$TMP" || exit 1
P=$R/prog_fork
FORKS=20
[ "$REL_MODE" = stress ] && FORKS=300

# check_traces DIR PARENT_CALLS CHILD_TRACES
check_traces() {
	nfiles=$(ls "$1" | wc -l)
	soft_eq "$1: trace files" "$nfiles" $((1 + $3))
	parents=0
	for f in "$1"/*.lbt; do
		"$R/lbt_count" "$f" >tr || { rfail "$f: not a valid trace"; continue; }
		pid=$(sed -n 's/^pid //p' tr)
		case $f in */t.$pid.lbt) ;; *) rfail "$f: header pid $pid" ;; esac
		n=$(sed -n 's/^calls //p' tr)
		if [ "$n" = "$2" ] && [ $parents = 0 ]; then
			parents=1
		elif [ "$n" != 4 ]; then
			rfail "$f: $n call records (a child makes 4, the parent $2)"
		fi
	done
	soft_eq "$1: the parent's trace" $parents 1
}

for round in 1 2 3; do
	rm -rf d; mkdir d
	LBSHIM_POLICIES=all LBSHIM_TRACE=$TMP/d/t.%p.lbt emu_shim timeout 120 \
		"$P" storm $FORKS >out 2>err
	rc=$?
	[ $rc = 124 ] && { rfail "storm round $round: deadlock"; break; }
	soft_eq "storm exit" $rc 0
	soft_eq "storm children" "$(sed -n 's/^children //p' out)" "$FORKS bad 0"
	check_traces d "$(sed -n 's/^parent_calls //p' out)" $FORKS
	[ "$(shim_lines err)" = 0 ] || rfail "the shim printed: $(head -n 3 err)"
done
for mode in exec spawn; do
	rm -rf d; mkdir d
	LBSHIM_POLICIES=all LBSHIM_TRACE=$TMP/d/t.%p.lbt emu_shim timeout 120 \
		"$P" $mode >out 2>err
	rc=$?
	soft_eq "$mode exit" $rc 0
	k=1; [ $mode = spawn ] && k=2
	soft_eq "$mode children" "$(sed -n 's/^children //p' out)" "$k bad 0"
	check_traces d "$(sed -n 's/^parent_calls //p' out)" $k
done
finish
