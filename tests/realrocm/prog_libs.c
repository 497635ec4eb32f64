/*
 * prog_libs.c - AMD's libraries through their entry points: a handle or
 * a plan, a call, its release; built with -DLIB_<NAME> for one library,
 * against that release's own headers (the set's -dev packages).  Prints
 * each call and what it answered, and the HIP calls it makes around
 * them (hipMalloc, hipFree).  Without a device these are the libraries'
 * error paths; t_libs.sh compares the lines with and without the shim.
 * rocBLAS, hipBLASLt and RCCL (make check-realrocm-big) are declared
 * here (Debian's big sets bring their shared objects only), MIOpen and
 * hipSPARSELt too (their headers are not C).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <hip/hip_runtime_api.h>

#define SHOW(call) printf("%s %d\n", #call, (int)(call))

#if defined(LIB_MIOPEN)
/* miopen/miopen.h, which C cannot read since 6.4 (miopenTensorArgument_t
 * is a struct tag only): handles are pointers, statuses int, miopenFloat
 * is 1 (miopenDataType_t) */
typedef struct miopenHandle *miopenHandle_t;
typedef struct miopenTensorDescriptor *miopenTensorDescriptor_t;
#define miopenFloat 1
int miopenGetVersion(size_t *major, size_t *minor, size_t *patch);
int miopenCreate(miopenHandle_t *handle);
int miopenCreateWithStream(miopenHandle_t *handle, hipStream_t stream);
int miopenSetStream(miopenHandle_t handle, hipStream_t stream);
int miopenDestroy(miopenHandle_t handle);
int miopenCreateTensorDescriptor(miopenTensorDescriptor_t *desc);
int miopenSet4dTensorDescriptor(miopenTensorDescriptor_t desc, int type,
				int n, int c, int h, int w);
int miopenGetTensorNumBytes(miopenTensorDescriptor_t desc, size_t *bytes);
int miopenDestroyTensorDescriptor(miopenTensorDescriptor_t desc);
static void run(void)
{
	miopenTensorDescriptor_t t = NULL;
	miopenHandle_t h = NULL;
	size_t ma = 0, mi = 0, pa = 0, bytes = 0;

	SHOW(miopenGetVersion(&ma, &mi, &pa));
	printf("version %zu.%zu\n", ma, mi);
	SHOW(miopenCreate(&h));
	if (h) {
		SHOW(miopenSetStream(h, NULL));
		SHOW(miopenDestroy(h));
	}
	h = NULL;
	SHOW(miopenCreateWithStream(&h, NULL));
	if (h)
		SHOW(miopenDestroy(h));
	SHOW(miopenCreateTensorDescriptor(&t));
	SHOW(miopenSet4dTensorDescriptor(t, miopenFloat, 1, 1, 4, 4));
	SHOW(miopenGetTensorNumBytes(t, &bytes));
	printf("bytes %zu\n", bytes);
	SHOW(miopenDestroyTensorDescriptor(t));
}
#elif defined(LIB_ROCFFT)
#include <rocfft/rocfft.h>
static void run(void)
{
	rocfft_plan plan = NULL;
	size_t len = 16, work = 0;
	void *buf = NULL;

	SHOW(rocfft_setup());
	SHOW(hipMalloc(&buf, len * 8));
	SHOW(rocfft_plan_create(&plan, rocfft_placement_inplace,
				rocfft_transform_type_complex_forward,
				rocfft_precision_single, 1, &len, 1, NULL));
	if (plan) {
		SHOW(rocfft_plan_get_work_buffer_size(plan, &work));
		SHOW(rocfft_execute(plan, &buf, NULL, NULL));
		SHOW(rocfft_plan_destroy(plan));
	}
	SHOW(hipFree(buf));
	SHOW(rocfft_cleanup());
}
#elif defined(LIB_HIPBLAS)
#include <hipblas/hipblas.h>
static void run(void)
{
	const float alpha = 1, beta = 0;
	hipblasHandle_t h = NULL;
	float *a = NULL;

	SHOW(hipMalloc((void **)&a, 64 * sizeof(float)));
	SHOW(hipblasCreate(&h));
	SHOW(hipblasSetStream(h, NULL));
	SHOW(hipblasSgemm(h, HIPBLAS_OP_N, HIPBLAS_OP_N, 8, 8, 8, &alpha, a, 8,
			  a, 8, &beta, a, 8));
	SHOW(hipblasDestroy(h));
	SHOW(hipFree(a));
}
#elif defined(LIB_HIPSOLVER)
#include <hipsolver/hipsolver.h>
static void run(void)
{
	hipsolverHandle_t h = NULL;
	float *a = NULL;
	int lwork = -1;

	SHOW(hipMalloc((void **)&a, 64 * sizeof(float)));
	SHOW(hipsolverCreate(&h));
	SHOW(hipsolverSetStream(h, NULL));
	SHOW(hipsolverSgetrf_bufferSize(h, 8, 8, a, 8, &lwork));
	printf("lwork %d\n", lwork);
	SHOW(hipsolverDestroy(h));
	SHOW(hipFree(a));
}
#elif defined(LIB_HIPSPARSELT)
/* hipsparselt/hipsparselt.h, which includes C++ headers: the handle is
 * 11024 bytes the library fills, statuses int */
