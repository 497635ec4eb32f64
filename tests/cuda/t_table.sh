# t_table.sh - check_cuda_table: the CUDA rows against NVIDIA's libraries
# and against their HIP twins.
. tests/cuda/lib.sh
CUDA_HOME=$CUDA_HOME "$T/check_cuda_table" || fail "CUDA rows"
