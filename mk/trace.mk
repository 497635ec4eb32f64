# mk/trace.mk - the trace policy's tests (group `trace`) and its benchmark.
# The policy itself is compiled into liblbshim.so by mk/shim.mk.

TRACE_T := $(BUILD)/trace
TRACE_FAKE := $(TRACE_T)/fake
TRACE_CFLAGS = -std=gnu11 -O1 -g $(WARN) -D__HIP_PLATFORM_AMD__ -Iinclude

CHECK_GROUPS += trace

$(TRACE_FAKE)/fake.map: $(API_DEFS) tests/policies/trace/fakehip.syms mk/gen-map.sh
	@mkdir -p $(@D)
	sh mk/gen-map.sh "$(CC)" include/lbshim/hip_api.def tests/policies/trace/fakehip.syms >$@.tmp && mv $@.tmp $@

# A runtime that answers at once, under the real soname and versions.
$(TRACE_FAKE)/libamdhip64.so.5: tests/policies/trace/fakehip.c $(TRACE_FAKE)/fake.map
	$(CC) $(TRACE_CFLAGS) -O2 -fPIC -fvisibility=hidden -shared $< -o $@ \
		-Wl,-soname,libamdhip64.so.5 -Wl,--version-script=$(TRACE_FAKE)/fake.map
	ln -sf libamdhip64.so.5 $(TRACE_FAKE)/libamdhip64.so

$(TRACE_T)/lbt_dump: tests/policies/trace/lbt_dump.c include/lbshim/trace_format.h
	@mkdir -p $(@D)
	$(CC) $(TRACE_CFLAGS) $< -o $@

# Programs link the runtime by its soname; they run on the fake with
# LD_LIBRARY_PATH.  -O0 and frame pointers keep backtraces readable.
$(TRACE_T)/tprog: tests/policies/trace/tprog.c $(TRACE_FAKE)/libamdhip64.so.5
	$(CC) $(TRACE_CFLAGS) -O0 -fno-omit-frame-pointer $< -o $@ \
		-L$(TRACE_FAKE) -lamdhip64 -lpthread

# Descriptors handled the way real programs do (t_fds.sh).
$(TRACE_T)/tfd: tests/policies/trace/tfd.c tests/policies/trace/tfd_lbt.h \
		$(TRACE_FAKE)/libamdhip64.so.5
	$(CC) $(TRACE_CFLAGS) $< -o $@ -L$(TRACE_FAKE) -lamdhip64

# A machine without libunwind, as the shim sees it (t_crash.sh).
$(TRACE_T)/libtnounwind.so: tests/policies/trace/tnounwind.c
	@mkdir -p $(@D)
	$(CC) $(TRACE_CFLAGS) -fPIC -shared $< -o $@ -ldl

# Puts a file of the program's at the trace's number inside the shim's
# own use of it (t_fds.sh).
$(TRACE_T)/libtfdrace.so: tests/policies/trace/tfdrace.c tests/policies/trace/tfd_lbt.h
	@mkdir -p $(@D)
	$(CC) $(TRACE_CFLAGS) -fPIC -shared $< -o $@ -ldl

# A stripped library whose fault is in a static function (t_crash.sh).
$(TRACE_T)/libtstrip.so: tests/policies/trace/tstrip.c
	@mkdir -p $(@D)
	$(CC) $(TRACE_CFLAGS) -O1 -fno-toplevel-reorder -fno-inline \
		-fasynchronous-unwind-tables -fPIC -shared -s $< -o $@

$(TRACE_T)/bench_trace: tests/policies/trace/bench_trace.c tests/common/lbtest.h \
		$(TRACE_FAKE)/libamdhip64.so.5
	$(CC) $(TRACE_CFLAGS) -Itests/common -O2 $< -o $@ -L$(TRACE_FAKE) -lamdhip64 -lpthread