typedef struct {
	uint8_t data[11024];
} hipsparseLtHandle_t;
int hipsparseLtInit(hipsparseLtHandle_t *handle);
int hipsparseLtGetVersion(const hipsparseLtHandle_t *handle, int *version);
int hipsparseLtDestroy(const hipsparseLtHandle_t *handle);
static void run(void)
{
	static hipsparseLtHandle_t h;
	int v = -1;

	SHOW(hipsparseLtInit(&h));
	SHOW(hipsparseLtGetVersion(&h, &v));
	printf("version %d\n", v);
	SHOW(hipsparseLtDestroy(&h));
}
#elif defined(LIB_ROCBLAS)
#include <rocblas/rocblas.h>
static void run(void)
{
	const float alpha = 1, beta = 0;
	rocblas_handle h = NULL;
	float *a = NULL;

	SHOW(hipMalloc((void **)&a, 64 * sizeof(float)));
	SHOW(rocblas_create_handle(&h));
	SHOW(rocblas_set_stream(h, NULL));
	SHOW(rocblas_sgemm(h, rocblas_operation_none, rocblas_operation_none,
			   8, 8, 8, &alpha, a, 8, a, 8, &beta, a, 8));
	SHOW(rocblas_destroy_handle(h));
	SHOW(hipFree(a));
}
#elif defined(LIB_HIPBLASLT)
/* hipblaslt.h (libhipblaslt-dev): the handle is an opaque pointer */
typedef void *hipblasLtHandle_t;
int hipblasLtCreate(hipblasLtHandle_t *handle);
int hipblasLtDestroy(hipblasLtHandle_t handle);
static void run(void)
{
	hipblasLtHandle_t h = NULL;

	SHOW(hipblasLtCreate(&h));
	if (h)
		SHOW(hipblasLtDestroy(h));
}
#elif defined(LIB_RCCL)
/* rccl.h (librccl-dev): ncclUniqueId is 128 bytes, passed by value */
typedef struct {
	char internal[128];
} ncclUniqueId;
typedef void *ncclComm_t;
int ncclGetVersion(int *version);
int ncclGetUniqueId(ncclUniqueId *id);
int ncclCommInitRank(ncclComm_t *comm, int nranks, ncclUniqueId id, int rank);
int ncclCommDestroy(ncclComm_t comm);
static void run(void)
{
	ncclComm_t c = NULL;
	ncclUniqueId id;
	int v = -1;

	memset(&id, 0, sizeof(id));
	SHOW(ncclGetVersion(&v));
	printf("version %d\n", v);
	SHOW(ncclGetUniqueId(&id));
	SHOW(ncclCommInitRank(&c, 1, id, 0));
	if (c)
		SHOW(ncclCommDestroy(c));
}
#else
#error "build with -DLIB_<NAME>"
#endif

int main(void)
{
	run();
	SHOW(hipGetLastError());
	return 0;
}
