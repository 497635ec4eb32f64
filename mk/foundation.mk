# mk/foundation.mk - the shim's own tests: API table, exact forwarding,
# pass-through behaviour of the preload library, and its ASan/UBSan build.

FAKE_DIR := $(BUILD)/tests/fake
SHIMT := $(BUILD)/tests/shim
TEST_CFLAGS = -std=gnu11 -O1 -g $(WARN) -D__HIP_PLATFORM_AMD__ -Iinclude -Itests/shim
# What a program not built with ASan preloads before an ASan+UBSan shim.
SAN_PRELOAD = $$($(CC) -print-file-name=libasan.so) $$($(CC) -print-file-name=libubsan.so)
ASAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=undefined

CHECK_GROUPS += shim shim-asan

$(FAKE_DIR)/fake.map: $(API_DEFS) tests/shim/fakehip.syms mk/gen-map.sh
	@mkdir -p $(@D)
	sh mk/gen-map.sh "$(CC)" include/lbshim/hip_api.def tests/shim/fakehip.syms >$@

# A fake runtime under the real soname: every row, answering at once.
$(FAKE_DIR)/libamdhip64.so.5: tests/shim/fakehip.c tests/shim/fakehip.h $(FAKE_DIR)/fake.map $(API_DEFS)
	$(CC) $(TEST_CFLAGS) -O2 -fPIC -fvisibility=hidden -shared $< -o $@ \
		-Wl,-soname,libamdhip64.so.5 -Wl,--version-script=$(FAKE_DIR)/fake.map -ldl
	ln -sf libamdhip64.so.5 $(FAKE_DIR)/libamdhip64.so

# A runtime that has only hipMalloc and hipGetDevice (an incomplete one).
$(FAKE_DIR)/partial/libpartialhip.so: tests/shim/partialhip.c
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) -fPIC -shared $< -o $@

$(SHIMT)/check_table: tests/shim/check_table.c shim/api_info.c $(API_DEFS) \
		include/lbshim/api.h include/lbshim/roles.h
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) $(CHECK_CFLAGS) tests/shim/check_table.c shim/api_info.c -o $@ $(CHECK_LIBS) -ldl

$(SHIMT)/check_forward: tests/shim/check_forward.c shim/api_info.c $(FAKE_DIR)/libamdhip64.so.5
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) $(CHECK_CFLAGS) tests/shim/check_forward.c shim/api_info.c -o $@ \
		-L$(FAKE_DIR) -lamdhip64 $(CHECK_LIBS) -ldl

$(SHIMT)/check_config: tests/shim/check_config.c shim/config.c shim/log.c shim/shim.h
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) -Ishim $(CHECK_CFLAGS) tests/shim/check_config.c shim/config.c \
		shim/log.c -o $@ $(CHECK_LIBS)

# Linked against the shim itself, with absolute run paths (setuid test).
$(SHIMT)/prog_secure: tests/shim/prog_secure.c $(BUILD)/liblbshim.so $(FAKE_DIR)/libamdhip64.so.5
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) $< -o $@ -L$(BUILD) -llbshim -L$(FAKE_DIR) -lamdhip64 \
		-Wl,-rpath,$(abspath $(BUILD)):$(abspath $(FAKE_DIR)) -Wl,--disable-new-dtags

# Small programs the shell tests run (linked against the fake runtime).
SHIMT_PROGS := prog_nohip prog_dlsym prog_threads prog_fork prog_procaddr
$(addprefix $(SHIMT)/,$(SHIMT_PROGS)): $(SHIMT)/%: tests/shim/%.c $(FAKE_DIR)/libamdhip64.so.5
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) $< -o $@ -L$(FAKE_DIR) -Wl,--as-needed -lamdhip64 -lpthread -ldl

# Every family, on hipemu, with its own kernel twin (exported).
$(SHIMT)/prog_families: tests/shim/prog_families.c
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) -Itests/hipemu $< -o $@ -rdynamic \
		-L/usr/lib/x86_64-linux-gnu -lamdhip64

