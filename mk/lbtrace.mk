# mk/lbtrace.mk - build/lbtrace, its tests (group lbtrace), the fuzz
# harness replayed under ASan+UBSan (group fuzz-replay), `make fuzz` and
# the speed figures (bench-lbtrace).

LBT_SRCS := $(wildcard tools/*/*.c)
LBT_OBJS := $(patsubst tools/%.c,$(BUILD)/tools/obj/%.o,$(LBT_SRCS)) \
	$(BUILD)/tools/obj/api_info.o $(BUILD)/tools/obj/hip_names.o
LBT_HDRS := $(wildcard tools/*/*.h include/lbshim/*.h include/lbshim/*.def)
LBT_CFLAGS = $(LB_CFLAGS) -Itools
# the reader and the formats without main(), for the fuzz harness
LBT_LIB_SRCS := $(addprefix tools/read/,reader.c reader_batch.c reader_iter.c \
	reader_strings.c reader_header.c) \
	$(addprefix tools/format/,out.c fields.c fmt_text.c fmt_json.c \
	export_chrome.c export_svg.c kinfo.c kargs.c runtime.c until.c \
	cuda_names.c) $(addprefix tools/cmd/,run.c summary.c crash.c sketch.c) \
	shim/api_info.c shim/hip_names.c

ALL_TARGETS += $(BUILD)/lbtrace
CHECK_GROUPS += lbtrace fuzz-replay
CLEAN_FILES +=

$(BUILD)/tools/obj/%.o: tools/%.c $(LBT_HDRS)
	@mkdir -p $(@D)
	$(CC) $(LBT_CFLAGS) -c $< -o $@

# api_info.c and hip_names.c are the shim's, built again here without the
# shim's flags
$(BUILD)/tools/obj/api_info.o $(BUILD)/tools/obj/hip_names.o: $(BUILD)/tools/obj/%.o: shim/%.c $(LBT_HDRS)
	@mkdir -p $(@D)
	$(CC) $(LBT_CFLAGS) -c $< -o $@

$(BUILD)/lbtrace: $(LBT_OBJS)
	$(CC) -o $@ $(LBT_OBJS) -lstdc++ -lm

# ---- tests ----

LBT_TEST_DIR := $(BUILD)/tests/tools/lbtrace

$(LBT_TEST_DIR)/gen_trace: tests/tools/lbtrace/gen_trace.c \
		tests/tools/lbtrace/gen_crash.c tests/tools/lbtrace/gen_v2.c \
		tests/tools/lbtrace/gen_pipe.c \
		tests/tools/lbtrace/gen_trace.h shim/api_info.c $(LBT_HDRS)
	@mkdir -p $(@D)
	$(CC) $(LB_CFLAGS) -o $@ tests/tools/lbtrace/gen_trace.c \
		tests/tools/lbtrace/gen_crash.c tests/tools/lbtrace/gen_v2.c \
		tests/tools/lbtrace/gen_pipe.c shim/api_info.c

$(LBT_TEST_DIR)/errtab: tests/tools/lbtrace/errtab.c shim/hip_names.c include/lbshim/names.h
	@mkdir -p $(@D)
	$(CC) $(LBT_CFLAGS) -o $@ tests/tools/lbtrace/errtab.c shim/hip_names.c

$(LBT_TEST_DIR)/cudaerrtab: tests/tools/lbtrace/cudaerrtab.c tools/format/cuda_names.c $(LBT_HDRS)
	@mkdir -p $(@D)
	$(CC) $(LBT_CFLAGS) -o $@ tests/tools/lbtrace/cudaerrtab.c tools/format/cuda_names.c

$(LBT_TEST_DIR)/sketch_test: tests/tools/lbtrace/sketch_test.c tools/cmd/sketch.c tools/cmd/sketch.h
	@mkdir -p $(@D)
	$(CC) $(LBT_CFLAGS) -o $@ tests/tools/lbtrace/sketch_test.c tools/cmd/sketch.c

$(LBT_TEST_DIR)/out_test: tests/tools/lbtrace/out_test.c tools/format/out.c tools/format/out.h
	@mkdir -p $(@D)
	$(CC) $(LBT_CFLAGS) -o $@ tests/tools/lbtrace/out_test.c tools/format/out.c

# the reader's two scans compared, under ASan+UBSan (the reader's own code
# is what it tests)
$(LBT_TEST_DIR)/scan_test: tests/tools/lbtrace/scan_test.c $(LBT_LIB_SRCS) $(LBT_HDRS)
	@mkdir -p $(@D)
	$(CC) $(LBT_CFLAGS) -O1 -fsanitize=address,undefined -fno-sanitize-recover=all \
		-fno-omit-frame-pointer -o $@ tests/tools/lbtrace/scan_test.c \
		$(LBT_LIB_SRCS) -lstdc++ -lm

LBT_TESTS := $(sort $(wildcard tests/tools/lbtrace/test_*.sh))
# test_real.sh reads traces of the real trace policy, written over the
# trace tests' fake runtime (mk/trace.mk) when that part is present
LBT_REAL_DEPS := $(if $(wildcard mk/trace.mk),$(BUILD)/liblbshim.so \
	$(BUILD)/trace/tprog $(BUILD)/trace/fake/libamdhip64.so.5)

.PHONY: check-lbtrace check-fuzz-replay fuzz bench-lbtrace lbtrace-golden \
	svg-png demo-timeline
check-lbtrace: $(BUILD)/lbtrace $(LBT_TEST_DIR)/gen_trace $(LBT_TEST_DIR)/errtab \
		$(LBT_TEST_DIR)/cudaerrtab \
		$(LBT_TEST_DIR)/sketch_test $(LBT_TEST_DIR)/out_test \
		$(LBT_TEST_DIR)/scan_test $(LBT_REAL_DEPS)
	@BUILD=$(BUILD) sh mk/run-tests.sh lbtrace $(BUILD)/results $(LBT_TESTS)

# Rewrites tests/tools/lbtrace/golden/ from the current output (review the diff).
lbtrace-golden: $(BUILD)/lbtrace $(LBT_TEST_DIR)/gen_trace
	BUILD=$(BUILD) UPDATE_GOLDEN=1 sh tests/tools/lbtrace/test_golden.sh

# ---- pictures ----

# An SVG that lbtrace drew, rendered as PNG beside it (rsvg-convert, else
# ImageMagick's convert): make svg-png SVG=FILE.svg
svg-png:
	@sh tests/tools/lbtrace/svg2png.sh "$(SVG)"

# After `make demo`: the first run of each arm (A: trace alone, B: trace,
# stream0 and pool) drawn one above the other, SVG and PNG.
demo-timeline: $(BUILD)/lbtrace
	@a=$$(ls $(BUILD)/demo/runs/A/001/*.lbt 2>/dev/null | head -n 1); \
	b=$$(ls $(BUILD)/demo/runs/B/001/*.lbt 2>/dev/null | head -n 1); \
	[ -n "$$a" ] && [ -n "$$b" ] || \
		{ echo "demo-timeline: no traces in $(BUILD)/demo/runs: make demo first" >&2; exit 2; }; \
	$(BUILD)/lbtrace export --svg $(BUILD)/demo/timeline.svg $$a $$b && \
	sh tests/tools/lbtrace/svg2png.sh $(BUILD)/demo/timeline.svg

# ---- fuzzing ----

FUZZ_DIR := $(BUILD)/fuzz
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer
FUZZ_CFLAGS = -std=gnu11 -O1 -g $(WARN) -D__HIP_PLATFORM_AMD__ -Iinclude -Itools
FUZZ_TIME ?= 300

# replay build: the harness plus a main() that runs each corpus file
$(FUZZ_DIR)/fuzz_replay: tests/tools/read/fuzz_reader.c tests/tools/read/replay_main.c \
		$(LBT_LIB_SRCS) $(LBT_HDRS)
	@mkdir -p $(@D)
	$(CC) $(FUZZ_CFLAGS) $(FUZZ_SAN) -o $@ tests/tools/read/fuzz_reader.c \
		tests/tools/read/replay_main.c $(LBT_LIB_SRCS) -lstdc++ -lm

# (clang: shim/api_info.c adds an offset to a string literal on purpose)
$(FUZZ_DIR)/fuzz_reader: tests/tools/read/fuzz_reader.c $(LBT_LIB_SRCS) $(LBT_HDRS)
	@mkdir -p $(@D)
	clang $(FUZZ_CFLAGS) -Wno-string-plus-int -fsanitize=fuzzer,address,undefined \
		-fno-omit-frame-pointer -o $@ tests/tools/read/fuzz_reader.c \
		$(LBT_LIB_SRCS) -lstdc++ -lm

check-fuzz-replay: $(FUZZ_DIR)/fuzz_replay
	@BUILD=$(BUILD) sh mk/run-tests.sh fuzz-replay $(BUILD)/results \
		tests/tools/read/test_replay.sh

# A long libFuzzer run over a copy of the corpus; crashes land in
# build/fuzz/artifacts/.
fuzz: $(FUZZ_DIR)/fuzz_reader
	@mkdir -p $(FUZZ_DIR)/corpus $(FUZZ_DIR)/artifacts
	cp tests/tools/read/corpus/* $(FUZZ_DIR)/corpus/
	$(FUZZ_DIR)/fuzz_reader -max_total_time=$(FUZZ_TIME) -max_len=65536 \
		-timeout=10 -rss_limit_mb=2048 \
		-artifact_prefix=$(FUZZ_DIR)/artifacts/ $(FUZZ_DIR)/corpus

# ---- speed ----

bench-lbtrace: $(BUILD)/lbtrace $(LBT_TEST_DIR)/gen_trace
	@BUILD=$(BUILD) sh tests/tools/lbtrace/bench.sh
