# mk/hipemu_cuda.mk - hipemu's CUDA face (tests/hipemu/README.md, "The CUDA
# face"): build/hipemu/cuda/libcudart.so.13 and libcuda.so.1 over
# build/hipemu/cuda/libhipemu.so (hipemu's objects, HIP's names hidden),
# and the hipemu-cuda group, whose programs nvcc builds.
#
# Both need NVIDIA's CUDA toolkit (headers, nvcc; CUDA_HOME, by default
# /usr/local/cuda): without it neither the face nor its group exists.
# Named to be read after mk/hipemu.mk, whose objects it links.

CUDA_HOME ?= /usr/local/cuda
NVCC ?= $(CUDA_HOME)/bin/nvcc
HC_HAVE_CUDA := $(wildcard $(CUDA_HOME)/include/cuda_runtime_api.h)

HC_OUT := $(BUILD)/hipemu/cuda
HC_CORE := $(HC_OUT)/libhipemu.so
HC_RT := $(HC_OUT)/libcudart.so.13
HC_DRV := $(HC_OUT)/libcuda.so.1
HC_COMMON := cuda_face.c cuda_err.c cuda_fatbin.c
HC_RT_SRC := $(HC_COMMON) cuda_rt.c cuda_rt_mem.c cuda_rt_stream.c \
	cuda_rt_launch.c
HC_DRV_SRC := $(HC_COMMON) cuda_drv.c cuda_drv_mem.c cuda_drv_proc.c
HC_CFLAGS = $(LB_CFLAGS) -fvisibility=hidden -pthread -I$(HE_DIR) \
	-I$(CUDA_HOME)/include
HC_HDRS := $(HE_DIR)/cuda_face.h $(HE_DIR)/he_face.h
# Like the core: the face's own references (the cuGetProcAddress table)
# bind to itself, as a driver's do.  $ORIGIN: the core is found next to it.
HC_LDFLAGS := -shared -Wl,-Bsymbolic-functions -Wl,-rpath,'$$ORIGIN' \
	-L$(HC_OUT) -lhipemu -pthread -ldl

# The test programs and twins (tests/hipemu/cuda/).
HCT_DIR := tests/hipemu/cuda
HCT := $(BUILD)/tests/hipemu-cuda
HCT_PROGS := $(HCT)/vecadd $(HCT)/vecadd_z $(HCT)/streams $(HCT)/ptsz \
	$(HCT)/errs $(HCT)/drv $(HCT)/kern.cubin $(HCT)/both \
	$(HCT)/errnames $(HCT)/libcuda_twins.so
HCT_TESTS := $(sort $(wildcard $(HCT_DIR)/t_*.sh))
# nvcc's host code, linked against NVIDIA's shared cudart by soname.
HCT_NVCC := $(NVCC) -O2 -cudart shared -arch=sm_90

ifneq ($(HC_HAVE_CUDA),)
ALL_TARGETS += $(HC_RT) $(HC_DRV)
CHECK_GROUPS += hipemu-cuda
endif

.PHONY: hipemu-cuda check-hipemu-cuda
hipemu-cuda: $(HC_RT) $(HC_DRV)

$(HC_OUT)/obj/%.o: $(HE_DIR)/%.c $(HC_HDRS)
	@mkdir -p $(@D)
	$(CC) $(HC_CFLAGS) -c $< -o $@

$(HC_CORE): $(HE_OBJS) $(HE_DIR)/hipemu_core.map
	@mkdir -p $(@D)
	$(CC) -shared $(HE_LDFLAGS) -Wl,-soname,libhipemu.so \
		-Wl,--version-script=$(HE_DIR)/hipemu_core.map -o $@ \
		$(HE_OBJS) -pthread -ldl

$(HC_RT): $(patsubst %.c,$(HC_OUT)/obj/%.o,$(HC_RT_SRC)) $(HC_CORE) \
		$(HE_DIR)/cudart.map
	$(CC) -Wl,-soname,libcudart.so.13 \
		-Wl,--version-script=$(HE_DIR)/cudart.map -o $@ \
		$(patsubst %.c,$(HC_OUT)/obj/%.o,$(HC_RT_SRC)) $(HC_LDFLAGS)
	ln -sf libcudart.so.13 $(@D)/libcudart.so

