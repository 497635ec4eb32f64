# mk/zz-profiles.mk - hipemu's profiles of the real runtimes and the groups
# that rerun the suites on them (tests/hipemu/README.md, "Profiles").
#
# build/hipemu/<R>/ for R in 5.2 5.7 6.2 7.2 (mk/rocm-layouts.txt): that
# release's soname (libamdhip64.so.5/.6/.7, plus libamdhip64.so), exactly
# its version nodes and symbols (gen-map.sh -p R), and its behaviour
# (profile.c compiled with HE_RELEASE; every other object is shared with
# build/hipemu, which is the 5.2 profile).  For the test programs, which
# were linked against ROCm 5.2 and so ask for libamdhip64.so.5,
# build/hipemu/<R>/so5/ holds the profile under that file name (the loader
# checks the version nodes the program needs, all of which later releases
# keep, not the soname).
# Named to be read last: its rules list the other parts' products.

HE_PROFILES := 5.7 6.2 7.2
he_soname = $(shell awk '$$1 == "layout" && $$2 == "$(1)" { print $$3 }' \
	mk/rocm-layouts.txt)
he_rel = $(subst .,,$(1))
HE_PROFILE_LIBS := $(BUILD)/hipemu/5.2/libamdhip64.so.5 \
	$(foreach r,$(HE_PROFILES),$(BUILD)/hipemu/$(r)/so5/libamdhip64.so.5)
ALL_TARGETS += $(HE_PROFILE_LIBS)

$(BUILD)/hipemu/5.2/libamdhip64.so.5: $(HE_LIB)
	@mkdir -p $(@D)
	ln -sf ../libamdhip64.so.5 $@
	ln -sf libamdhip64.so.5 $(@D)/libamdhip64.so

define he_profile_rules
$(BUILD)/hipemu/$(1)/hipemu.map: mk/gen-map.sh mk/rocm-layouts.txt \
		$(API_DEFS) $(HE_DIR)/exports.txt
	@mkdir -p $$(@D)
	sh mk/gen-map.sh -p $(1) "$$(CC)" include/lbshim/hip_api.def \
		$(HE_DIR)/exports.txt >$$@.tmp && mv $$@.tmp $$@

$(BUILD)/hipemu/$(1)/profile.o: $(HE_DIR)/profile.c $(HE_HDRS)
	@mkdir -p $$(@D)
	$$(CC) $$(HE_CFLAGS) -DHE_RELEASE=$(call he_rel,$(1)) -c $$< -o $$@

$(BUILD)/hipemu/$(1)/$(call he_soname,$(1)): \
		$(filter-out %/profile.o,$(HE_OBJS)) \
		$(BUILD)/hipemu/$(1)/profile.o $(BUILD)/hipemu/$(1)/hipemu.map
	$$(CC) -shared $$(HE_LDFLAGS) -Wl,-soname,$(call he_soname,$(1)) \
		-Wl,--version-script=$(BUILD)/hipemu/$(1)/hipemu.map -o $$@ \
		$(filter-out %/profile.o,$(HE_OBJS)) \
		$(BUILD)/hipemu/$(1)/profile.o -pthread -ldl
	ln -sf $(call he_soname,$(1)) $$(@D)/libamdhip64.so

$(BUILD)/hipemu/$(1)/so5/libamdhip64.so.5: \
		$(BUILD)/hipemu/$(1)/$(call he_soname,$(1))
	@mkdir -p $$(@D)
	ln -sf ../$(call he_soname,$(1)) $$@
endef
$(foreach r,$(HE_PROFILES),$(eval $(call he_profile_rules,$(r))))

# Groups: profile-5.2 checks the 5.2 build's layout; profile-5.7 and
# profile-6.2 also run check_hipemu and the tests of the shim, stream0,
# pool and trace suites that run on hipemu (the trace suite's other tests
# use the fake runtime, which has no profile) on that profile;
# profile-7.2 its layout, check_hipemu, t_lasterr.sh (the sticky rule)
# and t_hazard.sh (hipEventRecordWithFlags, 6.4 on) only, for time.  t_kernelfault.sh is left out: whether the faulting
# launch's record precedes the crash is a race (1 run in 8 fails, with or
# without the profiles).
PROFILE_RERUN = $(filter %/t_families.sh %/t_hipcc.sh %/t_python.sh \
	%/t_lasterr.sh,$(SHIM_TESTS)) $(S0_TESTS) $(PT_TESTS) \
	$(filter %/t_hipemu.sh %/t_policies.sh,$(TRACE_TESTS))
PROFILE_DEPS = $(HE_PROFILE_LIBS) $(HE_CHECK) $(HE_VECADD) $(SHIMT)/prog_lasterr \
	$(HE_VECADD_TWIN) $(BUILD)/liblbshim.so $(SHIM_TEST_DEPS) \
	$(TRACE_TEST_DEPS) $(S0_DEPS) $(PT_DEPS)
CHECK_GROUPS += profile-5.2 profile-5.7 profile-6.2 profile-7.2
.PHONY: check-profile-5.2 check-profile-5.7 check-profile-6.2 \
	check-profile-7.2

profile_env = EMU_DIR=$(abspath $(BUILD)/hipemu/$(1)$(if $(filter \
	libamdhip64.so.5,$(call he_soname,$(1))),,/so5)) PROFILE=$(1) \
	HE_CHECK=$(abspath $(HE_CHECK)) HE_VECADD=$(abspath $(HE_VECADD)) \
	HE_VECADD_TWIN=$(abspath $(HE_VECADD_TWIN)) \
	PROFILE_LIB=$(abspath $(BUILD)/hipemu/$(1)/$(call he_soname,$(1)))

check-profile-5.2: $(PROFILE_DEPS)
	@$(call profile_env,5.2) BUILD=$(abspath $(BUILD)) \
	  sh mk/run-tests.sh profile-5.2 $(BUILD)/results tests/hipemu/t_profile.sh

check-profile-7.2: $(PROFILE_DEPS)
	@$(call profile_env,7.2) BUILD=$(abspath $(BUILD)) \
	  SHIM=$(abspath $(BUILD)/liblbshim.so) PRELOAD_PREFIX= QUALIFY=1 \
	  S0_BUILD=$(BUILD) S0_SHIM=$(BUILD)/liblbshim.so \
	  sh mk/run-tests.sh profile-7.2 $(BUILD)/results \
	  tests/hipemu/t_profile.sh tests/shim/t_lasterr.sh \
	  tests/policies/stream0/t_hazard.sh

check-profile-5.7 check-profile-6.2: check-profile-%: $(PROFILE_DEPS)
	@$(call profile_env,$*) QUALIFY=1 BUILD=$(abspath $(BUILD)) \
	  SHIM=$(abspath $(BUILD)/liblbshim.so) PRELOAD_PREFIX= \
	  S0_BUILD=$(BUILD) S0_SHIM=$(BUILD)/liblbshim.so \
	  PT_BUILD=$(BUILD) PT_SHIM=$(BUILD)/liblbshim.so \
	  sh mk/run-tests.sh profile-$* $(BUILD)/results \
	  tests/hipemu/t_profile.sh $(PROFILE_RERUN)

# The shim's tests on hipemu need it built (they skip nothing without it).
check-shim: $(HE_LIB)

# t_lasterr.sh's program, linked against ROCm 5.2 like the tests' others.
$(SHIMT)/prog_lasterr: tests/shim/prog_lasterr.c include/lbshim/hip_decls.h
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) $< -o $@ -L/usr/lib/x86_64-linux-gnu -lamdhip64 -ldl
check-shim check-shim-asan: $(SHIMT)/prog_lasterr
