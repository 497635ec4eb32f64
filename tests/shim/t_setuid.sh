# t_setuid.sh - a set-user-ID program: the shim reads no configuration
# (secure_getenv) and writes nothing, whatever the environment asks.
. tests/shim/lib.sh
[ "$(id -u)" = 0 ] || { echo "needs root to make a setuid test binary"; exit 77; }
id nobody >/dev/null 2>&1 || { echo "no user nobody"; exit 77; }
d=$TMP/suid; mkdir -p "$d/trace"; chmod 0777 "$d" "$d/trace"
cp "$T/prog_secure" "$d/prog"; chown nobody "$d/prog"; chmod 4755 "$d/prog"
# The binary finds liblbshim.so and the fake runtime by absolute RUNPATH.
cd "$d/trace" || exit 1
LBSHIM_POLICIES=all LBSHIM_LOG=debug LBSHIM_TRACE=$d/trace/t.%p.lbt \
	LBSHIM_TRACE_LIVE=1 "$d/prog" >out 2>err
expect_eq "exit" "$?" 0
case $(cat out) in
"secure=1 ret=0") ;;
"secure=0"*) echo "setuid had no effect here (nosuid mount?)"; exit 77 ;;
*) fail "unexpected output: $(cat out)" ;;
esac
[ -s err ] && fail "the shim printed in a setuid program: $(cat err)"
expect_eq "files written" "$(ls | tr '\n' ' ')" "err out "
# The same program, not setuid, does read the configuration.
cp "$T/prog_secure" "$d/plain"
LBSHIM_LOG=debug "$d/plain" >out 2>err
grep -q "lbshim: " err || fail "configuration not read without setuid"
