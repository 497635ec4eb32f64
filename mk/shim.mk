# mk/shim.mk - liblbshim.so: shim/ core plus the policies/ that exist.

SHIM_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(SHIM_SRCS))
SHIM_CFLAGS = $(LB_CFLAGS) -Ishim -fvisibility=hidden $(UNWIND_CFLAGS)
# libunwind is opened when the trace's crash handler is installed, not
# linked (policies/trace/trace_unwind.c): a machine without it runs every
# program with the shim preloaded, its crash records without backtraces.
SHIM_LIBS = -ldl -lpthread
# How every build of the library is linked (this one, the ASan and the TSan
# builds): HIP's names only, and every symbol bound at load, so that no
# lazy binding (glibc's resolver saves the vector registers on the stack)
# runs in the crash handler on a program's small alternate stack.
SHIM_LDFLAGS = -Wl,--version-script=$(BUILD)/liblbshim.map \
	-Wl,-soname,liblbshim.so -Wl,-z,now

ALL_TARGETS += $(BUILD)/liblbshim.so

# HIP's names, unversioned (gen-map.sh -u), plus shim/exports.syms: dlopen,
# for the RTLD_DEEPBIND warning (shim/dlopen.c), and dlsym, for the CUDA
# face (shim/cuda_procaddr.c); plus the CUDA rows' names (cuda_api.def),
# unversioned too: a reference to NAME@libcudart.so.13 binds to them.
$(BUILD)/liblbshim.map: $(API_DEFS) mk/gen-map.sh mk/rocm-layouts.txt \
		shim/exports.syms $(wildcard include/lbshim/cuda_api*.def)
	@mkdir -p $(@D)
	{ cat shim/exports.syms; \
	  printf '#define LB_API(R, N, ...) @ N -\n#include "lbshim/cuda_api.def"\n' | \
		$(CC) -E -P -Iinclude -x c - | tr '\n@' ' \n' | \
		awk 'NF == 2 { print $$1, $$2 }'; } >$@.syms
	sh mk/gen-map.sh -u "$(CC)" $< $@.syms >$@.tmp && mv $@.tmp $@

$(BUILD)/obj/%.o: %.c $(wildcard include/lbshim/*.h include/lbshim/*.def shim/*.h policies/*/*.h)
	@mkdir -p $(@D)
	$(CC) $(SHIM_CFLAGS) -c $< -o $@

$(BUILD)/liblbshim.so: $(SHIM_OBJS) $(BUILD)/liblbshim.map
	$(CC) -shared -o $@ $(SHIM_OBJS) $(SHIM_LDFLAGS) -Wl,--no-undefined \
		$(SHIM_LIBS)
