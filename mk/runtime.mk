# mk/runtime.mk - finding the runtime whatever its name (tests/shim/
# t_runtime.sh) and the dlopen wrapper's RTLD_DEEPBIND warning
# (t_deepbind.sh): stand-in runtimes built from the fake runtime under the
# names real ones have, and "extensions" that link them as PyTorch's do.
# The tests run in the shim group (tests/shim/t_*.sh).

RT := $(BUILD)/tests/runtime
comma := ,

# rt_fake(file, soname, ldflags): the fake runtime as FILE with SONAME.
define rt_fake
$(1): tests/shim/fakehip.c tests/shim/fakehip.h $(FAKE_DIR)/fake.map $(API_DEFS)
	@mkdir -p $$(@D)
	$$(CC) $$(TEST_CFLAGS) -O2 -fPIC -fvisibility=hidden -shared $$< -o $$@ \
		-Wl,-soname,$(2) -Wl,--version-script=$(FAKE_DIR)/fake.map $(3) -ldl
endef
# rt_ext(ext, runtime, runpath): rt_ext.c linked against RUNTIME, found
# through the extension's RUNPATH (relative to $ORIGIN).
define rt_ext
$(1): tests/shim/rt_ext.c $(2)
	@mkdir -p $$(@D)
	$$(CC) $$(TEST_CFLAGS) -fPIC -shared $$< -o $$@ -L$$(dir $(2)) \
		-l:$$(notdir $(2)) -Wl,--enable-new-dtags,-rpath,'$$$$ORIGIN/$(3)' -ldl
endef

# ROCm 5, 6 and 7 under their sonames, each alone in its directory; a
# wheel's copy, torch/lib/libamdhip64.so.
$(eval $(call rt_fake,$(RT)/so5/libamdhip64.so.5,libamdhip64.so.5))
$(eval $(call rt_fake,$(RT)/so6/libamdhip64.so.6,libamdhip64.so.6))
# The .so.7 has only a SysV hash table, for the other half of the walk's
# symbol lookup (shim/elfdyn.c).
$(eval $(call rt_fake,$(RT)/so7/libamdhip64.so.7,libamdhip64.so.7,-Wl$(comma)--hash-style=sysv))
$(eval $(call rt_fake,$(RT)/wheel/torch/lib/libamdhip64.so,libamdhip64.so))
$(eval $(call rt_ext,$(RT)/so6/ext/rt_ext.so,$(RT)/so6/libamdhip64.so.6,..))
$(eval $(call rt_ext,$(RT)/so7/ext/rt_ext.so,$(RT)/so7/libamdhip64.so.7,..))
$(eval $(call rt_ext,$(RT)/wheel/torch/_C.so,$(RT)/wheel/torch/lib/libamdhip64.so,lib))

# A program linked against the .so.6 (the global scope has it).
$(RT)/prog_dlsym6: tests/shim/prog_dlsym.c $(RT)/so6/libamdhip64.so.6
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) $< -o $@ -L$(RT)/so6 -Wl,--no-as-needed \
		-l:libamdhip64.so.6 -Wl,--enable-new-dtags,-rpath,'$$ORIGIN/so6'

$(RT)/prog_runtime $(RT)/prog_deepbind: $(RT)/%: tests/shim/%.c
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) $< -o $@ -ldl

$(RT)/plain/librt_plain.so: tests/shim/rt_plain.c
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) -fPIC -shared $< -o $@

# Unwrapped HIP functions, preloaded after the shim (t_runtime.sh).
$(RT)/spy/librt_spy.so: tests/shim/rt_spy.c
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) -fPIC -shared $< -o $@

# The opener finds plain/librt_plain.so by its RUNPATH only.
$(RT)/librt_opener.so: tests/shim/rt_opener.c
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) -fPIC -shared $< -o $@ -ldl \
		-Wl,--enable-new-dtags,-rpath,'$$ORIGIN/plain'

RT_TEST_DEPS := $(RT)/so5/libamdhip64.so.5 $(RT)/so6/ext/rt_ext.so $(RT)/so7/ext/rt_ext.so \
	$(RT)/wheel/torch/_C.so $(RT)/prog_dlsym6 $(RT)/prog_runtime \
	$(RT)/prog_deepbind $(RT)/plain/librt_plain.so $(RT)/librt_opener.so \
	$(RT)/spy/librt_spy.so
check-shim check-shim-asan: $(RT_TEST_DEPS)
