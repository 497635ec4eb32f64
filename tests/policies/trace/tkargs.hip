/*
 * tkargs.hip - kernels taking every sort of argument the trace records
 * (t_kargs.sh): pointers (to pointers, to const), float, int, the other
 * built-in scalars, a struct, an array in a struct, a template, and a
 * block of 96 bytes that the record cuts at 56.  Each is launched once
 * with <<<>>> on hipemu (twins below; the program is linked -rdynamic);
 * the pointers handed over are printed, one "name=0x..." line each, for
 * the test to compare with the trace.  "tkargs N" then launches scale N
 * more times, with n = 0 .. N-1 (a ring that wraps).  "tkargs gaps N"
 * launches instead, N times: big (1 to 3 times) with no zero byte in its
 * recorded arguments but their one gap, mix and fill<int> (layouts with
 * gaps and a short end), and mix again with an empty grid (a launch that
 * fails): their records must show 0 in the gaps and past the end
 * whatever the slot or the stack held before (t_kgaps.sh).
 */
#include <hip/hip_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hipemu.h"

/*
 * pad is a member, not padding: the kernel stub's by-value copy of a
 * struct leaves padding undefined (x86-64: the upper half of the second
 * register of the pair), so a test of the recorded bytes needs none.
 */
struct Pair {
	float *p;
	int n;
	int pad;
};

struct Arr {
	int a[5];
};

struct Big {
	long v[11]; /* 88 bytes: with the int before it, past 56 */
};

__global__ void scale(float *x, float a, int n, Pair pr)
{
	x[0] = a * n + pr.p[0];
}

__global__ void arr(Arr a, int *o)
{
	o[0] = a.a[4];
}

template <typename T> __global__ void fill(T *x, T v)
{
	x[0] = v;
}

__global__ void mix(unsigned char c, short h, long long l, bool b, double d,
		    const float *__restrict__ in, float **pp)
{
	pp[0][0] = in[0] + c + h + l + b + d;
}

__global__ void big(int first, Big b, int last)
{
	(void)first, (void)b, (void)last;
}

extern "C" {
/* hipemu runs these for the kernels above; the values are the trace's
 * business, so they do nothing. */
HIPEMU_TWIN(_Z5scalePffi4Pair) { (void)launch, (void)args; }
HIPEMU_TWIN(_Z3arr3ArrPi) { (void)launch, (void)args; }
HIPEMU_TWIN(_Z4fillIdEvPT_S0_) { (void)launch, (void)args; }
HIPEMU_TWIN(_Z4fillIiEvPT_S0_) { (void)launch, (void)args; }
HIPEMU_TWIN(_Z3mixhsxbdPKfPPf) { (void)launch, (void)args; }
HIPEMU_TWIN(_Z3bigi3Bigi) { (void)launch, (void)args; }
}

int main(int argc, char **argv)
{
	float *x, *p, *in, **pp;
	double *xd;
	int *xi, *o;
	Pair pr;
	Arr a;
	Big b;

	hipMalloc(&x, 64);
	hipMalloc(&p, 64);
	hipMalloc(&xd, 64);
	hipMalloc(&xi, 64);
	hipMalloc(&o, 64);
	hipMalloc(&in, 64);
	hipMalloc(&pp, 64);
	printf("x=%p\np=%p\nxd=%p\nxi=%p\no=%p\nin=%p\npp=%p\n", (void *)x,
	       (void *)p, (void *)xd, (void *)xi, (void *)o, (void *)in,
	       (void *)pp);
	memset(&pr, 0, sizeof(pr)); /* the padding too: it is recorded */
	pr.p = p;
	pr.n = 4242;
	scale<<<1, 1>>>(x, 2.5f, 4, pr);
	for (int i = 0; i < 5; i++)
		a.a[i] = (i + 1) * 11;
	arr<<<1, 1>>>(a, o);
	fill<double><<<1, 1>>>(xd, 0.1);
	fill<int><<<1, 1>>>(xi, -7);
	mix<<<1, 1>>>(200, -3, -5000000000ll, true, -1.5e300, in, pp);
	for (int i = 0; i < 11; i++)
		b.v[i] = i;
	big<<<1, 1>>>(1, b, 2);
	if (argc > 2 && !strcmp(argv[1], "gaps")) {
		for (int i = 0; i < 11; i++)
			b.v[i] = (long)(0x8877665544332211ull + 0x0101u * i);
		for (int i = 0; i < atoi(argv[2]); i++) {
			/* 1 to 3 of big: every slot of a ring sees each */
			for (int j = 0; j <= i % 3; j++)
				big<<<1, 1>>>(-1 - i, b, 0x7eadbeef);
			mix<<<1, 1>>>(200, -3, -5000000000ll, true, -1.5e300,
				      in, pp);
			fill<int><<<1, 1>>>(xi, -7);
			mix<<<0, 1>>>(201, -4, -5000000001ll, true, -2.5e300,
				      in, pp);
		}
		hipGetLastError(); /* the empty grid's */
	}
	for (int i = 0; argc == 2 && i < atoi(argv[1]); i++)
		scale<<<1, 1>>>(x, 0.5f, i, pr);
	return hipDeviceSynchronize() != hipSuccess;
}
