# mk/realrocm.mk - the real ROCm 5.7, 6.4 and 7.2 runtimes and AMD's
# libraries built against 6.4 and 7.2, from Debian's archive
# (tests/realrocm/: fetch.sh brings them into a cache outside the
# repository, sets.txt says which; README.md, "Tests").
#
# check-realrocm (in make check): the shim on each runtime and library;
# a machine that cannot reach the archive skips the group, t_fetch.sh
# alone saying why.  check-realrocm-big (not in make check): rocBLAS,
# rocSOLVER, hipBLASLt and RCCL, 250 to 630 MB each to download.
# fetch.sh's exit status and last line go to $(RRB)/fetch.status, which
# the tests read (tests/realrocm/lib.sh).

RRB := $(BUILD)/realrocm
RR_SETS := 5.7 6.4 7.2
RR_TESTS = $(sort $(wildcard tests/realrocm/t_*.sh))
# hipemu's profiles by path: mk/zz-profiles.mk, which names them, is
# read after this (t_profiles.sh compares their versions).
RR_DEPS = $(BUILD)/liblbshim.so $(BUILD)/lbtrace \
	$(BUILD)/hipemu/5.7/so5/libamdhip64.so.5 \
	$(BUILD)/hipemu/7.2/so5/libamdhip64.so.5

CHECK_GROUPS += realrocm
.PHONY: check-realrocm check-realrocm-big realrocm-fetch

# rr_fetch(sets): fetch.sh, its status in $(RRB)/fetch.status; its
# progress lines shown (offline, its one line is t_fetch.sh's SKIP line).
define rr_fetch
	@mkdir -p $(RRB); sh tests/realrocm/fetch.sh $(1) 2>$(RRB)/fetch.err; \
	  rc=$$?; [ $$rc = 77 ] || cat $(RRB)/fetch.err >&2; \
	  { echo $$rc; tail -n 1 $(RRB)/fetch.err; } >$(RRB)/fetch.status
endef

realrocm-fetch:
	$(call rr_fetch,$(RR_SETS))

check-realrocm: $(RR_DEPS)
	$(call rr_fetch,$(RR_SETS))
	@if [ "$$(head -n 1 $(RRB)/fetch.status)" = 77 ]; then \
	  tests=tests/realrocm/t_fetch.sh; else tests="$(RR_TESTS)"; fi; \
	  BUILD=$(BUILD) SHIM=$(abspath $(BUILD)/liblbshim.so) PRELOAD_PREFIX= \
	  RR_STATUS=$(abspath $(RRB)/fetch.status) SKIP_OK=1 \
	  sh mk/run-tests.sh realrocm $(BUILD)/results $$tests

check-realrocm-big: $(RR_DEPS)
	$(call rr_fetch,$(RR_SETS) 6.4-big 7.2-big)
	@BUILD=$(BUILD) SHIM=$(abspath $(BUILD)/liblbshim.so) PRELOAD_PREFIX= \
	  RR_STATUS=$(abspath $(RRB)/fetch.status) RR_BIG=1 \
	  sh mk/run-tests.sh realrocm-big $(BUILD)/results \
	  tests/realrocm/t_imports.sh tests/realrocm/t_libs.sh
