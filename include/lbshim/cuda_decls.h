/*
 * cuda_decls.h - the CUDA declarations the API table's CUDA rows need,
 * written here so that the shim builds without NVIDIA's toolkit.
 *
 * Every fact is NVIDIA's, CUDA 13.0 (/usr/local/cuda/include): the file
 * and the line are given with each.  Only what a row's signature or the
 * shim's own code uses is declared; any other handle a row takes is a
 * void *, any other enum an int (mk/gen-cuda-rows.py: x86-64 passes
 * them alike).  Three by-value structs are HIP's of the same layout
 * (dim3, cudaPitchedPtr, cudaExtent): a CUDA row and its HIP twin then
 * have the same argument types, which the roles' checks compare
 * (shim/api_info.c), asserted below.
 */
#ifndef LB_CUDA_DECLS_H
#define LB_CUDA_DECLS_H

#include <stddef.h>
#include <stdint.h>
#include "lbshim/hip_decls.h"

/* driver_types.h:2993 typedef enum cudaError cudaError_t; values :199,
 * :217 */
typedef enum cudaError {
	cudaSuccess = 0,
	cudaErrorInitializationError = 3
} cudaError_t;
/* cuda.h:2511-3179 typedef enum cudaError_enum {...} CUresult; values
 * :2517, :2523, :2535 */
typedef enum cudaError_enum {
	CUDA_SUCCESS = 0,
	CUDA_ERROR_INVALID_VALUE = 1,
	CUDA_ERROR_NOT_INITIALIZED = 3
} CUresult;

/* driver_types.h:2998, :3003, :3555; cuda.h:283-302: the runtime's and
 * the driver's handles are the same structs */
typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;
typedef struct CUgraphExec_st *cudaGraphExec_t;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
typedef struct CUgraphExec_st *CUgraphExec;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUlib_st *CUlibrary;
typedef struct CUkern_st *CUkernel;
/* cuda.h:274, :278, :280 (64-bit) */
typedef unsigned long long CUdeviceptr;
typedef int CUdevice;
/* cuda.h:62-63 */
typedef uint32_t cuuint32_t;
typedef uint64_t cuuint64_t;
/* crt/device_functions.h:2930: __cudaLaunchKernel's kernel handle */
typedef struct CUkern_st *cudaKernel_t;

/* driver_types.h:1397; cuda_runtime_api.h:2229; cuda.h:1722, :3233 */
typedef void (*cudaHostFn_t)(void *userData);
typedef void (*cudaStreamCallback_t)(cudaStream_t stream, cudaError_t status,
				     void *userData);
typedef void (*CUhostFn)(void *userData);
typedef void (*CUstreamCallback)(CUstream hStream, CUresult status,
				 void *userData);

/* driver_types.h:1247-1251 (HIP's values are the same) */
enum cudaMemcpyKind {
	cudaMemcpyHostToHost = 0,
	cudaMemcpyHostToDevice = 1,
	cudaMemcpyDeviceToHost = 2,
	cudaMemcpyDeviceToDevice = 3,
	cudaMemcpyDefault = 4
};

/*
 * driver_types.h:1259-1265 struct cudaPitchedPtr { void *ptr; size_t
 * pitch, xsize, ysize; } and :1272-1277 struct cudaExtent { size_t width,
 * height, depth; }: HIP's hipPitchedPtr and hipExtent, field by field.
 * vector_types.h:576 struct dim3 { unsigned int x, y, z; }: HIP's dim3.
 */
typedef hipPitchedPtr cudaPitchedPtr;
typedef hipExtent cudaExtent;
_Static_assert(sizeof(cudaPitchedPtr) == 32 &&
		       offsetof(hipPitchedPtr, pitch) == 8 &&
		       offsetof(hipPitchedPtr, xsize) == 16 &&
		       offsetof(hipPitchedPtr, ysize) == 24,
	       "cudaPitchedPtr is hipPitchedPtr");
_Static_assert(sizeof(cudaExtent) == 24 && offsetof(hipExtent, height) == 8 &&
		       offsetof(hipExtent, depth) == 16,
	       "cudaExtent is hipExtent");
_Static_assert(sizeof(dim3) == 12, "CUDA's dim3 is HIP's");

/* driver_types.h:2147-2150; cuda.h:4278-4282 (by value: two ints) */
struct cudaMemLocation {
	int type;
	int id;
};
typedef struct CUmemLocation_st {
	int type;
	int id;
} CUmemLocation;

/* driver_types.h:111, :121; cuda.h:440, :450 */
#define cudaStreamLegacy ((cudaStream_t)0x1)
#define cudaStreamPerThread ((cudaStream_t)0x2)
#define CU_STREAM_LEGACY ((CUstream)0x1)
#define CU_STREAM_PER_THREAD ((CUstream)0x2)
/* cuda.h:2413: cuGetProcAddress's flag for the _ptsz/_ptds forms */
#define CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM (1ull << 1)

/* crt/host_runtime.h:189-262, crt/device_functions.h:2930-2948: what
 * nvcc's generated code calls (declared for C++ only there) */
void **__cudaRegisterFatBinary(void *fatCubin);
void __cudaRegisterFatBinaryEnd(void **fatCubinHandle);
void __cudaUnregisterFatBinary(void **fatCubinHandle);
void __cudaRegisterFunction(void **fatCubinHandle, const char *hostFun,
			    char *deviceFun, const char *deviceName,
			    int thread_limit, void *tid, void *bid,
			    dim3 *bDim, dim3 *gDim, int *wSize);

#endif
