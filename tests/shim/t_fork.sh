# t_fork.sh - fork (the child keeps working) and exec (the new image gets
# the shim again through LD_PRELOAD).
. tests/shim/lib.sh
LD_LIBRARY_PATH=$FAKE with_shim "$T/prog_fork" >"$TMP/out" 2>"$TMP/err"
expect_eq "exit" "$?" 0
expect_eq "stages" "$(tr '\n' ' ' <"$TMP/out")" \
	"parent: ret=400 shim=1 child: ret=400 shim=1 exec: ret=400 shim=1 "
