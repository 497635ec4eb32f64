set -u
export NCCL_NVLS_ENABLE=0 PYTHONUNBUFFERED=1
O=$OUT
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $O/gpu.txt 2>&1
CHECK_GPU_TORCH_ARMS="none trace none2" timeout 320 bash tests/gpu/check_gpu.sh build/gpu /tmp/cg --quick > /tmp/cg.log 2>&1
echo "check rc=$?" >> $O/gpu.txt
cd /tmp && tar czf $O/res.tgz --exclude='*.lbt' cg cg.log 2>/dev/null
cp /tmp/cg/two_tl_legacy.lbt /tmp/cg/two_tl_s0.lbt $O/ 2>/dev/null
cat $O/gpu.txt; cat /tmp/cg/results.md
