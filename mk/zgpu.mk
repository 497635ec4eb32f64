# mk/zgpu.mk - the GPU suite (issue #35): `make gpu-bundle` builds what a
# GPU machine needs (build/gpu: liblbshim.so, lbtrace and the nvcc-built
# programs of tests/gpu/progs, each with the shared and the static cudart,
# and the two-thread case built with nvcc's per-thread default stream as
# the reference); `make check-gpu` runs tests/gpu/check_gpu.sh on this
# machine's NVIDIA GPU and keeps its results in tests/gpu/CHECK_GPU.md.
# Neither is part of make check: CI has no GPU.  Both need the CUDA
# toolkit (CUDA_HOME, NVCC, HE_DIR: set by mk/hipemu*.mk, which is why
# this file is named to be read after them).

GPU_B := $(BUILD)/gpu
GPU_PROGS := twothread poolloop reuse fault launch callcost handoff
GPU_SRC := tests/gpu/progs
GPU_NVCC = $(NVCC) -O2 -arch=sm_90 -lineinfo -Xlinker -rpath='$$ORIGIN/lib'
GPU_BINS := $(foreach p,$(GPU_PROGS),$(GPU_B)/$(p)_shared $(GPU_B)/$(p)_static) \
	$(GPU_B)/twothread_shared_pt $(GPU_B)/twothread_static_pt

$(GPU_B)/%_shared: $(GPU_SRC)/%.cu $(GPU_SRC)/gpucommon.h
	@mkdir -p $(@D)
	$(GPU_NVCC) -cudart shared -o $@ $< -lpthread
$(GPU_B)/%_static: $(GPU_SRC)/%.cu $(GPU_SRC)/gpucommon.h
	@mkdir -p $(@D)
	$(GPU_NVCC) -cudart static -o $@ $< -lpthread
$(GPU_B)/twothread_shared_pt: $(GPU_SRC)/twothread.cu $(GPU_SRC)/gpucommon.h
	@mkdir -p $(@D)
	$(GPU_NVCC) --default-stream per-thread -cudart shared -o $@ $< -lpthread
$(GPU_B)/twothread_static_pt: $(GPU_SRC)/twothread.cu $(GPU_SRC)/gpucommon.h
	@mkdir -p $(@D)
	$(GPU_NVCC) --default-stream per-thread -cudart static -o $@ $< -lpthread

.PHONY: gpu-bundle check-gpu
gpu-bundle: $(GPU_BINS) $(BUILD)/liblbshim.so $(BUILD)/lbtrace
	mkdir -p $(GPU_B)/lib && cp $(CUDA_HOME)/lib64/libcudart.so.13 $(GPU_B)/lib/
	cp $(BUILD)/liblbshim.so $(BUILD)/lbtrace $(GPU_B)/

check-gpu: gpu-bundle
	bash tests/gpu/check_gpu.sh $(GPU_B) $(BUILD)/gpu-out
	cp $(BUILD)/gpu-out/results.md tests/gpu/CHECK_GPU.md

# ---- the suite's CPU counterpart, in make check: group gpu-cpu ----
# The same programs (shared cudart) on hipemu's CUDA face, their kernels
# run by the C twins of tests/gpu/progs/gpu_twins.c.
GPUC := $(BUILD)/tests/gpu-cpu
GPUC_TESTS := $(sort $(wildcard tests/gpu/t_*.sh))

$(GPUC)/libgpu_twins.so: $(GPU_SRC)/gpu_twins.c $(HE_DIR)/hipemu.h
	@mkdir -p $(@D)
	$(CC) $(LB_CFLAGS) -I$(HE_DIR) -shared $< -o $@ -pthread

ifneq ($(HC_HAVE_CUDA),)
CHECK_GROUPS += gpu-cpu
endif

.PHONY: check-gpu-cpu
check-gpu-cpu: $(HC_RT) $(HC_DRV) $(GPUC)/libgpu_twins.so \
		$(foreach p,$(GPU_PROGS),$(GPU_B)/$(p)_shared) \
		$(BUILD)/liblbshim.so $(BUILD)/lbtrace
	@BUILD=$(BUILD) CUDA_HOME=$(CUDA_HOME) \
		sh mk/run-tests.sh gpu-cpu $(BUILD)/results $(GPUC_TESTS)

# `make demo-gpu`: the PyTorch pipeline A/B-compared on this machine's
# NVIDIA GPU (tests/gpu/demo_gpu.sh; issue #36).  DEMO_GPU_SECONDS per
# run, DEMO_GPU_RUNS runs an arm.
DEMO_GPU_SECONDS ?= 20
DEMO_GPU_RUNS ?= 3
.PHONY: demo-gpu
demo-gpu: gpu-bundle
	bash tests/gpu/demo_gpu.sh $(GPU_B) $(BUILD)/demo-gpu \
		$(DEMO_GPU_SECONDS) $(DEMO_GPU_RUNS)

# tests/cuda/t_realdriver.sh runs the suite's launch program on NVIDIA's
# real cudart.
ifneq ($(HC_HAVE_CUDA),)
check-cuda: $(GPU_B)/launch_shared
endif
