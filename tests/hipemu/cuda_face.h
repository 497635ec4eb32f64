/*
 * cuda_face.h - internals of hipemu's CUDA face, the libcudart.so.13 and
 * libcuda.so.1 built from tests/hipemu/cuda_*.c over hipemu's device
 * (tests/hipemu/README.md, "The CUDA face").  Built against NVIDIA's
 * headers only; hipemu's core is reached through he_face.h.
 *
 * Everything here is hidden; the CUDA entry points are marked CF_EXPORT,
 * and the version scripts (cudart.map, cuda.map) give them their nodes.
 */
#ifndef LB_EMU_CUDA_FACE_H
#define LB_EMU_CUDA_FACE_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cuda.h>
#include <cuda_runtime_api.h>
#include "he_face.h"

#pragma GCC visibility push(hidden)

#define CF_EXPORT __attribute__((visibility("default")))

/*
 * The face passes these through unchanged because HIP gives them the same
 * values (ROCm 5.2 include/hip/hip_runtime_api.h: hipStreamNonBlocking
 * 0x01, hipEventBlockingSync 0x1, hipEventDisableTiming 0x2,
 * hipEventInterprocess 0x4, hipHostMallocPortable 0x1, hipHostMallocMapped
 * 0x2, hipHostMallocWriteCombined 0x4, hipMemAttachGlobal 0x01,
 * hipMemAttachHost 0x02, hipStreamPerThread (hipStream_t)2, hipMemcpyKind
 * HostToHost 0 .. Default 4; hipStreamLegacy is (hipStream_t)1 in ROCm
 * 6.2's headers and in include/lbshim/hip_decls.h).  NVIDIA's values:
 * driver_types.h, cuda.h.
 */
_Static_assert(cudaStreamNonBlocking == 0x01 && CU_STREAM_NON_BLOCKING == 1,
	       "stream flags");
_Static_assert(cudaEventBlockingSync == 0x1 && cudaEventDisableTiming == 0x2 &&
	       cudaEventInterprocess == 0x4, "event flags");
_Static_assert(cudaHostAllocPortable == 0x1 && cudaHostAllocMapped == 0x2 &&
	       cudaHostAllocWriteCombined == 0x4, "host allocation flags");
_Static_assert(cudaMemAttachGlobal == 0x01 && cudaMemAttachHost == 0x02,
	       "managed memory flags");
_Static_assert(cudaMemcpyHostToHost == 0 && cudaMemcpyHostToDevice == 1 &&
	       cudaMemcpyDeviceToHost == 2 && cudaMemcpyDeviceToDevice == 3 &&
	       cudaMemcpyDefault == 4, "copy kinds");
_Static_assert(sizeof(dim3) == sizeof(struct he_face_dim3), "dim3");

/* driver_types.h: cudaStreamLegacy 0x1, cudaStreamPerThread 0x2. */
#define CF_STREAM_PER_THREAD ((void *)0x2)

/* ---- cuda_face.c: the core's operations ---- */
/* hipemu's operations, bound at the first call (he_face.h). */
const struct hipemu_face_ops *cf_ops(void);
/* Enters face mode and returns HIP entry point i (CF_HIP). */
void *cf_hip_begin(enum he_face_fn i);
/* Leaves face mode; returns err. */
int cf_hip_end(int err);
/*
 * Device attribute attr (cudaDeviceAttr and CUdevice_attribute share the
 * numbers) of dev: a cudaError_t, cudaErrorInvalidValue for one hipemu
 * does not answer.
 */
int cf_dev_attr(int attr, int dev, int *value);
/* The stream a _ptsz call means: its NULL is the per-thread stream. */
static inline void *cf_ptsz(void *stream)
{
	return stream ? stream : CF_STREAM_PER_THREAD;
}
static inline struct he_face_dim3 cf_dim3(dim3 d)
{
	return (struct he_face_dim3){ d.x, d.y, d.z };
}

/* The HIP entry points' types, from he_face.h's list. */
#define CF_TYPE(N, P) typedef int cf_t_##N P;
HE_FACE_HIP(CF_TYPE)
#undef CF_TYPE

/*
 * Calls hipemu's HIP entry point N as the face's internal (it counts
 * nothing and leaves HIP's last error alone); its hipError_t result.
 */