# A case that hangs in a sync behind a sleeping callback, on hipemu
# (t_hang.sh); built against the runtime's headers and soname.
$(TRACE_T)/thang: tests/policies/trace/thang.c tests/common/lbtest.h
	@mkdir -p $(@D)
	$(CC) $(TRACE_CFLAGS) -Itests/common $< -o $@ \
		-L/usr/lib/x86_64-linux-gnu -lamdhip64

TRACE_TEST_DEPS = $(BUILD)/liblbshim.so $(TRACE_T)/lbt_dump $(TRACE_T)/tprog \
	$(TRACE_T)/thang \
	$(TRACE_T)/tfd $(TRACE_T)/libtfdrace.so $(TRACE_T)/libtnounwind.so $(BUILD)/lbtrace $(TRACE_T)/tkern $(TRACE_T)/libtkern_twin.so \
	$(TRACE_T)/libtstrip.so $(HE_LIB) $(PT_DIR)/pool_test \
	$(PT_DIR)/libpooltwins.so $(HE_VECADD) $(HE_VECADD_TWIN) \
	$(TRACE_T)/tkargs $(BUILD)/codeobj/async $(BUILD)/codeobj/async.co \
	$(TRACE_T)/tkreuse $(TRACE_T)/tkargs.fatbin
TRACE_TESTS = $(sort $(wildcard tests/policies/trace/t_*.sh))

# (t_kreuse.sh runs a race under the TSan shim, mk/reliability.mk)
check-trace: $(TRACE_TEST_DEPS) $(TSAN_SHIM)
	@BUILD=$(abspath $(BUILD)) SHIM=$(abspath $(BUILD)/liblbshim.so) \
	  sh mk/run-tests.sh trace $(BUILD)/results $(TRACE_TESTS)

bench-trace: $(TRACE_T)/bench_trace $(BUILD)/liblbshim.so
	@sh tests/policies/trace/bench.sh $(abspath $(BUILD))

# A hipcc-built program and its kernel's twin, for the test on hipemu.
$(TRACE_T)/tkern: tests/policies/trace/tkern.hip
	@mkdir -p $(@D)
	$(HIPCC) $(HIPCC_FLAGS) $< -o $@

$(TRACE_T)/libtkern_twin.so: tests/policies/trace/tkern_twin.c
	@mkdir -p $(@D)
	$(CC) $(TRACE_CFLAGS) -Itests/hipemu -fPIC -shared $< -o $@


# Kernels with every sort of argument, their twins inside (t_kargs.sh).
$(TRACE_T)/tkargs: tests/policies/trace/tkargs.hip tests/hipemu/hipemu.h
	@mkdir -p $(@D)
	$(HIPCC) $(HIPCC_FLAGS) -Itests/hipemu -rdynamic $< -o $@

# What recording a launch's arguments adds (bench-kargs: one line, kept
# apart from bench-trace's table so that both can change on their own).
$(TRACE_T)/bench_kargs: tests/policies/trace/bench_kargs.c tests/common/lbtest.h \
		$(TRACE_FAKE)/libamdhip64.so.5
	$(CC) $(TRACE_CFLAGS) -Itests/common -O2 $< -o $@ -L$(TRACE_FAKE) -lamdhip64
# One stub registered again and again, by hand (t_kreuse.sh).
$(TRACE_T)/tkreuse: tests/policies/trace/tkreuse.c tests/common/lbtest.h \
		$(TRACE_FAKE)/libamdhip64.so.5
	$(CC) $(TRACE_CFLAGS) -Itests/common $< -o $@ -L$(TRACE_FAKE) -lamdhip64 -lpthread
$(TRACE_T)/tkargs.fatbin: $(TRACE_T)/tkargs
	objcopy --dump-section .hip_fatbin=$@ $< $@.o && rm -f $@.o
bench-kargs: $(TRACE_T)/bench_kargs $(TRACE_T)/tkargs.fatbin $(BUILD)/liblbshim.so
	@sh tests/policies/trace/bench_kargs.sh $(abspath $(BUILD))
.PHONY: bench-kargs