$(HC_DRV): $(patsubst %.c,$(HC_OUT)/obj/%.o,$(HC_DRV_SRC)) $(HC_CORE) \
		$(HE_DIR)/cuda.map
	$(CC) -Wl,-soname,libcuda.so.1 \
		-Wl,--version-script=$(HE_DIR)/cuda.map -o $@ \
		$(patsubst %.c,$(HC_OUT)/obj/%.o,$(HC_DRV_SRC)) $(HC_LDFLAGS)
	ln -sf libcuda.so.1 $(@D)/libcuda.so

# ---- the group's programs ----

$(HCT)/libcuda_twins.so: $(HCT_DIR)/cuda_twins.c $(HE_DIR)/hipemu.h
	@mkdir -p $(@D)
	$(CC) $(LB_CFLAGS) -I$(HE_DIR) -shared $< -o $@ -pthread

$(HCT)/%: $(HCT_DIR)/%.cu $(HCT_DIR)/cutest.h $(HCT_DIR)/kernels.cuh
	@mkdir -p $(@D)
	$(HCT_NVCC) -I$(HCT_DIR) $< -o $@ -lpthread

# The same vector add with its device code compressed (cuda_fatbin.c
# cannot read it: the sizes come from the twin's table or nowhere).
$(HCT)/vecadd_z: $(HCT_DIR)/vecadd.cu $(HCT_DIR)/cutest.h $(HCT_DIR)/kernels.cuh
	@mkdir -p $(@D)
	$(HCT_NVCC) -I$(HCT_DIR) -Xfatbin=-compress-all $< -o $@ -lpthread

$(HCT)/ptsz: $(HCT_DIR)/streams.cu $(HCT_DIR)/cutest.h $(HCT_DIR)/kernels.cuh
	@mkdir -p $(@D)
	$(HCT_NVCC) -I$(HCT_DIR) --default-stream per-thread -DCT_PTSZ \
		$< -o $@ -lpthread

# Driver API programs: C against cuda.h, linked with the toolkit's stub
# (soname libcuda.so.1); the kernels are a cubin nvcc compiles.
$(HCT)/drv: $(HCT_DIR)/drv.c $(HCT_DIR)/cutest.h
	@mkdir -p $(@D)
	$(CC) $(LB_CFLAGS) -I$(CUDA_HOME)/include -I$(HCT_DIR) $< -o $@ \
		-L$(CUDA_HOME)/lib64/stubs -lcuda -L$(CUDA_HOME)/lib64 \
		-lcudart -pthread

$(HCT)/kern.cubin: $(HCT_DIR)/kern.cu
	@mkdir -p $(@D)
	$(NVCC) -cubin -arch=sm_90 $< -o $@

# One process, both faces: a HIP half and a CUDA half, each compiled
# against its own vendor's headers (they cannot share a file).
$(HCT)/both: $(HCT_DIR)/both_hip.c $(HCT_DIR)/both_cuda.c $(HCT_DIR)/cutest.h
	@mkdir -p $(@D)
	$(CC) $(LB_CFLAGS) -c $(HCT_DIR)/both_hip.c -o $@-hip.o
	$(CC) $(LB_CFLAGS) -I$(CUDA_HOME)/include -I$(HCT_DIR) \
		-c $(HCT_DIR)/both_cuda.c -o $@-cuda.o
	$(CC) $@-hip.o $@-cuda.o -o $@ -L$(BUILD)/hipemu -lamdhip64 \
		-L$(CUDA_HOME)/lib64 -lcudart -pthread

$(HCT)/errnames: $(HCT_DIR)/errnames.c
	@mkdir -p $(@D)
	$(CC) $(LB_CFLAGS) -I$(CUDA_HOME)/include $< -o $@ \
		-L$(CUDA_HOME)/lib64 -lcudart

check-hipemu-cuda: $(HC_RT) $(HC_DRV) $(HE_LIB) $(HCT_PROGS)
	@BUILD=$(BUILD) CUDA_HOME=$(CUDA_HOME) \
		sh mk/run-tests.sh hipemu-cuda $(BUILD)/results $(HCT_TESTS)
