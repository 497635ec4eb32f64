# mk/pool.mk - the pool policy's tests (check-pool, check-pool-tsan) and
# benchmark (bench-pool).  The policy itself is compiled into liblbshim.so
# by mk/shim.mk with every policies/*.c.

PT_DIR := $(BUILD)/tests/policies/pool
PT_CFLAGS = -std=gnu11 -O2 -g $(WARN) -D__HIP_PLATFORM_AMD__ -Iinclude \
	-Itests/hipemu -Itests/policies/pool -Itests/common
PT_HIPLIB := -L/usr/lib/x86_64-linux-gnu -lamdhip64
PT_PROG_SRC := tests/policies/pool/pool_test.c tests/policies/pool/pool_test_api.c \
	tests/policies/pool/pool_test_starve.c \
	tests/policies/pool/pool_test_capture.c
PT_HDRS := tests/policies/pool/pool_common.h tests/common/lbtest.h \
	include/lbshim/hip_decls.h
PT_DEPS := $(PT_DIR)/pool_test $(PT_DIR)/pool_bench $(PT_DIR)/libpooltwins.so \
	$(PT_DIR)/pool_edges $(PT_DIR)/pool_streamwork $(PT_DIR)/libpwtwin.so
# The shim under test; a developer may point it at another build.
POOL_SHIM ?= $(BUILD)/liblbshim.so
PT_TESTS = $(sort $(wildcard tests/policies/pool/t_*.sh))
# ThreadSanitizer builds: the whole shim (mk/reliability.mk's, which the
# tsan and stream0-tsan groups use too: the same sources and flags, built
# once), the test program, hipemu's own.
PT_TSAN_DIR := $(BUILD)/pool-tsan
PT_TSAN_SHIM := $(BUILD)/tsan/liblbshim.so
PT_TSAN_DEPS := $(PT_TSAN_SHIM) $(PT_TSAN_DIR)/pool_test

CHECK_GROUPS += pool pool-tsan
.PHONY: check-pool check-pool-tsan bench-pool pool-tests pool-tsan

pool-tests: $(PT_DEPS)
pool-tsan: $(PT_TSAN_DEPS)

$(PT_DIR)/libpooltwins.so: tests/policies/pool/pool_twins.c tests/hipemu/hipemu.h
	@mkdir -p $(@D)
	$(CC) $(PT_CFLAGS) -fPIC -shared $< -o $@

$(PT_DIR)/pool_test: $(PT_PROG_SRC) $(PT_HDRS)
	@mkdir -p $(@D)
	$(CC) $(PT_CFLAGS) $(PT_PROG_SRC) -o $@ $(PT_HIPLIB) -lpthread

$(PT_DIR)/libpwtwin.so: tests/policies/pool/pool_streamwork_twin.c tests/hipemu/hipemu.h
	@mkdir -p $(@D)
	$(CC) $(PT_CFLAGS) -fPIC -shared $< -o $@

$(PT_DIR)/pool_streamwork: tests/policies/pool/pool_streamwork.c \
		tests/policies/pool/pool_streamwork_more.h $(PT_HDRS)
	@mkdir -p $(@D)
	$(CC) $(PT_CFLAGS) $< -o $@ $(PT_HIPLIB) -lpthread

$(PT_DIR)/pool_edges: tests/policies/pool/pool_edges.c $(PT_HDRS)
	@mkdir -p $(@D)
	$(CC) $(PT_CFLAGS) $< -o $@ $(PT_HIPLIB) -lpthread

$(PT_DIR)/pool_bench: tests/policies/pool/pool_bench.c $(PT_HDRS)
	@mkdir -p $(@D)
	$(CC) $(PT_CFLAGS) $< -o $@ $(PT_HIPLIB) -lpthread

$(PT_TSAN_DIR)/pool_test: $(PT_PROG_SRC) $(PT_HDRS)
	@mkdir -p $(@D)
	$(CC) $(PT_CFLAGS) -O1 -fsanitize=thread $(PT_PROG_SRC) -o $@ \
		$(PT_HIPLIB) -lpthread

check-pool: $(POOL_SHIM) $(HE_LIB) $(PT_DEPS) $(BUILD)/lbtrace
	@PT_BUILD=$(BUILD) PT_SHIM=$(POOL_SHIM) sh mk/run-tests.sh pool \
		$(BUILD)/results $(PT_TESTS)

check-pool-tsan: $(PT_DIR)/libpooltwins.so $(PT_TSAN_DEPS) $(HE_TSAN_LIB)
	@PT_BUILD=$(BUILD) PT_TSAN_SHIM=$(PT_TSAN_SHIM) \
		sh mk/run-tests.sh pool-tsan $(BUILD)/results \
		tests/policies/pool/tsan_threads.sh

# make stress runs tsan_threads.sh at full length (mk/reliability.mk)
stress: $(PT_DIR)/libpooltwins.so $(PT_TSAN_DEPS)

bench-pool: $(POOL_SHIM) $(HE_LIB) $(PT_DEPS)
	@PT_BUILD=$(BUILD) PT_SHIM=$(POOL_SHIM) sh tests/policies/pool/bench.sh