#define CF_HIP(N, ...) \
	cf_hip_end(((cf_t_##N *)cf_hip_begin(HE_FACE_##N))(__VA_ARGS__))

/* ---- cuda_err.c ---- */
/*
 * cudaGetErrorName's and cudaGetErrorString's answers for a cudaError_t:
 * NVIDIA's, "unrecognized error code" for a code it does not have.
 */
const char *cf_rt_err_name(int code);
const char *cf_rt_err_string(int code);
/* The same for a CUresult; NULL for a code CUresult does not have. */
const char *cf_drv_err_name(int code);
const char *cf_drv_err_string(int code);
/* hipemu's hipError_t as the runtime's, and as the driver's, result. */
cudaError_t cf_rt_from_hip(int err);
CUresult cf_drv_from_hip(int err);

/* ---- cuda_rt.c: the runtime's last error ---- */
/*
 * Keeps err as the calling thread's last error unless it is cudaSuccess,
 * and returns it.
 */
cudaError_t cf_rt_err(cudaError_t err);
/* The same for a hipError_t from hipemu, translated. */
static inline cudaError_t cf_rt(int hip_err)
{
	return hip_err ? cf_rt_err(cf_rt_from_hip(hip_err)) : cudaSuccess;
}

/*
 * Entry of every runtime function: counted under NAME (HIPEMU_STATS); a
 * fault HIPEMU_FAIL injects is returned, and kept, as its CUDA twin.
 */
#define CF_RT_ENTER(NAME)                                               \
	static struct he_api cf_api_ = { .name = NAME };                \
	do {                                                            \
		int cf_inj_ = cf_ops()->enter(&cf_api_);                \
		if (cf_inj_)                                            \
			return cf_rt(cf_inj_);                          \
	} while (0)
/* Entry of a function that returns no error: counted only. */
#define CF_COUNT(NAME)                                                  \
	static struct he_api cf_api_ = { .name = NAME };                \
	(void)cf_ops()->enter(&cf_api_)
/* Entry of every driver function (the driver keeps no last error). */
#define CF_DRV_ENTER(NAME)                                              \
	static struct he_api cf_api_ = { .name = NAME };                \
	do {                                                            \
		int cf_inj_ = cf_ops()->enter(&cf_api_);                \
		if (cf_inj_)                                            \
			return cf_drv_from_hip(cf_inj_);                \
	} while (0)

/* ---- cuda_drv.c ---- */
/* Has cuInit been called (by any thread)? */
bool cf_drv_inited(void);
/* The runtime's (cuda_rt.c): once its face has bound the core, the
 * driver initialised as NVIDIA's cudart does; the driver has none. */
extern void cf_face_bound(void) __attribute__((weak));
/* Every driver call but a few: none before cuInit (cuda_drv.c). */
#define CF_DRV_INIT()                                                   \
	do {                                                            \
		if (!cf_drv_inited())                                   \
			return CUDA_ERROR_NOT_INITIALIZED;              \
	} while (0)
/* A hipError_t from hipemu as the driver's result. */
static inline CUresult cf_drv(int hip_err)
{
	return hip_err ? cf_drv_from_hip(hip_err) : CUDA_SUCCESS;
}

/* ---- cuda_fatbin.c: kernel parameter layouts from cubins ---- */
struct cf_layout {
	char *name;		/* mangled kernel name */
	int n;			/* explicit parameters; -1: unknown */
	unsigned *sizes;	/* n sizes, then n offsets */
	unsigned *offs;
};

struct cf_layouts {
	struct cf_layout *v;
	size_t n;
};

/*
 * Reads the layouts of the kernels in nvcc's fat binary wrapper
 * (__fatBinC_Wrapper_t, what __cudaRegisterFatBinary receives).  0, or -1
 * when it holds none hipemu can read (compressed, PTX only, another
 * format): out is then empty.
 */
int cf_layouts_wrapper(const void *wrapper, struct cf_layouts *out);
/*
 * The same for a module image (cuModuleLoadData): a cubin (ELF) or a fat
 * binary; size is the bytes readable at image, or 0 when unknown.
 */
int cf_layouts_image(const void *image, size_t size, struct cf_layouts *out);
/* The layout of kernel name, or NULL. */
const struct cf_layout *cf_layout_find(const struct cf_layouts *l,
				       const char *name);
/* Frees what l holds; l is left empty. */
void cf_layouts_free(struct cf_layouts *l);

#pragma GCC visibility pop

#endif
