/*
 * launchmore.c - the launches that reach launch.c's through another
 * door: the old hipConfigureCall / hipSetupArgument / hipLaunchByPtr
 * triple, the multi-device launch lists, and the module cooperative
 * launch of 5.5.
 *
 * Each is served by launch.c's own entry points, looked up in this library
 * itself (a preloaded shim would answer the PLT), so the work is the same
 * launch on the same stream; it counts under both names in HIPEMU_STATS.
 */
#define _GNU_SOURCE
#include <string.h>
#include "he.h"
#include <dlfcn.h>

static void *self_sym(const char *name)
{
	static void *self;
	Dl_info di;

	if (!self && dladdr((void *)self_sym, &di) && di.dli_fname)
		self = dlopen(di.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
	return self ? dlsym(self, name) : NULL;
}

#define HE_SELF(NAME) ((__typeof__(&NAME))self_sym(#NAME))

/* The arguments hipSetupArgument gathers for the next hipLaunchByPtr. */
#define HE_SETUP_BYTES 4096
#define HE_SETUP_ARGS 64
static __thread struct {
	_Alignas(16) char buf[HE_SETUP_BYTES];
	void *args[HE_SETUP_ARGS];
	int n;
} he_setup;

HE_EXPORT hipError_t hipConfigureCall(dim3 gridDim, dim3 blockDim,
				      size_t sharedMem, hipStream_t stream)
{
	HE_ENTER("hipConfigureCall");
	he_setup.n = 0;
	return he_ret(HE_SELF(__hipPushCallConfiguration)(gridDim, blockDim,
							  sharedMem, stream));
}

HE_EXPORT hipError_t hipSetupArgument(const void *arg, size_t size,
				      size_t offset)
{
	HE_ENTER("hipSetupArgument");
	if (!arg || offset + size > HE_SETUP_BYTES ||
	    he_setup.n == HE_SETUP_ARGS)
		return he_ret(hipErrorInvalidValue);
	memcpy(he_setup.buf + offset, arg, size);
	he_setup.args[he_setup.n++] = he_setup.buf + offset;
	return he_ret(hipSuccess);
}

HE_EXPORT hipError_t hipLaunchByPtr(const void *func)
{
	dim3 grid, block;
	size_t shmem;
	hipStream_t stream;
	hipError_t err;

	HE_ENTER("hipLaunchByPtr");
	err = HE_SELF(__hipPopCallConfiguration)(&grid, &block, &shmem,
						 &stream);
	if (err)
		return he_ret(err);
	err = HE_SELF(hipLaunchKernel)(func, grid, block, he_setup.args,
				       shmem, stream);
	he_setup.n = 0;
	return he_ret(err);
}

/* Each entry on its own stream, in list order. */
static hipError_t launch_list(hipLaunchParams *l, int n)
{
	hipError_t err;
	int i;

	if (!l || n <= 0)
		return hipErrorInvalidValue;
	for (i = 0; i < n; i++) {
		err = HE_SELF(hipLaunchKernel)(l[i].func, l[i].gridDim,
					       l[i].blockDim, l[i].args,
					       l[i].sharedMem, l[i].stream);
		if (err)
			return err;
	}
	return hipSuccess;
}

HE_EXPORT hipError_t hipLaunchCooperativeKernelMultiDevice(
	hipLaunchParams *launchParamsList, int numDevices, unsigned int flags)
{
	HE_ENTER("hipLaunchCooperativeKernelMultiDevice");
	(void)flags;
	return he_ret(launch_list(launchParamsList, numDevices));
}

HE_EXPORT hipError_t hipExtLaunchMultiKernelMultiDevice(
	hipLaunchParams *launchParamsList, int numDevices, unsigned int flags)
{
	HE_ENTER("hipExtLaunchMultiKernelMultiDevice");
	(void)flags;
	return he_ret(launch_list(launchParamsList, numDevices));
}

HE_EXPORT hipError_t hipModuleLaunchCooperativeKernel(
	hipFunction_t f, unsigned int gridDimX, unsigned int gridDimY,
	unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
	unsigned int blockDimZ, unsigned int sharedMemBytes,
	hipStream_t stream, void **kernelParams)
{
	HE_ENTER("hipModuleLaunchCooperativeKernel");
	return he_ret(HE_SELF(hipModuleLaunchKernel)(
		f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY,
		blockDimZ, sharedMemBytes, stream, kernelParams, NULL));
}