$(SHIMT)/prog_kernelfault: tests/shim/prog_kernelfault.c tests/common/lbtest.h
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) -Itests/hipemu -Itests/common $< -o $@ -rdynamic \
		-L/usr/lib/x86_64-linux-gnu -lamdhip64

# A real HIP program, built by hipcc against Debian's ROCm.
$(SHIMT)/saxpy: tests/shim/saxpy.hip
	@mkdir -p $(@D)
	$(HIPCC) $(HIPCC_FLAGS) $< -o $@

$(SHIMT)/libsaxpy_twin.so: tests/shim/saxpy_twin.c
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) -Itests/hipemu -fPIC -shared $< -o $@

# A Python extension that links the runtime, as PyTorch's do.
PY_INC = $(shell python3 -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
$(SHIMT)/lbext.so: tests/shim/lbext.c
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) -Wno-missing-field-initializers -I$(PY_INC) -fPIC -shared $< -o $@ \
		-L/usr/lib/x86_64-linux-gnu -lamdhip64

# The shim built with AddressSanitizer and UBSan.
ASAN_OBJS = $(patsubst %.c,$(BUILD)/asan/obj/%.o,$(SHIM_SRCS))
$(BUILD)/asan/obj/%.o: %.c $(wildcard include/lbshim/*.h include/lbshim/*.def shim/*.h policies/*/*.h)
	@mkdir -p $(@D)
	$(CC) $(SHIM_CFLAGS) $(ASAN_FLAGS) -O1 -c $< -o $@
$(BUILD)/asan/liblbshim.so: $(ASAN_OBJS) $(BUILD)/liblbshim.map
	$(CC) -shared $(ASAN_FLAGS) -o $@ $(ASAN_OBJS) $(SHIM_LDFLAGS) $(SHIM_LIBS)

# hipemu by its path: mk/hipemu.mk, which names it, is read after this.
SHIM_TEST_DEPS = $(BUILD)/liblbshim.so $(SHIMT)/check_table $(SHIMT)/check_forward \
	$(SHIMT)/check_config $(SHIMT)/prog_secure \
	$(addprefix $(SHIMT)/,$(SHIMT_PROGS)) $(FAKE_DIR)/partial/libpartialhip.so \
	$(SHIMT)/saxpy $(SHIMT)/libsaxpy_twin.so $(SHIMT)/lbext.so $(SHIMT)/prog_families \
	$(SHIMT)/prog_kernelfault $(BUILD)/lbtrace \
	$(BUILD)/hipemu/libamdhip64.so.5
SHIM_TESTS = $(sort $(wildcard tests/shim/t_*.sh))

# Shell tests read: SHIM (library to preload), PRELOAD_PREFIX (sanitizer
# runtime to preload first), BUILD.
check-shim: $(SHIM_TEST_DEPS)
	@BUILD=$(BUILD) SHIM=$(abspath $(BUILD)/liblbshim.so) PRELOAD_PREFIX= \
	  sh mk/run-tests.sh shim $(BUILD)/results tests/shim/run_check.sh $(SHIM_TESTS)

check-shim-asan: $(SHIM_TEST_DEPS) $(BUILD)/asan/liblbshim.so
	@BUILD=$(BUILD) SHIM=$(abspath $(BUILD)/asan/liblbshim.so) \
	  PRELOAD_PREFIX="$(SAN_PRELOAD)" \
	  ASAN_OPTIONS=detect_leaks=0:abort_on_error=0:exitcode=99 \
	  UBSAN_OPTIONS=halt_on_error=1:exitcode=98 \
	  sh mk/run-tests.sh shim-asan $(BUILD)/results tests/shim/run_check.sh $(SHIM_TESTS)

$(SHIMT)/bench_passthrough: tests/shim/bench_passthrough.c tests/common/lbtest.h \
		$(FAKE_DIR)/libamdhip64.so.5
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) -Itests/common -O2 $< -o $@ -L$(FAKE_DIR) -lamdhip64 -ldl

bench-passthrough: $(SHIMT)/bench_passthrough $(BUILD)/liblbshim.so
	@LD_LIBRARY_PATH=$(FAKE_DIR) LD_PRELOAD=$(abspath $(BUILD)/liblbshim.so) $<
