/*
 * client_hipsparse.c - hipSPARSE (on rocSPARSE) through the shim: a
 * handle, axpyi and doti as in client_rocsparse.c.
 */
#include <stdio.h>
#include <hipsparse/hipsparse.h>
#include <hip/hip_runtime_api.h>

int main(void)
{
	const float xv[3] = { 1, 2, 3 }, alpha = 2;
	const int xi[3] = { 0, 3, 5 };
	float y[8] = { 1, 1, 1, 1, 1, 1, 1, 1 }, dot = -1;
	hipsparseHandle_t handle = NULL;
	float *dxv = NULL, *dy = NULL;
	int *dxi = NULL, st, i;

	printf("hipMalloc %d\n", hipMalloc((void **)&dxv, sizeof(xv)));
	printf("hipMalloc %d\n", hipMalloc((void **)&dxi, sizeof(xi)));
	printf("hipMalloc %d\n", hipMalloc((void **)&dy, sizeof(y)));
	printf("hipMemcpy %d\n",
	       hipMemcpy(dxv, xv, sizeof(xv), hipMemcpyHostToDevice));
	printf("hipMemcpy %d\n",
	       hipMemcpy(dxi, xi, sizeof(xi), hipMemcpyHostToDevice));
	printf("hipMemcpy %d\n",
	       hipMemcpy(dy, y, sizeof(y), hipMemcpyHostToDevice));
	st = hipsparseCreate(&handle);
	printf("hipsparseCreate %d\n", st);
	if (st == HIPSPARSE_STATUS_SUCCESS) {
		printf("hipsparseSaxpyi %d\n",
		       hipsparseSaxpyi(handle, 3, &alpha, dxv, dxi, dy,
				       HIPSPARSE_INDEX_BASE_ZERO));
		printf("hipsparseSdoti %d\n",
		       hipsparseSdoti(handle, 3, dxv, dxi, dy, &dot,
				      HIPSPARSE_INDEX_BASE_ZERO));
		printf("hipsparseDestroy %d\n", hipsparseDestroy(handle));
	}
	printf("hipMemcpy %d\n",
	       hipMemcpy(y, dy, sizeof(y), hipMemcpyDeviceToHost));
	printf("y");
	for (i = 0; i < 8; i++)
		printf(" %g", y[i]);
	printf("\ndot %g\n", dot);
	printf("hipFree %d\n", hipFree(dxv));
	printf("hipFree %d\n", hipFree(dxi));
	printf("hipFree %d\n", hipFree(dy));
	return 0;
}
