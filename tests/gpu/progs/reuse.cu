/*
 * reuse.cu - a block freed while its kernel still runs, reallocated at once
 * and overwritten, must not change what that kernel computes.
 *
 * Each round: cudaMalloc A, a kernel that waits (lb_spin's timer) and then
 * sums A into out[round]; cudaFree(A) at once, without a sync; cudaMalloc B
 * of the same size (a pool hands A's block back) and overwrite B with a
 * memset on a non-blocking stream.  cudaFree of the runtime synchronizes
 * (CUDA Runtime API, cudaFree: "performs an implicit device sync"); a pool
 * must fence the block itself.  Every out[round] must equal A's sum.
 *
 * usage: reuse [ROUNDS [BYTES]]   (defaults 50, 1 MiB)
 * prints: reuse: rounds=N wrong=M same_block=K
 * exit 0 iff no sum was wrong.
 */
#include "gpucommon.h"

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 50;
	size_t bytes = argc > 2 ? strtoul(argv[2], NULL, 0) : (1u << 20);
	unsigned long long *d_out, *h_out;
	cudaStream_t side;
	int r, wrong = 0, same = 0;

	if (rounds < 1 || bytes < 1) {
		fprintf(stderr, "usage: reuse [ROUNDS [BYTES]]\n");
		return 2;
	}
	CK(cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking));
	CK(cudaMalloc(&d_out, rounds * sizeof(*d_out)));
	CK(cudaMemset(d_out, 0, rounds * sizeof(*d_out)));
	h_out = (unsigned long long *)calloc(rounds, sizeof(*h_out));
	for (r = 0; r < rounds; r++) {
		unsigned char *a, *b;

		CK(cudaMalloc(&a, bytes));
		CK(cudaMemset(a, 1, bytes));
		slow_sum<<<1, 256>>>(a, bytes, 2000000, d_out + r);
		CK(cudaGetLastError());
		CK(cudaFree(a));
		CK(cudaMalloc(&b, bytes));
		same += a == b;
		CK(cudaMemsetAsync(b, 0xff, bytes, side));
		CK(cudaStreamSynchronize(side));
		CK(cudaFree(b));
	}
	CK(cudaDeviceSynchronize());
	CK(cudaMemcpy(h_out, d_out, rounds * sizeof(*d_out),
		      cudaMemcpyDeviceToHost));
	for (r = 0; r < rounds; r++)
		wrong += h_out[r] != (unsigned long long)bytes;
	printf("reuse: rounds=%d bytes=%zu wrong=%d same_block=%d\n", rounds,
	       bytes, wrong, same);
	return wrong ? 1 : 0;
}
