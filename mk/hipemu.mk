# hipemu: the CPU HIP runtime the tests run on (tests/hipemu/README.md).
#
# build/hipemu/libamdhip64.so.5 (and -tsan/), its version script generated
# from $(API_DEFS) plus tests/hipemu/exports.txt, and the
# check-hipemu suite.

HE_DIR := tests/hipemu
HE_LIBSRC := api.c config.c copy.c device.c errors.c event.c graph.c \
	launch.c kernel.c memory.c memquery.c profile.c stats.c stream.c \
	work.c memset2d.c copy2d.c arrays.c streamops.c launchmore.c
# the door of the CUDA face (he_face.h, mk/hipemu_cuda.mk)
HE_LIBSRC += face.c
# the other allocation calls and the one-attribute queries (the pool's tests)
HE_LIBSRC += memextra.c memattr.c
HE_HDRS := $(HE_DIR)/he.h $(HE_DIR)/he_copy.h $(HE_DIR)/hipemu.h \
	$(HE_DIR)/he_face.h include/lbshim/hip_decls.h
HE_CFLAGS = $(LB_CFLAGS) -fvisibility=hidden -pthread -I$(HE_DIR)
# The library's references to its own entry points bind to themselves, not
# to a preloaded library of the same names (face.c's table needs that).
HE_LDFLAGS := -Wl,-Bsymbolic-functions
HE_MAP := $(BUILD)/hipemu/hipemu.map
HE_LIB := $(BUILD)/hipemu/libamdhip64.so.5
HE_TSAN_LIB := $(BUILD)/hipemu-tsan/libamdhip64.so.5
HE_ASAN_LIB := $(BUILD)/hipemu-asan/libamdhip64.so.5
HE_OBJS := $(patsubst %.c,$(BUILD)/hipemu/obj/%.o,$(HE_LIBSRC)) $(call LB_CO_HE_OBJS,hipemu)
HE_TSAN_OBJS := $(patsubst %.c,$(BUILD)/hipemu-tsan/obj/%.o,$(HE_LIBSRC)) $(call LB_CO_HE_OBJS,hipemu-tsan)
HE_ASAN_OBJS := $(patsubst %.c,$(BUILD)/hipemu-asan/obj/%.o,$(HE_LIBSRC)) $(call LB_CO_HE_OBJS,hipemu-asan)
HE_ASAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer
HE_CHECK_SRC := $(HE_DIR)/check_hipemu.c $(HE_DIR)/check_twins.c \
	$(HE_DIR)/check_profile.c $(HE_DIR)/check_cost.c $(HE_DIR)/check_poison.c
HE_CHECK_HDRS := $(HE_HDRS) $(HE_DIR)/check_hipemu.h
HE_CHECK := $(BUILD)/hipemu/check_hipemu
HE_TSAN_CHECK := $(BUILD)/hipemu-tsan/check_hipemu
# The stream-taking calls' own suite (check_stream_apis.c), its own runner.
HE_API_CHECK := $(BUILD)/hipemu/check_stream_apis
HE_ASAN_CHECK := $(BUILD)/hipemu-asan/check_hipemu
HE_VECADD := $(BUILD)/hipemu/vecadd
HE_VECADD_TWIN := $(BUILD)/hipemu/libvecadd_twin.so

ALL_TARGETS += $(HE_LIB)
CHECK_GROUPS += hipemu

.PHONY: hipemu hipemu-tsan hipemu-asan check-hipemu check-hipemu-asan

hipemu: $(HE_LIB)
hipemu-tsan: $(HE_TSAN_LIB)
hipemu-asan: $(HE_ASAN_LIB)

# The ROCm 5.2 profile's layout (mk/profiles.mk builds the others).
$(HE_MAP): mk/gen-map.sh mk/rocm-layouts.txt $(API_DEFS) \
		$(HE_DIR)/exports.txt
	@mkdir -p $(@D)
	sh mk/gen-map.sh -p 5.2 "$(CC)" include/lbshim/hip_api.def \
		$(HE_DIR)/exports.txt >$@.tmp && mv $@.tmp $@

$(BUILD)/hipemu/obj/%.o: $(HE_DIR)/%.c $(HE_HDRS)
	@mkdir -p $(@D)
	$(CC) $(HE_CFLAGS) -c $< -o $@

$(BUILD)/hipemu-tsan/obj/%.o: $(HE_DIR)/%.c $(HE_HDRS)
	@mkdir -p $(@D)
	$(CC) $(HE_CFLAGS) -fsanitize=thread -c $< -o $@

$(BUILD)/hipemu-asan/obj/%.o: $(HE_DIR)/%.c $(HE_HDRS)
	@mkdir -p $(@D)
	$(CC) $(HE_CFLAGS) $(HE_ASAN_FLAGS) -c $< -o $@

$(HE_LIB): $(HE_OBJS) $(HE_MAP)
	$(CC) -shared $(HE_LDFLAGS) -Wl,-soname,libamdhip64.so.5 \
		-Wl,--version-script=$(HE_MAP) -o $@ $(HE_OBJS) -pthread -ldl
	ln -sf libamdhip64.so.5 $(@D)/libamdhip64.so

