# t_procaddr.sh - hipGetProcAddress hands out the shim's wrappers when a
# policy is active (ROCm 5.2 lacks the function: the fake runtime has it).
. tests/shim/lib.sh
[ -e policies/trace/trace.c ] || { echo "no policy built yet"; exit 77; }
cd "$TMP" || exit 1
LBSHIM_POLICIES=trace LD_LIBRARY_PATH=$FAKE with_shim "$T/prog_procaddr" >out 2>err
expect_eq "exit" "$?" 0
grep -q "lib=.*lbshim" out || fail "not the shim: $(cat out)"
