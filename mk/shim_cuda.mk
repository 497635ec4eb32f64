# mk/shim_cuda.mk - the shim's CUDA face (include/lbshim/cuda_api.def,
# shim/*cuda*.c) and its group, cuda: the rows against NVIDIA's headers
# and libraries, the real libcudart.so.13 (which answers without a device
# or a driver) and hipemu's CUDA face under the shim, the trace of CUDA
# calls.  The shim builds without the toolkit; the group needs it
# (CUDA_HOME, mk/hipemu_cuda.mk: read before this file) and, without it,
# is no group: make check-cuda says so in one line.

CUT := $(BUILD)/tests/cuda
CUT_DIR := tests/cuda
CUT_TESTS := $(sort $(wildcard $(CUT_DIR)/t_*.sh))

.PHONY: check-cuda

$(CUT)/check_cuda_table: $(CUT_DIR)/check_cuda_table.c shim/api_info.c \
		$(API_DEFS) include/lbshim/api.h include/lbshim/cuda_decls.h
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) $(CHECK_CFLAGS) $< shim/api_info.c -o $@ \
		$(CHECK_LIBS) -ldl

ifneq ($(HC_HAVE_CUDA),)
CHECK_GROUPS += cuda
CUT_DEPS := $(CUT)/check_cuda_table $(BUILD)/liblbshim.so $(BUILD)/lbtrace \
	$(CUT)/prog_lookup $(CUT)/prog_rtcalls $(CUT)/prog_rtcalls_dl \
	$(CUT)/vecadd_static \
	$(CUT)/prog_xv $(CUT)/prog_xv_hip \
	$(BUILD)/gpu/fault_shared $(BUILD)/tests/gpu-cpu/libgpu_twins.so \
	$(CUT)/prog_cupol $(CUT)/prog_fold \
	$(HC_RT) $(HC_DRV) $(HCT_PROGS)
check-cuda: $(CUT_DEPS)
	@BUILD=$(BUILD) CUDA_HOME=$(CUDA_HOME) \
		sh mk/run-tests.sh cuda $(BUILD)/results $(CUT_TESTS)
else
check-cuda:
	@echo "cuda: skipped: no CUDA toolkit in $(CUDA_HOME)"
endif

# Driver-API programs, as hipemu-cuda's drv: C against NVIDIA's headers,
# linked with the toolkit's stub and cudart (run on hipemu's face);
# cudaGetDriverEntryPoint is deprecated in 13.0, and tested all the same.
$(CUT)/prog_lookup: $(CUT_DIR)/prog_lookup.c
	@mkdir -p $(@D)
	$(CC) $(LB_CFLAGS) -Wno-deprecated-declarations -I$(CUDA_HOME)/include \
		$< -o $@ \
		-L$(CUDA_HOME)/lib64/stubs -lcuda -L$(CUDA_HOME)/lib64 \
		-lcudart -ldl -pthread

# The policies on CUDA (t_policies.sh), built as prog_lookup.
$(CUT)/prog_cupol: $(CUT_DIR)/prog_cupol.c
	@mkdir -p $(@D)
	$(CC) $(LB_CFLAGS) -I$(CUDA_HOME)/include $< -o $@ \
		-L$(CUDA_HOME)/lib64/stubs -lcuda -L$(CUDA_HOME)/lib64 \
		-lcudart -ldl -pthread

# Device queries folded by the trace (t_fold.sh), built as prog_lookup.
$(CUT)/prog_fold: $(CUT_DIR)/prog_fold.c
	@mkdir -p $(@D)
	$(CC) $(LB_CFLAGS) -I$(CUDA_HOME)/include $< -o $@ \
		-L$(CUDA_HOME)/lib64 -lcudart -ldl -pthread

# Every runtime row called on NVIDIA's real cudart (t_realcudart.sh).
$(CUT)/prog_rtcalls: $(CUT_DIR)/prog_rtcalls.c $(API_DEFS) \
		include/lbshim/cuda_decls.h
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) -Wno-deprecated-declarations $< -o $@ \
		-L$(CUDA_HOME)/lib64 -Wl,--no-as-needed -lcudart -ldl
# The same, linked with no runtime: it dlopens the one it is given
# (libcudart.so.12, from Debian's archive: tests/realrocm/sets.txt).
$(CUT)/prog_rtcalls_dl: $(CUT_DIR)/prog_rtcalls.c $(API_DEFS) \
		include/lbshim/cuda_decls.h
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) -Wno-deprecated-declarations $< -o $@ -ldl

# The two halves of lbtrace's cross-vendor comparison (t_lbtrace_ab.sh):
# nvcc's with shared cudart and the driver's stub, cc's HIP against hipemu.
$(CUT)/prog_xv: $(CUT_DIR)/prog_xv.cu $(HCT_DIR)/cutest.h $(HCT_DIR)/kernels.cuh
	@mkdir -p $(@D)
	$(HCT_NVCC) -I$(HCT_DIR) $< -o $@ -L$(CUDA_HOME)/lib64/stubs -lcuda \
		-lpthread
$(CUT)/prog_xv_hip: $(CUT_DIR)/prog_xv_hip.c include/lbshim/hip_decls.h \
		$(HE_LIB)
	@mkdir -p $(@D)
	$(CC) $(LB_CFLAGS) $< -o $@ -L$(BUILD)/hipemu -lamdhip64

# hipemu-cuda's vector add with nvcc's default, static cudart.
$(CUT)/vecadd_static: $(HCT_DIR)/vecadd.cu $(HCT_DIR)/cutest.h \
		$(HCT_DIR)/kernels.cuh
	@mkdir -p $(@D)
	$(NVCC) -O2 -arch=sm_90 -I$(HCT_DIR) $< -o $@ -lpthread
