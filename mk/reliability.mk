# mk/reliability.mk - the shim never harms the host program: fault
# injection, missing runtimes, full disks, signals, fork, load, huge traces,
# hostile environment values and trace paths (tests/reliability/).
#
# Groups: reliability (shell tests, also against the ASan shim where cheap)
# and tsan (the load test under ThreadSanitizer).  `make stress` runs the
# long versions: 32 threads for 10 s, a trace of 100 million records.

REL := $(BUILD)/tests/reliability
REL_CFLAGS = -std=gnu11 -O2 -g $(WARN) -D__HIP_PLATFORM_AMD__ -Iinclude \
	-Itests/hipemu
REL_HIPLIB := -L/usr/lib/x86_64-linux-gnu -lamdhip64
TSAN_OBJS = $(patsubst %.c,$(BUILD)/tsan/obj/%.o,$(SHIM_SRCS))
TSAN_SHIM := $(BUILD)/tsan/liblbshim.so

# Programs on hipemu, exporting their kernel twins.
REL_HIP_PROGS := prog_sweep prog_signals prog_fork prog_load
# Tools of the tests themselves (no HIP).
REL_TOOLS := lbt_count gen_big rss_run

REL_DEPS = $(BUILD)/liblbshim.so $(HE_LIB) $(BUILD)/lbtrace $(addprefix $(REL)/,$(REL_HIP_PROGS) $(REL_TOOLS)) \
	$(addprefix $(SHIMT)/,$(SHIMT_PROGS)) $(FAKE_DIR)/libamdhip64.so.5 \
	$(FAKE_DIR)/partial/libpartialhip.so
REL_TESTS = $(sort $(wildcard tests/reliability/t_*.sh))

CHECK_GROUPS += reliability reliability-asan tsan
.PHONY: check-reliability check-reliability-asan check-tsan reliability-tests tsan-shim

reliability-tests: $(REL_DEPS)
tsan-shim: $(TSAN_SHIM)

$(addprefix $(REL)/,$(REL_HIP_PROGS)): $(REL)/%: tests/reliability/%.c \
		tests/hipemu/hipemu.h include/lbshim/hip_decls.h
	@mkdir -p $(@D)
	$(CC) $(REL_CFLAGS) $< -o $@ -rdynamic $(REL_HIPLIB) -lpthread

$(addprefix $(REL)/,$(REL_TOOLS)): $(REL)/%: tests/reliability/%.c \
		include/lbshim/trace_format.h $(API_DEFS) shim/api_info.c
	@mkdir -p $(@D)
	$(CC) $(REL_CFLAGS) $< $(if $(filter gen_big,$*),shim/api_info.c) -o $@

# The shim built with ThreadSanitizer.
$(BUILD)/tsan/obj/%.o: %.c $(wildcard include/lbshim/*.h include/lbshim/*.def shim/*.h policies/*/*.h)
	@mkdir -p $(@D)
	$(CC) $(SHIM_CFLAGS) -fsanitize=thread -O1 -c $< -o $@
$(TSAN_SHIM): $(TSAN_OBJS) $(BUILD)/liblbshim.map
	$(CC) -shared -fsanitize=thread -o $@ $(TSAN_OBJS) $(SHIM_LDFLAGS) \
		$(SHIM_LIBS)

# Tests read BUILD, SHIM, PRELOAD_PREFIX (tests/shim/lib.sh) and REL_MODE
# (check or stress).
check-reliability: $(REL_DEPS)
	@BUILD=$(BUILD) SHIM=$(abspath $(BUILD)/liblbshim.so) PRELOAD_PREFIX= \
	  REL_MODE=check sh mk/run-tests.sh reliability $(BUILD)/results $(REL_TESTS)

# The ASan shim runs the tests where that is cheap (REL_ASAN=1 tells
# them): the tests marked "# asan: yes".
check-reliability-asan: $(REL_DEPS) $(BUILD)/asan/liblbshim.so
	@BUILD=$(BUILD) SHIM=$(abspath $(BUILD)/asan/liblbshim.so) \
	  PRELOAD_PREFIX="$(SAN_PRELOAD)" \
	  ASAN_OPTIONS=detect_leaks=0:abort_on_error=0:exitcode=99 \
	  UBSAN_OPTIONS=halt_on_error=1:exitcode=98 REL_ASAN=1 \
	  REL_MODE=check sh mk/run-tests.sh reliability-asan $(BUILD)/results \
	  $(shell grep -l '^# asan: yes' $(REL_TESTS))

check-tsan: $(REL_DEPS) $(TSAN_SHIM) $(HE_TSAN_LIB)
	@BUILD=$(BUILD) SHIM=$(abspath $(BUILD)/liblbshim.so) TSAN_SHIM=$(abspath $(TSAN_SHIM)) \
	  REL_MODE=check sh mk/run-tests.sh tsan $(BUILD)/results tests/reliability/tsan_load.sh

stress: $(REL_DEPS) $(TSAN_SHIM) $(HE_TSAN_LIB)
	@mkdir -p $(BUILD)/results
	@BUILD=$(BUILD) SHIM=$(abspath $(BUILD)/liblbshim.so) TSAN_SHIM=$(abspath $(TSAN_SHIM)) \
	  PT_BUILD=$(BUILD) PT_TSAN_SHIM=$(abspath $(TSAN_SHIM)) \
	  REL_MODE=stress QUALIFY=1 sh mk/run-tests.sh stress $(BUILD)/results \
	  tests/reliability/t_load.sh tests/reliability/tsan_load.sh \
	  tests/reliability/t_bigtrace.sh tests/reliability/t_fork.sh \
	  tests/policies/pool/tsan_threads.sh; \
	  rc=$$?; cat $(BUILD)/results/stress; exit $$rc
