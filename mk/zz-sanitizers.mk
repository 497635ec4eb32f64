# mk/zz-sanitizers.mk - the policies' test groups (trace, stream0, pool) run
# again against the ASan+UBSan build of the shim (group policies-asan), and
# lbtrace's and the A/B tests against an ASan+UBSan lbtrace (group
# lbtrace-asan).
# A test that cannot run under ASan says so in a line "# asan: no - why".
# Named to be read last (mk/*.mk are included in sorted order): its rules
# list the other parts' products, which must be defined by then.
# ASan leaves the fatal signals to the program (and the shim's crash
# handler), so exit statuses compare with runs without it.  The ASan
# lbtrace runs commands with LD_PRELOAD set, and some are ASan lbtrace
# again: the preloaded shim then comes before libasan (harmless).
SAN_ENV = ASAN_OPTIONS=detect_leaks=0:abort_on_error=0:exitcode=99:handle_segv=0:handle_abort=0:handle_sigbus=0:handle_sigfpe=0:handle_sigill=0:verify_asan_link_order=0 \
	UBSAN_OPTIONS=halt_on_error=1:exitcode=98
san_tests = $(shell grep -L '^# asan: no' $(1))

CHECK_GROUPS += policies-asan lbtrace-asan
.PHONY: check-policies-asan check-lbtrace-asan

check-policies-asan: $(BUILD)/asan/liblbshim.so $(TRACE_TEST_DEPS) \
		$(HE_LIB) $(S0_DEPS) $(PT_DEPS) $(BUILD)/lbtrace
	@A="$(SAN_PRELOAD) $(abspath $(BUILD)/asan/liblbshim.so)"; \
	  export $(SAN_ENV); QUALIFY=1 \
	  BUILD=$(abspath $(BUILD)) SHIM="$$A" \
	  S0_BUILD=$(BUILD) S0_SHIM="$$A" PT_BUILD=$(BUILD) PT_SHIM="$$A" \
	  sh mk/run-tests.sh policies-asan $(BUILD)/results \
	  $(call san_tests,$(TRACE_TESTS) $(S0_TESTS) $(PT_TESTS))

$(BUILD)/asan/lbtrace: $(LBT_SRCS) shim/api_info.c shim/hip_names.c $(LBT_HDRS)
	@mkdir -p $(@D)
	$(CC) $(LBT_CFLAGS) $(ASAN_FLAGS) -O1 -o $@ $(LBT_SRCS) \
		shim/api_info.c shim/hip_names.c -lstdc++ -lm

# (lbtrace run preloads the liblbshim.so beside the lbtrace that runs it:
# the ASan lbtrace's is build/asan/liblbshim.so)
check-lbtrace-asan: $(BUILD)/asan/lbtrace $(BUILD)/asan/liblbshim.so \
		$(LBT_TEST_DIR)/gen_trace \
		$(LBT_TEST_DIR)/errtab $(LBT_TEST_DIR)/sketch_test \
		$(LBT_TEST_DIR)/out_test $(LBT_TEST_DIR)/scan_test \
		$(LBT_REAL_DEPS) \
		$(BUILD)/liblbshim.so $(AB_DIR)/gen $(AB_DIR)/libmarker.so \
		$(AB_DIR)/prog_loop $(AB_DIR)/prog_static $(AB_DIR)/check_stats \
		$(WL_DEPS)
	@export $(SAN_ENV); QUALIFY=1 BUILD=$(BUILD) \
	  LBTRACE=$(abspath $(BUILD)/asan/lbtrace) \
	  sh mk/run-tests.sh lbtrace-asan $(BUILD)/results \
	  $(call san_tests,$(LBT_TESTS) $(AB_TESTS))
