# mk/zbench.mk - `make bench`: one table of every figure of the
# performance goals (issue 16), each beside its goal, configurations
# measured interleaved in one run (tests/bench/bench.sh), then the same
# workloads on hipemu with a GPU's costs (tests/bench/bench_gpu.sh).
# Named to be read after the other mk/*.mk: its prerequisites are their
# products.  The per-part benchmarks (bench-trace, bench-pool,
# bench-stream0, bench-lbtrace, bench-passthrough) stay targets of their
# own, for their details; `make bench` runs the table, which measures
# what each of them measures.

BENCH_T := $(BUILD)/bench

$(BENCH_T)/lbbench: tests/bench/lbbench.c include/lbshim/hip_decls.h
	@mkdir -p $(@D)
	$(CC) -std=gnu11 -O2 -g $(WARN) -D__HIP_PLATFORM_AMD__ -Iinclude $< -o $@ \
		-L/usr/lib/x86_64-linux-gnu -lamdhip64 -lpthread

# stream0's hazard-check row launches this code object's 8-pointer kernel
$(BENCH_T)/ptr8.co: tests/bench/ptr8.hip
	@mkdir -p $(@D)
	$(HIPCC) --genco $(HIPCC_FLAGS) $< -o $@

# The no-op runtime of the table: the trace tests' fake with the last-error
# calls a real runtime has (fakehip.c, FAKE_LASTERR), so that the shim does
# the last-error work it does for users.
$(BENCH_T)/fake/libamdhip64.so.5: tests/policies/trace/fakehip.c $(TRACE_FAKE)/fake.map
	@mkdir -p $(@D)
	$(CC) $(TRACE_CFLAGS) -O2 -DFAKE_LASTERR -fPIC -fvisibility=hidden -shared $< \
		-o $@ -Wl,-soname,libamdhip64.so.5 \
		-Wl,--version-script=$(TRACE_FAKE)/fake.map
	ln -sf libamdhip64.so.5 $(@D)/libamdhip64.so

BENCH_DEPS := $(BENCH_T)/lbbench $(BENCH_T)/ptr8.co $(BUILD)/liblbshim.so \
	$(TRACE_T)/tkargs.fatbin \
	$(BUILD)/lbtrace $(BENCH_T)/fake/libamdhip64.so.5 \
	$(TRACE_FAKE)/libamdhip64.so.5 $(HE_LIB) $(S0_DIR)/libs0twins.so \
	$(PT_DIR)/pool_bench $(LBT_TEST_DIR)/gen_trace

.PHONY: bench-table
bench-table: $(BENCH_DEPS)
	@BUILD=$(BUILD) sh tests/bench/bench.sh

BENCH_TARGETS += bench-table

# Instructions per call of each path (callgrind: the load does not change
# them), the figures commit messages quote before and after a change to a
# hot path.  Not part of `make bench`: valgrind takes about a minute.
.PHONY: bench-icount
bench-icount: $(BENCH_T)/lbbench $(BENCH_T)/ptr8.co $(BUILD)/liblbshim.so \
		$(BENCH_T)/fake/libamdhip64.so.5 $(HE_LIB) $(GPU_B)/callcost_shared
	@BUILD=$(BUILD) sh tests/bench/icount.sh
