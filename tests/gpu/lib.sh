# lib.sh - the setup of the gpu-cpu group's tests (t_*.sh, sourced): the
# GPU suite's programs on hipemu's CUDA face, their kernels run by the C
# twins (tests/gpu/progs/gpu_twins.c).  Environment: BUILD (default
# build).  check_gpu.sh and demo_gpu.sh (a real GPU) do not use it.
set -u
: "${BUILD:=build}"
case $BUILD in /*) B=$BUILD ;; *) B=$PWD/$BUILD ;; esac
FACE=$B/hipemu/cuda
G=$B/gpu
SHIM=$B/liblbshim.so
LBTRACE=$B/lbtrace
unset LD_PRELOAD LBSHIM_POLICIES LBSHIM_TRACE HIPEMU_FAIL HIPEMU_STATS \
	2>/dev/null || true
export HIPEMU_KERNELS=$B/tests/gpu-cpu/libgpu_twins.so
TMP=$(mktemp -d "${TMPDIR:-/tmp}/gpu-cpu.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# val FILE KEY: the value of the first KEY=VALUE in FILE
val() { grep -o "$2=[^ ]*" "$1" | head -1 | cut -d= -f2; }
# on_face CMD...: CMD on hipemu's CUDA face
on_face() { LD_LIBRARY_PATH=$FACE timeout 120 "$@"; }
