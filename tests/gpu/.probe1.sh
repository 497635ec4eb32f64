set -u
B=build/gpu; O=$OUT; S=$PWD/$B/liblbshim.so
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $O/gpu.txt
for cr in shared static; do
 for arm in bare none trace stream0 pool trace,stream0,pool; do
  if [ $arm = bare ]; then e=""; else e="LD_PRELOAD=$S LBSHIM_POLICIES=$arm LBSHIM_TRACE=/tmp/cc.lbt"; fi
  echo "== $cr $arm" >> $O/cc.txt
  env $e $B/callcost_$cr 20000 >> $O/cc.txt 2>&1
  rm -f /tmp/cc.lbt
 done
done
# torch: one traced inference run, its launches named?
LD_PRELOAD=$S LBSHIM_POLICIES=trace LBSHIM_TRACE=/tmp/ti.lbt python3 tests/gpu/torch_check.py infer --steps 40 > $O/ti.txt 2>&1
$B/lbtrace summary /tmp/ti.lbt > $O/ti.sum 2>&1
$B/lbtrace print /tmp/ti.lbt 2>/dev/null | grep -E 'aunch(Kernel|Cooperative)[A-Za-z_]*\(' > /tmp/l.txt
echo "launches $(wc -l < /tmp/l.txt) unnamed $(grep -vc 'kernel=' /tmp/l.txt)" >> $O/ti.txt
grep -v 'kernel=' /tmp/l.txt | head -5 >> $O/ti.txt
for i in 1; do
 python3 tests/gpu/torch_check.py infer --steps 300 --warmup 50 >> $O/ovh.txt 2>&1
 for p in trace stream0 pool; do echo "arm $p" >> $O/ovh.txt; LD_PRELOAD=$S LBSHIM_POLICIES=$p LBSHIM_TRACE=/tmp/o.lbt python3 tests/gpu/torch_check.py infer --steps 300 --warmup 50 >> $O/ovh.txt 2>&1; rm -f /tmp/o.lbt; done
done
for i in 1 2; do $B/poolloop_shared 2000 4096 >> $O/pool.txt 2>&1; LD_PRELOAD=$S LBSHIM_POLICIES=pool LBSHIM_LOG=info $B/poolloop_shared 2000 4096 >> $O/pool.txt 2>&1; done
