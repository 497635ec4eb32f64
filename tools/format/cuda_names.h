/*
 * cuda_names.h - names of the codes a CUDA trace holds (cuda_names.c):
 * cudaError_t for the runtime's rows, CUresult for the driver's,
 * cudaMemcpyKind.  Each name function returns NULL for a value it does
 * not know; callers print the number.
 */
#ifndef LBTRACE_CUDA_NAMES_H
#define LBTRACE_CUDA_NAMES_H

/* cudaError_t value CODE ("cudaErrorMemoryAllocation"). */
const char *lbt_cuda_error_name(int code);

/* CUresult value CODE ("CUDA_ERROR_OUT_OF_MEMORY"). */
const char *lbt_cu_result_name(int code);

/* Entries of the CUresult table (DRIVER nonzero) or of the cudaError_t
 * table, and entry I (0-based, < the count): its value, its name in
 * *NAME.  For test_cudanames.sh. */
int lbt_cuda_error_count(int driver);
int lbt_cuda_error_at(int driver, int i, const char **name);

/* cudaMemcpyKind value KIND ("cudaMemcpyHostToDevice"). */
const char *lbt_cuda_memcpy_kind_name(unsigned kind);

/* Is API id api a row of the driver API (its row returns CUresult)? 0
 * for the runtime's rows, HIP's rows and ids out of range. */
int lbt_api_is_cu_driver(int api);

#endif
