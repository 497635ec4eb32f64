/*
 * he_face.h - the private interface between hipemu's core and its CUDA
 * face (build/hipemu/cuda/libcudart.so.13 and libcuda.so.1, built from
 * tests/hipemu/cuda_*.c).
 *
 * The core exports one private function, hipemu_face(), which hands the
 * face a table of operations: count a call under its CUDA name, run
 * hipemu's own HIP entry points without counting them or touching HIP's
 * last error, and the kernel registry.  So one process has one device,
 * whichever face it calls, and a preloaded shim never sees the HIP calls
 * the face makes: the table holds the core's own addresses (the core is
 * linked -Bsymbolic-functions), never a PLT entry another library could
 * answer.
 *
 * Neither HIP's nor CUDA's headers are included here: the core is built
 * with HIP's, the face with NVIDIA's, and the two cannot share a file
 * (both define dim3).  Types crossing are plain C.
 */
#ifndef LB_EMU_HE_FACE_H
#define LB_EMU_HE_FACE_H

#include <stdatomic.h>
#include <stddef.h>

/* One entry point's call counter (api.c), static in the entry point. */
struct he_api {
	const char *name;
	atomic_ulong calls;
	atomic_int registered;
	struct he_api *next;
};

/* dim3 as both vendors' headers lay it out: three unsigned ints. */
struct he_face_dim3 {
	unsigned x, y, z;
};

/*
 * The HIP entry points the CUDA face calls, with their parameters in
 * plain C: a stream, event or function handle is a void *, a
 * hipMemcpyKind an int (the enum's type), hipError_t the int returned;
 * each checked against ROCm 5.2's include/hip/hip_runtime_api.h.  The
 * table keeps them at their enum index; the face calls them through
 * these types (cuda_face.h), so a name or type missing on either side
 * fails the build.
 */
#define HE_FACE_HIP(X)                                                    \
	X(hipInit, (unsigned flags))                                      \
	X(hipGetDeviceCount, (int *count))                                \
	X(hipSetDevice, (int dev))                                        \
	X(hipGetDevice, (int *dev))                                       \
	X(hipDeviceSynchronize, (void))                                   \
	X(hipDeviceReset, (void))                                         \
	X(hipSetDeviceFlags, (unsigned flags))                            \
	X(hipGetDeviceFlags, (unsigned *flags))                           \
	X(hipMemGetInfo, (size_t *free, size_t *total))                   \
	X(hipDeviceGetStreamPriorityRange, (int *least, int *greatest))   \
	X(hipMalloc, (void **p, size_t size))                             \
	X(hipFree, (void *p))                                             \
	X(hipHostMalloc, (void **p, size_t size, unsigned flags))         \
	X(hipHostFree, (void *p))                                         \
	X(hipMallocManaged, (void **p, size_t size, unsigned flags))      \
	X(hipMallocPitch, (void **p, size_t *pitch, size_t w, size_t h))  \
	X(hipMallocAsync, (void **p, size_t size, void *stream))          \
	X(hipFreeAsync, (void *p, void *stream))                          \
	X(hipMemcpy, (void *dst, const void *src, size_t n, int kind))    \
	X(hipMemcpy_spt, (void *dst, const void *src, size_t n, int kind)) \
	X(hipMemcpyAsync, (void *dst, const void *src, size_t n, int kind, \
			   void *stream))                                 \
	X(hipMemcpy2D, (void *dst, size_t dpitch, const void *src,        \
			size_t spitch, size_t w, size_t h, int kind))     \
	X(hipMemcpy2D_spt, (void *dst, size_t dpitch, const void *src,    \
			    size_t spitch, size_t w, size_t h, int kind)) \
	X(hipMemcpy2DAsync, (void *dst, size_t dpitch, const void *src,   \
			     size_t spitch, size_t w, size_t h, int kind, \
			     void *stream))                               \
	X(hipMemset, (void *dst, int value, size_t n))                    \
	X(hipMemset_spt, (void *dst, int value, size_t n))                \
	X(hipMemsetAsync, (void *dst, int value, size_t n, void *stream)) \
	X(hipMemsetD8, (void *dst, unsigned char value, size_t n))        \
	X(hipMemsetD8Async, (void *dst, unsigned char value, size_t n,    \
			     void *stream))                               \
	X(hipMemsetD32, (void *dst, int value, size_t n))                 \
	X(hipMemsetD32Async, (void *dst, int value, size_t n,             \
			      void *stream))                              \
	X(hipStreamCreate, (void **stream))                               \
	X(hipStreamCreateWithFlags, (void **stream, unsigned flags))      \
	X(hipStreamCreateWithPriority, (void **stream, unsigned flags,    \
					int priority))                    \
	X(hipStreamDestroy, (void *stream))                               \
	X(hipStreamSynchronize, (void *stream))                           \
	X(hipStreamQuery, (void *stream))                                 \
	X(hipStreamWaitEvent, (void *stream, void *event, unsigned flags)) \
	X(hipStreamAddCallback, (void *stream,                            \
				 void (*cb)(void *, int, void *),          \
				 void *ud, unsigned flags))               \
	X(hipLaunchHostFunc, (void *stream, void (*fn)(void *), void *ud)) \
	X(hipStreamGetFlags, (void *stream, unsigned *flags))             \
	X(hipStreamGetPriority, (void *stream, int *priority))            \
	X(hipEventCreate, (void **event))                                 \
	X(hipEventCreateWithFlags, (void **event, unsigned flags))        \
	X(hipEventRecord, (void *event, void *stream))                    \
	X(hipEventSynchronize, (void *event))                             \
	X(hipEventQuery, (void *event))                                   \
	X(hipEventElapsedTime, (float *ms, void *start, void *stop))      \
	X(hipEventDestroy, (void *event))                                 \
	X(hipLaunchKernel, (const void *stub, struct he_face_dim3 grid,   \
			    struct he_face_dim3 block, void **args,       \
			    size_t shmem, void *stream))                  \
	X(hipLaunchCooperativeKernel, (const void *stub,                  \
				       struct he_face_dim3 grid,          \
				       struct he_face_dim3 block,         \
				       void **args, unsigned shmem,       \
				       void *stream))                     \
	X(hipModuleLaunchKernel, (void *f, unsigned gx, unsigned gy,      \
				  unsigned gz, unsigned bx, unsigned by,  \
				  unsigned bz, unsigned shmem,            \
				  void *stream, void **params,            \
				  void **extra))

