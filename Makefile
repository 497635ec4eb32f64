# lbshim - top-level Makefile.  Plain GNU make; each part of the project
# adds its rules in mk/<part>.mk and registers its products and test groups
# in the variables below.

PREFIX ?= /usr/local
DESTDIR ?=
CC ?= cc
BUILD := build

PKG_CONFIG ?= pkg-config
WARN := -Wall -Wextra -Werror
CFLAGS ?= -O2 -g
LB_CFLAGS := -std=gnu11 $(CFLAGS) $(WARN) -fPIC -D__HIP_PLATFORM_AMD__ \
	-Iinclude
CHECK_CFLAGS = $(shell $(PKG_CONFIG) --cflags check 2>/dev/null)
CHECK_LIBS = $(shell $(PKG_CONFIG) --libs check 2>/dev/null)
UNWIND_CFLAGS = $(shell $(PKG_CONFIG) --cflags libunwind 2>/dev/null)
UNWIND_LIBS = $(shell $(PKG_CONFIG) --libs libunwind 2>/dev/null)
HIPCC ?= hipcc
HIPCC_FLAGS := --offload-arch=gfx1030 -O2
REAL_HIP_LIB := /usr/lib/x86_64-linux-gnu/libamdhip64.so.5

# The preload library's sources: the core and every policy (mk/shim.mk).
# The table of wrapped functions, split by concern (hip_api.def includes
# the others; cuda_api.def, the CUDA face's, after them): a prerequisite
# of everything generated from it.  hip_api.def first ($< of some rules).
API_DEFS := $(sort $(wildcard include/lbshim/hip_api*.def)) \
	$(sort $(wildcard include/lbshim/cuda_api*.def))

SHIM_SRCS := $(wildcard shim/*.c) $(wildcard policies/*/*.c)

# Filled in by mk/*.mk:
ALL_TARGETS :=      # products of `make all`
CHECK_GROUPS :=     # test groups: a target check-<group> each
BENCH_TARGETS :=    # targets run by `make bench`: the one table (mk/zbench.mk)
INSTALL_TARGETS :=  # extra install steps
CLEAN_FILES :=

.PHONY: all check bench demo install uninstall clean deps deps-ok \
	check-report stress fuzz

# The Debian packages the build and the tests need (mk/deps.sh) are
# installed before anything is built, whatever the goals and however
# many jobs (-j8 on a fresh machine): here, while make reads this file,
# before any rule can run, once per command line (the sub-makes that
# check runs inherit LB_DEPS_DONE).  Not for the goals that need none,
# nor for -n and -q (bash's completion of make runs make -npq).
LB_NO_DEPS_GOALS := deps deps-ok clean uninstall
ifeq ($(LB_DEPS_DONE)$(findstring n,$(firstword -$(MAKEFLAGS)))$(findstring q,$(firstword -$(MAKEFLAGS))),)
ifneq ($(or $(filter-out $(LB_NO_DEPS_GOALS),$(MAKECMDGOALS)),$(if $(MAKECMDGOALS),,all)),)
ifneq ($(shell sh mk/deps.sh ensure >&2; echo $$?),0)
$(error packages are missing: see the line above)
endif
endif
export LB_DEPS_DONE := 1
endif

include $(sort $(wildcard mk/*.mk))

all: $(ALL_TARGETS)

# `make deps` installs the Debian packages that build and tests need.
deps:
	@sh mk/deps.sh install

# Install them only when something is missing (every other goal does so
# first, see above), so `make check` on a fresh Debian 12 machine needs
# no other step.
deps-ok:
	@sh mk/deps.sh ensure

# Every group writes build/results/<group> ("group: N passed, M failed");
# check-report prints them and fails if any group failed or is missing.
# The groups are independent (each builds what it needs, then writes only
# its own results), so unless the command line has a -j (make -j8 check;
# make -j1 check for one group at a time), they run twice as many at a
# time as there are CPUs (many tests wait on hipemu's modelled kernels:
# on 2 CPUs, 8 minutes instead of 10 with one group per CPU), each group's
# output kept in one piece (--output-sync).
# MFLAGS, unlike MAKEFLAGS, holds no variable given on the command line.
CHECK_JOBS = $(if $(filter -j%,$(MFLAGS)),,-j$(shell echo $$((2 * $$(nproc 2>/dev/null || echo 1)))) \
	--output-sync=target)
# The groups that take longest start first, so that no long one is left
# running alone at the end (build/results/<group>.d/seconds has each
# test's time).
CHECK_LONG := lint policies-asan reliability pool-tsan reliability-asan \
	profile-5.7 profile-6.2
check:
	@rm -rf $(BUILD)/results; mkdir -p $(BUILD)/results
	@$(MAKE) --no-print-directory -k $(CHECK_JOBS) \
	  $(addprefix check-,$(foreach g,$(CHECK_LONG),$(filter $g,$(CHECK_GROUPS))) \
	    $(filter-out $(CHECK_LONG),$(CHECK_GROUPS))); \
	  rc=$$?; $(MAKE) --no-print-directory check-report GROUPS_RC=$$rc

check-report:
	@sh mk/report.sh $(BUILD)/results $(CHECK_GROUPS); \
	  rc=$$?; [ "$(GROUPS_RC)" = 0 ] && [ $$rc = 0 ]

bench: all $(BENCH_TARGETS)


clean:
	rm -rf $(BUILD) $(CLEAN_FILES)
