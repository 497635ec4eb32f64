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
CUT_DEPS := $(CUT)/check_cuda_table $(BUILD)/liblbshim.so $(BUILD)/lbtrace
check-cuda: $(CUT_DEPS)
	@BUILD=$(BUILD) CUDA_HOME=$(CUDA_HOME) \
		sh mk/run-tests.sh cuda $(BUILD)/results $(CUT_TESTS)
else
check-cuda:
	@echo "cuda: skipped: no CUDA toolkit in $(CUDA_HOME)"
endif
