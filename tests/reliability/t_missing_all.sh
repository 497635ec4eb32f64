# t_missing_all.sh - tests/shim/t_missing.sh with every policy on: no
# runtime, an incomplete one, LBSHIM_HIP_LIBRARY pointing nowhere or at the
# shim itself, and a process that never touches HIP.  One warning each,
# what exists forwarded, no crash or hang.
# asan: yes
. tests/reliability/lib.sh
cd "$TMP" || exit 1
export LBSHIM_POLICIES=all LBSHIM_TRACE=$TMP/t.%p.lbt
P=$T/prog_dlsym

LBSHIM_HIP_LIBRARY=/nonexistent/libamdhip64.so.5 \
	with_shim timeout 60 "$P" hipMalloc hipMalloc hipFree hipGetDevice \
	hipDeviceSynchronize >out 2>err
soft_eq "exit (nowhere)" "$?" 0
soft_eq "results (nowhere)" "$(tr '\n' ' ' <out)" \
	"hipMalloc=3 hipMalloc=3 hipFree=3 hipGetDevice=3 hipDeviceSynchronize=3 "
soft_eq "warnings naming the library" \
	"$(grep -c 'lbshim: cannot find the HIP runtime (/nonexistent/libamdhip64.so.5' err)" 1
# The pool serves hipMalloc and hipFree without a runtime function to
# call: the line above has said that every call fails.
[ "$(grep -c 'hipMalloc: not found' err)" -le 1 ] || rfail "hipMalloc warned twice"
[ "$(grep -c 'hipFree: not found' err)" -le 1 ] || rfail "hipFree warned twice"
# No line is repeated: one warning per fact.
[ "$(sort err | uniq -d | wc -l)" = 0 ] || rfail "repeated warnings: $(sort err | uniq -d)"
rm -f t.*.lbt

LBSHIM_HIP_LIBRARY=$FAKE/partial/libpartialhip.so \
	with_shim timeout 60 "$P" hipMalloc hipGetDevice hipFree hipFree \
	hipDeviceSynchronize >out 2>err
soft_eq "exit (partial)" "$?" 0
# hipMalloc exists: it must work as without the shim, whatever the pool
# cannot do with such a runtime.
soft_eq "results (partial)" "$(tr '\n' ' ' <out)" \
	"hipMalloc=0 hipGetDevice=0 dev=7 hipFree=3 hipFree=3 hipDeviceSynchronize=3 "
soft_eq "warnings about hipFree" "$(grep -c 'lbshim: hipFree: not found' err)" 1
[ "$(sort err | uniq -d | wc -l)" = 0 ] || rfail "repeated warnings: $(sort err | uniq -d)"
# The calls are in the trace, with the codes the program saw.
set -- t.*.lbt
if [ -f "$1" ]; then
	"$R/lbt_count" "$1" >tr || rfail "trace not valid"
	grep -q '^call hipFree 3 2$' tr || rfail "trace lacks the failed hipFree calls: $(cat tr)"
	grep -q '^call hipGetDevice 0 1$' tr || rfail "trace lacks hipGetDevice: $(cat tr)"
fi
rm -f t.*.lbt

LBSHIM_HIP_LIBRARY=$SHIM with_shim timeout 60 "$P" hipDeviceSynchronize hipMalloc >out 2>err
soft_eq "exit (self)" "$?" 0
soft_eq "result (self)" "$(tr '\n' ' ' <out)" "hipDeviceSynchronize=3 hipMalloc=3 "
grep -q "liblbshim.so itself" err || rfail "self not named: $(cat err)"
rm -f t.*.lbt

# Empty LBSHIM_HIP_LIBRARY: one warning, the default name, which is
# found on hipemu's path.
LBSHIM_HIP_LIBRARY= LD_LIBRARY_PATH=$HIPEMU with_shim timeout 60 "$P" hipMalloc >out 2>err
soft_eq "exit (empty)" "$?" 0
soft_eq "warnings (empty)" "$(grep -c LBSHIM_HIP_LIBRARY err)" 1
rm -f t.*.lbt

# A process that never touches HIP: nothing at all.
with_shim timeout 60 "$T/prog_nohip" >out 2>err
soft_eq "exit (no HIP)" "$?" 0
soft_eq "stdout (no HIP)" "$(cat out)" "threads=1 runtime_mapped=0"
[ -s err ] && rfail "stderr (no HIP): $(cat err)"
[ -z "$(ls t.*.lbt 2>/dev/null)" ] || rfail "a trace file in a process without HIP"
finish
