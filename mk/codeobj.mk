# mk/codeobj.mk - the code-object reader (shim/codeobj*.c, shared by the
# shim and hipemu): its tests (group codeobj), its fuzz harness replayed
# under ASan+UBSan (group codeobj-fuzz) and `make fuzz-codeobj`.

LB_CO_SRCS := shim/codeobj.c shim/codeobj_meta.c shim/codeobj_libs.c
LB_CO_HDRS := include/lbshim/codeobj.h shim/codeobj_int.h
COT := tests/shim/codeobj
COB := $(BUILD)/codeobj
CO_BUNDLER := /usr/lib/llvm-15/bin/clang-offload-bundler
CO_ARCHS := --offload-arch=gfx1030 --offload-arch=gfx90a --offload-arch=gfx906

CHECK_GROUPS += codeobj codeobj-fuzz

.PHONY: check-codeobj check-codeobj-fuzz fuzz-codeobj

# hipemu builds the reader into its library (mk/hipemu.mk), per variant.
$(BUILD)/hipemu/obj/co/%.o: shim/%.c $(LB_CO_HDRS)
	@mkdir -p $(@D)
	$(CC) $(HE_CFLAGS) -Ishim -c $< -o $@
$(BUILD)/hipemu-tsan/obj/co/%.o: shim/%.c $(LB_CO_HDRS)
	@mkdir -p $(@D)
	$(CC) $(HE_CFLAGS) -Ishim -fsanitize=thread -c $< -o $@
$(BUILD)/hipemu-asan/obj/co/%.o: shim/%.c $(LB_CO_HDRS)
	@mkdir -p $(@D)
	$(CC) $(HE_CFLAGS) -Ishim $(HE_ASAN_FLAGS) -c $< -o $@
LB_CO_HE_OBJS = $(patsubst shim/%.c,$(BUILD)/$(1)/obj/co/%.o,$(LB_CO_SRCS))

# Fixtures: hipcc's code objects, v4 and v5.  Debian's hipcc links device
# code with lld 14, which rejects v5's ABI version; -B puts lld 15 first.
$(COB)/lld15/lld:
	@mkdir -p $(@D)
	ln -sf /usr/bin/lld-15 $@
$(COB)/kern4 $(COB)/kern5: $(COB)/kern%: $(COT)/kern.hip $(COB)/lld15/lld
	$(HIPCC) -B$(abspath $(COB)/lld15) $(CO_ARCHS) -mcode-object-version=$* \
		-O2 $< -o $@
$(COB)/kern%.fatbin: $(COB)/kern%
	objcopy --dump-section .hip_fatbin=$@ $< $@.o && rm -f $@.o

CO_TEST_CFLAGS = $(TEST_CFLAGS) -Ishim
$(COB)/co_dump: $(COT)/co_dump.c $(LB_CO_SRCS) $(LB_CO_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CO_TEST_CFLAGS) $(COT)/co_dump.c $(LB_CO_SRCS) -o $@ -ldl -lpthread

# hipcc --genco: a module file, as hipModuleLoad(Data) takes it
$(COB)/kern.co: $(COT)/kern.hip
	@mkdir -p $(@D)
	$(HIPCC) --genco --offload-arch=gfx1030 --offload-arch=gfx906 -O2 $< -o $@

# The suite links the libraries itself to make compressed bundles and
# metadata; the reader still opens its own with dlopen.
CO_CHECK_SRCS := $(COT)/check_codeobj.c $(COT)/check_codeobj_meta.c
$(COB)/check_codeobj: $(CO_CHECK_SRCS) $(COT)/check_codeobj.h $(LB_CO_SRCS) $(LB_CO_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CO_TEST_CFLAGS) $(CHECK_CFLAGS) $(CO_CHECK_SRCS) $(LB_CO_SRCS) -o $@ \
		$(CHECK_LIBS) -lmsgpackc -lzstd -lz -ldl -lpthread

# A hipcc program without argument tables, and its kernels as a module,
# for hipemu's launches sized by the metadata (t_hipemu.sh).
$(COB)/async: $(COT)/async.hip tests/hipemu/hipemu.h
	@mkdir -p $(@D)
	$(HIPCC) $(HIPCC_FLAGS) -Itests/hipemu -rdynamic $< -o $@
$(COB)/async.co: $(COT)/async.hip tests/hipemu/hipemu.h
	@mkdir -p $(@D)
	$(HIPCC) --genco $(HIPCC_FLAGS) -Itests/hipemu $< -o $@

CO_FIXTURES := $(COB)/kern4.fatbin $(COB)/kern5.fatbin $(COB)/kern.co \
	$(COB)/async $(COB)/async.co $(HE_LIB)
CO_TESTS = $(sort $(wildcard $(COT)/t_*.sh))

check-codeobj: $(COB)/co_dump $(COB)/check_codeobj $(CO_FIXTURES) \
		$(BUILD)/liblbshim.so $(BUILD)/lbtrace
	@BUILD=$(BUILD) BUNDLER=$(CO_BUNDLER) \
	  sh mk/run-tests.sh codeobj $(BUILD)/results $(CO_TESTS)

# ---- fuzzing: the harness, replayed (codeobj-fuzz) or under libFuzzer ----

CO_FUZZ_SRCS := $(COT)/fuzz_codeobj.c $(LB_CO_SRCS)
$(COB)/fuzz_replay: $(CO_FUZZ_SRCS) tests/tools/read/replay_main.c $(LB_CO_HDRS)
	@mkdir -p $(@D)
	$(CC) $(FUZZ_CFLAGS) -Ishim $(FUZZ_SAN) -o $@ $(CO_FUZZ_SRCS) \
		tests/tools/read/replay_main.c -ldl -lpthread

$(COB)/fuzz_codeobj: $(CO_FUZZ_SRCS) $(LB_CO_HDRS)
	@mkdir -p $(@D)
	clang $(FUZZ_CFLAGS) -Ishim -fsanitize=fuzzer,address,undefined \
		-fno-omit-frame-pointer -o $@ $(CO_FUZZ_SRCS) -ldl -lpthread

check-codeobj-fuzz: $(COB)/fuzz_replay
	@BUILD=$(BUILD) sh mk/run-tests.sh codeobj-fuzz $(BUILD)/results \
		$(COT)/fuzz_replay.sh

# msgpack-c allocates the elements an array or map header claims before
# it finds the bytes missing: a 5-byte hostile header asks malloc for up
# to 96 GiB, which fails (NULL, handled) or is untouched virtual memory
# freed at once -- not a crash, so not a finding.  Under ASan such an
# allocation is slow and counts as RSS, hence no RSS or malloc limit and a
# long timeout; a NULL malloc must not abort.
fuzz-codeobj: $(COB)/fuzz_codeobj
	@mkdir -p $(COB)/fuzz-corpus $(COB)/fuzz-artifacts
	cp $(COT)/corpus/* $(COB)/fuzz-corpus/
	ASAN_OPTIONS=allocator_may_return_null=1:quarantine_size_mb=16 \
	$(COB)/fuzz_codeobj -max_total_time=$(FUZZ_TIME) -max_len=65536 \
		-timeout=60 -rss_limit_mb=0 -malloc_limit_mb=0 \
		-artifact_prefix=$(COB)/fuzz-artifacts/ $(COB)/fuzz-corpus

# hipemu's launch.c and kernel.c read the reader's header
$(foreach v,hipemu hipemu-tsan hipemu-asan,$(BUILD)/$(v)/obj/launch.o \
	$(BUILD)/$(v)/obj/kernel.o): include/lbshim/codeobj.h
