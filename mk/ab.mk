# mk/ab.mk - lbtrace's ab and run commands (tools/ab/: ab*.c, runner.c,
# stats.c, svg.c: linked into build/lbtrace by mk/lbtrace.mk's wildcard),
# their tests (group ab), the demo workload (tests/workloads/) and
# `make demo`.

AB_DIR := $(BUILD)/tests/tools/ab
AB_SRCS := $(addprefix tools/ab/,ab.c ab_print.c runner.c stats.c svg.c \
	twins.c)
WL_DIR := $(BUILD)/workloads
PY_INCLUDE = $(shell python3 -c 'import sysconfig; print(sysconfig.get_paths()["include"])')

CHECK_GROUPS += ab

# Synthetic traces with known distributions.
$(AB_DIR)/gen: tests/tools/ab/gen.c shim/api_info.c include/lbshim/trace_format.h \
		include/lbshim/api.h $(API_DEFS)
	@mkdir -p $(@D)
	$(CC) $(LB_CFLAGS) -o $@ tests/tools/ab/gen.c shim/api_info.c

# A preload library of the test's own, to see that run keeps LD_PRELOAD.
$(AB_DIR)/libmarker.so: tests/tools/ab/marker.c
	@mkdir -p $(@D)
	$(CC) $(LB_CFLAGS) -shared -o $@ $<

$(AB_DIR)/check_stats: tests/tools/ab/check_stats.c tools/ab/stats.c tools/ab/stats.h
	@mkdir -p $(@D)
	$(CC) $(LB_CFLAGS) -Itools $(CHECK_CFLAGS) -o $@ tests/tools/ab/check_stats.c \
		tools/ab/stats.c $(CHECK_LIBS) -lm

# The command the run tests run (on hipemu).
$(AB_DIR)/prog_loop: tests/tools/ab/prog_loop.c
	@mkdir -p $(@D)
	$(CC) $(LB_CFLAGS) -o $@ $< -L/usr/lib/x86_64-linux-gnu -lamdhip64

# A program no preload reaches (t_run_notrace.sh).
$(AB_DIR)/prog_static: tests/tools/ab/prog_static.c
	@mkdir -p $(@D)
	$(CC) -O2 -static -o $@ $<

# A stand-alone ab/run driver (tests/tools/ab/ab_main.c) with the reader, for
# trying the commands without lbtrace's dispatch; liblbshim.so is linked
# next to it because run looks for the library beside its executable.
$(AB_DIR)/ab_main: tests/tools/ab/ab_main.c $(AB_SRCS) $(wildcard tools/*/*.h) \
		$(wildcard tools/read/*.c) shim/api_info.c $(BUILD)/liblbshim.so
	@mkdir -p $(@D)
	$(CC) $(LB_CFLAGS) -Itools -o $@ tests/tools/ab/ab_main.c $(AB_SRCS) \
		$(wildcard tools/read/*.c) shim/api_info.c -lstdc++ -lm
	ln -sf $(abspath $(BUILD)/liblbshim.so) $(@D)/liblbshim.so

# ---- the demo workload: a HIP extension for Python, and its hipemu twins

$(WL_DIR)/evalpipe.so: tests/workloads/evalpipe.hip
	@mkdir -p $(@D)
	$(HIPCC) $(HIPCC_FLAGS) -shared -fPIC -I$(PY_INCLUDE) $< -o $@

$(WL_DIR)/libevalpipe_twins.so: tests/workloads/evalpipe_twins.c tests/hipemu/hipemu.h
	@mkdir -p $(@D)
	$(CC) $(LB_CFLAGS) -Itests/hipemu -shared -o $@ $<

WL_DEPS := $(WL_DIR)/evalpipe.so $(WL_DIR)/libevalpipe_twins.so \
	$(BUILD)/hipemu/libamdhip64.so.5 $(BUILD)/liblbshim.so $(BUILD)/lbtrace

AB_TESTS := $(sort $(wildcard tests/tools/ab/t_*.sh))
# The lbtrace under test; `make check-ab AB_LBTRACE=build/tests/tools/ab/ab_main`
# tries the commands before they are in lbtrace's dispatch table.
AB_LBTRACE ?= $(BUILD)/lbtrace

.PHONY: check-ab
check-ab: $(BUILD)/lbtrace $(BUILD)/liblbshim.so $(AB_DIR)/gen \
		$(AB_DIR)/libmarker.so $(AB_DIR)/prog_loop $(AB_DIR)/ab_main \
		$(AB_DIR)/prog_static \
		$(AB_DIR)/check_stats \
		$(WL_DEPS)
	@BUILD=$(BUILD) LBTRACE=$(AB_LBTRACE) \
	  sh mk/run-tests.sh ab $(BUILD)/results $(AB_TESTS)

# `make demo`: the pipeline A/B-compared, trace only against trace with
# stream0 and pool, on hipemu's GPU-like cost profile.  DEMO_RUNS runs
# per arm of DEMO_SECONDS each.
DEMO_RUNS ?= 5
DEMO_SECONDS ?= 4
DEMO_LBTRACE ?= $(BUILD)/lbtrace
demo: $(WL_DEPS) $(DEMO_LBTRACE) $(BUILD)/liblbshim.so
	@rm -rf $(BUILD)/demo; mkdir -p $(BUILD)/demo
	@L=$(DEMO_LBTRACE); \
	echo "== lbtrace run --ab trace/trace,stream0,pool -n $(DEMO_RUNS)" \
		"over tests/workloads/evaluate.py (hipemu, HIPEMU_PROFILE=gpu)"; \
	LD_LIBRARY_PATH=$(abspath $(BUILD)/hipemu) HIPEMU_PROFILE=gpu \
	  HIPEMU_KERNELS=$(abspath $(WL_DIR)/libevalpipe_twins.so) \
	  PYTHONPATH=$(abspath $(WL_DIR)) EVAL_SECONDS=$(DEMO_SECONDS) \
	  $$L run --ab trace/trace,stream0,pool -n $(DEMO_RUNS) \
	    -o $(BUILD)/demo/runs --svg $(BUILD)/demo/ab.svg -- \
	    python3 tests/workloads/evaluate.py --quiet
	@echo "== picture: $(BUILD)/demo/ab.svg; traces: $(BUILD)/demo/runs"
