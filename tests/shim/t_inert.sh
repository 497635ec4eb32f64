# t_inert.sh - in a process that never calls HIP the shim does nothing: no
# output, no file, no thread, the runtime not loaded; even with every
# policy and debug logging asked for.
. tests/shim/lib.sh
cd "$TMP" || exit 1
LBSHIM_POLICIES=all LBSHIM_LOG=debug LBSHIM_TRACE_LIVE=1 \
	with_shim "$T/prog_nohip" >out 2>err
expect_eq "exit status" "$?" 0
expect_eq "stdout" "$(cat out)" "threads=1 runtime_mapped=0"
[ -s err ] && fail "stderr not empty: $(cat err)"
expect_eq "files created" "$(ls | sort | tr '\n' ' ')" "err out "
# And a plain system binary keeps its exit status.
LBSHIM_POLICIES=all with_shim sh -c 'exit 3'
expect_eq "exit status of sh" "$?" 3
