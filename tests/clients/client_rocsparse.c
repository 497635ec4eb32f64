/*
 * client_rocsparse.c - rocSPARSE through the shim: a handle, then
 * y += alpha * x for a sparse x (axpyi) and the dot product of x and y
 * (doti), on device memory the program uploads.  Prints every status and
 * the results that came back.
 */
#include <stdio.h>
#include <rocsparse/rocsparse.h>
#include <hip/hip_runtime_api.h>

int main(void)
{
	const float xv[3] = { 1, 2, 3 }, alpha = 2;
	const int xi[3] = { 0, 3, 5 };
	float y[8] = { 1, 1, 1, 1, 1, 1, 1, 1 }, dot = -1;
	rocsparse_handle handle = NULL;
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
	st = rocsparse_create_handle(&handle);
	printf("rocsparse_create_handle %d\n", st);
	if (st == rocsparse_status_success) {
		printf("rocsparse_saxpyi %d\n",
		       rocsparse_saxpyi(handle, 3, &alpha, dxv, dxi, dy,
					rocsparse_index_base_zero));
		printf("rocsparse_sdoti %d\n",
		       rocsparse_sdoti(handle, 3, dxv, dxi, dy, &dot,
				       rocsparse_index_base_zero));
		printf("rocsparse_destroy_handle %d\n",
		       rocsparse_destroy_handle(handle));
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
