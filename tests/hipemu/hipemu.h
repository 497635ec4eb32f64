/*
 * hipemu.h - what a kernel twin sees.
 *
 * hipemu runs a device function whose mangled name is M by calling the C
 * function hipemu_twin_M, looked up with dlsym in the libraries listed in
 * HIPEMU_KERNELS (colon-separated) and then in the program itself.  The
 * twin runs on the stream's worker thread, after all prior work of the
 * stream, and must do the work of the whole grid itself (loop over
 * grid x block).
 *
 * Because the launch is asynchronous, hipemu has to copy the argument
 * values before hipLaunchKernel returns (the caller's args array lives on
 * its stack).  The sizes come from an optional companion array
 * hipemu_args_M, zero-terminated, declared with HIPEMU_ARGS.  Without it the
 * launch still works but hipLaunchKernel waits until the twin has run, which
 * hides asynchrony; so give sizes for every twin a test relies on.
 *
 *	HIPEMU_ARGS(_Z6vecaddPfPKfS1_i, sizeof(float *), sizeof(float *),
 *		    sizeof(float *), sizeof(int));
 *	HIPEMU_TWIN(_Z6vecaddPfPKfS1_i)
 *	{
 *		float *c = *(float **)args[0];
 *		...
 *	}
 *
 * A kernel without arguments uses HIPEMU_ARGS(M, 0).
 */
#ifndef LB_EMU_H
#define LB_EMU_H

#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__ 1
#endif
#include <stddef.h>
#include <hip/hip_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hipemu_launch {
	dim3 grid;		/* blocks in the grid */
	dim3 block;		/* threads in a block */
	size_t shmem;		/* dynamic shared memory bytes requested */
	hipStream_t stream;	/* the stream as the caller named it */
	int device;		/* device the stream belongs to */
	const char *kernel;	/* mangled device function name */
	/*
	 * hipModuleLaunchKernel with an "extra" HIP_LAUNCH_PARAM_BUFFER
	 * argument buffer: a copy of it (args is then NULL unless
	 * hipemu_args_M let hipemu split it); otherwise NULL and 0.
	 */
	const void *kernarg;
	size_t kernarg_size;
} hipemu_launch;

typedef void (*hipemu_twin_fn)(const hipemu_launch *launch, void **args);

#define HIPEMU_TWIN(M)                                                  \
	__attribute__((visibility("default"), used)) void hipemu_twin_##M( \
		const hipemu_launch *launch, void **args)

#define HIPEMU_ARGS(M, ...)                                       \
	__attribute__((visibility("default"), used)) const unsigned \
		hipemu_args_##M[] = { __VA_ARGS__, 0 }

/* Every byte of freed device memory reads as this while quarantined. */
#define HIPEMU_POISON_BYTE 0xDB

#ifdef __cplusplus
}
#endif

#endif
