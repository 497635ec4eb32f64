# mk/stream0.mk - the stream0 policy's tests (check-stream0) and benchmark
# (bench-stream0).  The policy itself is compiled into liblbshim.so by
# mk/shim.mk with every policies/*.c.

S0_DIR := $(BUILD)/tests/policies/stream0
S0_CFLAGS = -std=gnu11 -O2 -g $(WARN) -D__HIP_PLATFORM_AMD__ -Iinclude \
	-Itests/hipemu -Itests/policies/stream0 -Itests/common
S0_HIPLIB := -L/usr/lib/x86_64-linux-gnu -lamdhip64
S0_DEPS := $(S0_DIR)/s0_test $(S0_DIR)/s0_bench $(S0_DIR)/libs0twins.so \
	$(S0_DIR)/s0_spt $(S0_DIR)/libs0spt_twin.so $(S0_DIR)/s0_pt \
	$(S0_DIR)/torch/libc10_hip.so $(S0_DIR)/cudatorch/libc10_cuda.so \
	$(S0_DIR)/s0_apis \
	$(S0_DIR)/libs0apis_twin.so $(S0_DIR)/s0_hz $(S0_DIR)/s0_hzk \
	$(S0_DIR)/libs0hzk_twin.so $(S0_DIR)/s0_fast $(S0_DIR)/s0_demangle \
	$(S0_DIR)/s0_share $(S0_DIR)/libs0share_twin.so
# The shim under test; a developer may point it at another build.
S0_SHIM ?= $(BUILD)/liblbshim.so
S0_TESTS = $(sort $(wildcard tests/policies/stream0/t_*.sh))

CHECK_GROUPS += stream0 stream0-tsan
.PHONY: check-stream0 check-stream0-tsan bench-stream0 stream0-tests

stream0-tests: $(S0_DEPS)

$(S0_DIR)/libs0twins.so: tests/policies/stream0/s0_twins.c tests/hipemu/hipemu.h
	@mkdir -p $(@D)
	$(CC) $(S0_CFLAGS) -fPIC -shared $< -o $@

$(S0_DIR)/libs0spt_twin.so: tests/policies/stream0/s0_spt_twin.c tests/hipemu/hipemu.h
	@mkdir -p $(@D)
	$(CC) $(S0_CFLAGS) -fPIC -shared $< -o $@

$(S0_DIR)/libs0hzk_twin.so: tests/policies/stream0/s0_hzk_twin.c tests/hipemu/hipemu.h
	@mkdir -p $(@D)
	$(CC) $(S0_CFLAGS) -fPIC -shared $< -o $@

$(S0_DIR)/libs0share_twin.so: tests/policies/stream0/s0_share_twin.c tests/hipemu/hipemu.h
	@mkdir -p $(@D)
	$(CC) $(S0_CFLAGS) -fPIC -shared $< -o $@

$(S0_DIR)/libs0apis_twin.so: tests/policies/stream0/s0_apis_twin.c tests/hipemu/hipemu.h
	@mkdir -p $(@D)
	$(CC) $(S0_CFLAGS) -fPIC -shared $< -o $@

$(S0_DIR)/s0_test $(S0_DIR)/s0_bench $(S0_DIR)/s0_pt $(S0_DIR)/s0_apis \
		$(S0_DIR)/s0_hz $(S0_DIR)/s0_fast: \
		$(S0_DIR)/%: tests/policies/stream0/%.c \
		tests/policies/stream0/s0_common.h tests/common/lbtest.h \
		include/lbshim/hip_decls.h
	@mkdir -p $(@D)
	$(CC) $(S0_CFLAGS) $< -o $@ $(S0_HIPLIB) -lpthread -ldl

# The shim's demangler alone, in a C program without libstdc++.
$(S0_DIR)/s0_demangle: tests/policies/stream0/s0_demangle.c shim/demangle.c \
		shim/shim.h
	@mkdir -p $(@D)
	$(CC) $(S0_CFLAGS) -Ishim $< shim/demangle.c -o $@ -ldl

# A stand-in for PyTorch's libc10_hip.so (the caching allocator's home),
# and for its CUDA build's libc10_cuda.so.
$(S0_DIR)/torch/libc10_hip.so: tests/policies/stream0/fake_c10.c
	@mkdir -p $(@D)
	$(CC) $(S0_CFLAGS) -fPIC -shared $< -o $@
$(S0_DIR)/cudatorch/libc10_cuda.so: tests/policies/stream0/fake_c10.c
	@mkdir -p $(@D)
	$(CC) $(S0_CFLAGS) -fPIC -shared $< -o $@

# Built by hipcc, so that the shim reads its kernels' argument layout.
$(S0_DIR)/s0_hzk: tests/policies/stream0/s0_hzk.hip
	@mkdir -p $(@D)
	$(HIPCC) $(HIPCC_FLAGS) $< -o $@

# Built by hipcc too: what threads share, and what they do not.
$(S0_DIR)/s0_share: tests/policies/stream0/s0_share.hip
	@mkdir -p $(@D)
	$(HIPCC) $(HIPCC_FLAGS) $< -o $@

# Built by hipcc with the per-thread default stream: launches are _spt.
$(S0_DIR)/s0_spt: tests/policies/stream0/s0_spt.hip
	@mkdir -p $(@D)
	$(HIPCC) $(HIPCC_FLAGS) -fgpu-default-stream=per-thread $< -o $@

check-stream0: $(S0_SHIM) $(HE_LIB) $(S0_DEPS) \
		$(if $(wildcard mk/lbtrace.mk),$(BUILD)/lbtrace)
	@S0_BUILD=$(BUILD) S0_SHIM=$(S0_SHIM) sh mk/run-tests.sh stream0 \
		$(BUILD)/results $(S0_TESTS)

bench-stream0: $(S0_SHIM) $(HE_LIB) $(S0_DEPS)
	@S0_BUILD=$(BUILD) S0_SHIM=$(S0_SHIM) sh tests/policies/stream0/bench.sh

# The modes' concurrent paths under ThreadSanitizer (build/tsan/liblbshim.so
# is mk/reliability.mk's TSan build of the shim).
check-stream0-tsan: $(BUILD)/tsan/liblbshim.so $(HE_LIB) $(HE_TSAN_LIB) \
		$(S0_DIR)/s0_pt $(S0_DIR)/s0_hz $(S0_DIR)/s0_fast \
		$(S0_DIR)/libs0twins.so
	@S0_BUILD=$(BUILD) sh mk/run-tests.sh stream0-tsan $(BUILD)/results \
		tests/policies/stream0/tsan_modes.sh