enum he_face_fn {
#define HE_FACE_ENUM(N, P) HE_FACE_##N,
	HE_FACE_HIP(HE_FACE_ENUM)
#undef HE_FACE_ENUM
	HE_FACE_NFN
};

/* Bumped when struct hipemu_face_ops or the table changes. */
#define HE_FACE_VERSION 1

/* What cudaGetDeviceProperties and cuDeviceGetAttribute need. */
struct hipemu_face_props {
	char name[256];
	size_t total_mem, shared_per_block, const_mem, pitch_align;
	int major, minor, multiprocessors, warp_size, max_threads_per_block;
	int max_threads_dim[3], max_grid[3];
	int regs_per_block, clock_khz, mem_clock_khz, mem_bus_width;
	int l2_cache, max_threads_per_mp, pci_bus, pci_device, pci_domain;
};

/* hipemu's memory kinds, as pointer() reports them. */
enum { HE_FACE_MEM_DEVICE, HE_FACE_MEM_MANAGED, HE_FACE_MEM_HOST };

struct hipemu_face_ops {
	unsigned version;	/* HE_FACE_VERSION */
	unsigned nfn;		/* HE_FACE_NFN */
	/* HIP entry points, indexed by enum he_face_fn. */
	void *const *hip;
	/*
	 * Counts one call of api (named by its CUDA name) for HIPEMU_STATS
	 * and returns the hipError_t that HIPEMU_FAIL asks for, else 0.
	 */
	int (*enter)(struct he_api *api);
	/*
	 * on 1 then 0 brackets the face's calls of hip[]: in between, the
	 * calling thread's HIP entry points neither count, nor inject
	 * faults, nor set HIP's last error.  Nests.
	 */
	void (*face)(int on);
	/*
	 * Registers host stub as the kernel name; with n >= 0, n explicit
	 * arguments of those sizes at those parameter-buffer offsets.  The
	 * kernel (opaque), or NULL when out of memory.
	 */
	void *(*kernel_stub)(const void *stub, const char *name,
			     const unsigned *sizes, const unsigned *offs,
			     int n);
	/* The kernel registered for stub, or NULL. */
	void *(*kernel_of_stub)(const void *stub);
	/*
	 * The kernel a module function of that name is (a hipFunction_t),
	 * with that layout unless it has one (n < 0: none).  NULL: no memory.
	 */
	void *(*kernel_named)(const char *name, const unsigned *sizes,
			      const unsigned *offs, int n);
	/* 1 if kernel k has a twin (resolved once), else 0. */
	int (*kernel_twin)(void *k);
	/* Kernel k's mangled name; NULL if k is no kernel. */
	const char *(*kernel_name)(void *k);
	/* Argument i's offset and size: 1, or 0 if the layout is unknown. */
	int (*kernel_param)(void *k, unsigned i, unsigned *off,
			    unsigned *size);
	/* Device dev's properties: 0, or -1 for no such device. */
	int (*props)(int dev, struct hipemu_face_props *p);
	/*
	 * The allocation containing p: 0 with its kind (HE_FACE_MEM_*),
	 * device, base and size; -1 if p is in none.
	 */
	int (*pointer)(const void *p, int *kind, int *dev, void **base,
		       size_t *size);
	/* "hipemu: ..." on stderr (once-only problems, never a hot path). */
	void (*warn)(const char *fmt, ...)
		__attribute__((format(printf, 1, 2)));
};

/* The core's operations; exported by every hipemu build. */
const struct hipemu_face_ops *hipemu_face(void);

#endif