$(HE_TSAN_LIB): $(HE_TSAN_OBJS) $(HE_MAP)
	$(CC) -shared $(HE_LDFLAGS) -fsanitize=thread \
		-Wl,-soname,libamdhip64.so.5 \
		-Wl,--version-script=$(HE_MAP) -o $@ $(HE_TSAN_OBJS) \
		-pthread -ldl
	ln -sf libamdhip64.so.5 $(@D)/libamdhip64.so

$(HE_ASAN_LIB): $(HE_ASAN_OBJS) $(HE_MAP)
	$(CC) -shared $(HE_LDFLAGS) $(HE_ASAN_FLAGS) \
		-Wl,-soname,libamdhip64.so.5 \
		-Wl,--version-script=$(HE_MAP) -o $@ $(HE_ASAN_OBJS) \
		-pthread -ldl
	ln -sf libamdhip64.so.5 $(@D)/libamdhip64.so

# The suite is linked against hipemu and exports its own twins (-rdynamic)
# so that the main-program lookup finds them.  The sanitizer variants are
# the same suite built with the same sanitizer as their library.
$(HE_CHECK): $(HE_CHECK_SRC) $(HE_CHECK_HDRS) $(HE_LIB)
	$(CC) $(LB_CFLAGS) -I$(HE_DIR) $(CHECK_CFLAGS) -rdynamic \
		$(HE_CHECK_SRC) -o $@ -L$(BUILD)/hipemu -lamdhip64 \
		$(CHECK_LIBS) -pthread -ldl

# The stream-API suite calls functions of later releases (the _spt forms
# of 5.3, 7.1's hipMemsetD2D*): it runs on the 7.2 profile, which exports
# them all (mk/zz-profiles.mk builds it).
HE_API_LIBDIR := $(BUILD)/hipemu/7.2
$(HE_API_CHECK): $(HE_DIR)/check_stream_apis.c $(HE_DIR)/check_twins.c \
		$(HE_CHECK_HDRS) $(HE_API_LIBDIR)/libamdhip64.so.7
	$(CC) $(LB_CFLAGS) -I$(HE_DIR) $(CHECK_CFLAGS) -rdynamic \
		$(HE_DIR)/check_stream_apis.c $(HE_DIR)/check_twins.c -o $@ \
		-L$(HE_API_LIBDIR) -lamdhip64 $(CHECK_LIBS) -pthread -ldl

$(HE_TSAN_CHECK): $(HE_CHECK_SRC) $(HE_CHECK_HDRS) $(HE_TSAN_LIB)
	$(CC) $(LB_CFLAGS) -I$(HE_DIR) $(CHECK_CFLAGS) -fsanitize=thread \
		-rdynamic $(HE_CHECK_SRC) -o $@ -L$(BUILD)/hipemu-tsan \
		-lamdhip64 $(CHECK_LIBS) -pthread -ldl

$(HE_ASAN_CHECK): $(HE_CHECK_SRC) $(HE_CHECK_HDRS) $(HE_ASAN_LIB)
	$(CC) $(LB_CFLAGS) -I$(HE_DIR) $(CHECK_CFLAGS) $(HE_ASAN_FLAGS) \
		-rdynamic $(HE_CHECK_SRC) -o $@ -L$(BUILD)/hipemu-asan \
		-lamdhip64 $(CHECK_LIBS) -pthread -ldl

$(HE_VECADD_TWIN): $(HE_DIR)/progs/vecadd_twin.c $(HE_DIR)/hipemu.h
	@mkdir -p $(@D)
	$(CC) $(LB_CFLAGS) -I$(HE_DIR) -shared $< -o $@

# hipcc links the real runtime; hipemu replaces it at run time.
$(HE_VECADD): $(HE_DIR)/progs/vecadd.hip
	@mkdir -p $(@D)
	$(HIPCC) $(HIPCC_FLAGS) $< -o $@

# check-hipemu runs the suite on hipemu, then again on the TSan build
# (the vecadd program only in the first run: hipcc's binary is not
# instrumented).  run-check.sh adds up both runs' Check lines.
check-hipemu: $(HE_LIB) $(HE_CHECK) $(HE_TSAN_CHECK) $(HE_VECADD) \
		$(HE_VECADD_TWIN) $(HE_API_CHECK)
	@sh mk/run-check.sh hipemu $(BUILD)/results sh -c ' \
		LD_LIBRARY_PATH=$(BUILD)/hipemu \
		HIPEMU_TEST_VECADD=$(HE_VECADD) \
		HIPEMU_TEST_VECADD_TWIN=$(HE_VECADD_TWIN) $(HE_CHECK); a=$$?; \
		echo "---- hipemu under ThreadSanitizer ----"; \
		LD_LIBRARY_PATH=$(BUILD)/hipemu-tsan HIPEMU_TEST_VECADD= \
		$(HE_TSAN_CHECK); b=$$?; \
		LD_LIBRARY_PATH=$(HE_API_LIBDIR) $(HE_API_CHECK); c=$$?; \
		[ $$a = 0 ] && [ $$b = 0 ] && [ $$c = 0 ]'

# Not part of `make check` (time): the suite under ASan and UBSan.
check-hipemu-asan: $(HE_ASAN_CHECK)
	@sh mk/run-check.sh hipemu-asan $(BUILD)/results env \
		LD_LIBRARY_PATH=$(BUILD)/hipemu-asan HIPEMU_TEST_VECADD= \
		$(HE_ASAN_CHECK)
