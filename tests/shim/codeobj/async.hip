/*
 * async.hip - a hipcc program with no argument tables: on hipemu its
 * launches must still copy their arguments (sizes from the code object's
 * metadata) and return before the kernel has run.
 *
 *   async            <<<>>> launches (registration: __hipRegisterFatBinary)
 *   async module F   the same kernels from module file F (hipcc --genco of
 *                    this file), read with hipModuleLoadData, launched
 *                    with kernelParams and with an "extra" buffer
 *
 * The twins are here (the program is linked -rdynamic).  scale's twin
 * waits until the host says its launch has returned: a synchronous launch
 * would leave it waiting, and it gives up after 30 s only so that a
 * broken hipemu fails instead of hanging.  Prints one "ok ..." line per
 * check that passed, "FAIL ..." otherwise.
 */
#include <hip/hip_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "hipemu.h"

/* pad: a member (zeroed by the initializers below), not undefined padding */
struct Pair {
	float *p;
	int n;
	int pad;
};

struct Tri {
	int x, y, z; /* 12 bytes, 4-aligned: at offset 4 after an int */
};

__global__ void scale(float *x, float a, int n, Pair pr)
{
	if (threadIdx.x < n)
		x[threadIdx.x] = x[threadIdx.x] * a + pr.p[threadIdx.x % pr.n];
}

__global__ void tri(int a, Tri t, int *out)
{
	out[0] = a + t.x + t.y + t.z;
}

__global__ void orphan(int a, int *out)
{
	out[0] = a;
}

static volatile int released;	/* the launch call has returned */
static volatile int ran;	/* scale's twin has run */
static int async_ok, args_ok;
static float *want_x, *want_p;

extern "C" {
HIPEMU_TWIN(_Z5scalePffi4Pair)
{
	struct timespec t0, t;
	float *x = *(float **)args[0];
	float a = *(float *)args[1];
	int n = *(int *)args[2];
	Pair pr = *(Pair *)args[3];

	(void)launch;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (t.tv_sec - t0.tv_sec > 30)
			break;
		sched_yield();
	} while (!__atomic_load_n(&released, __ATOMIC_ACQUIRE));
	async_ok = __atomic_load_n(&released, __ATOMIC_ACQUIRE);
	args_ok = x == want_x && a == 2.5f && n == 4 && pr.p == want_p &&
		  pr.n == 4242;
	__atomic_store_n(&ran, 1, __ATOMIC_RELEASE);
}

HIPEMU_TWIN(_Z3trii3TriPi)
{
	int a = *(int *)args[0];
	Tri t = *(Tri *)args[1];
	int *out = *(int **)args[2];

	(void)launch;
	*out = a * 1000000 + t.x * 10000 + t.y * 100 + t.z;
}
}

static int fails;

static void check(int ok, const char *what)
{
	printf("%s %s\n", ok ? "ok" : "FAIL", what);
	fails += !ok;
}

/* One asynchronous launch of scale, by go(), then its checks. */
template <typename F> static void run_scale(const char *how, F go)
{
	char what[128];

	released = ran = async_ok = args_ok = 0;
	hipError_t e = go();
	/* the launch returned: had it waited, the twin would have run */
	snprintf(what, sizeof(what), "%s: launch returned before the kernel ran",
		 how);
	check(e == hipSuccess && !__atomic_load_n(&ran, __ATOMIC_ACQUIRE),
	      what);
	__atomic_store_n(&released, 1, __ATOMIC_RELEASE);
	hipDeviceSynchronize();
	snprintf(what, sizeof(what), "%s: asynchronous", how);
	check(async_ok, what);
	snprintf(what, sizeof(what), "%s: argument values", how);
	check(args_ok, what);
}

static void *load(const char *path)
{
	FILE *f = fopen(path, "rb");
	long n;
	void *p;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	p = malloc(n);
	if (p && fread(p, 1, n, f) != (size_t)n) {
		free(p);
		p = NULL;
	}
	fclose(f);
	return p;
}

static int modules(const char *path)
{
	void *image = load(path);
	hipModule_t m;
	hipFunction_t fs, ft, fo;
	int *out, got = 0;

	check(image != NULL, "module file read");
	if (!image)
		return 1;
	check(hipModuleLoadData(&m, image) == hipSuccess, "hipModuleLoadData");
	free(image); /* the runtime keeps what it needs */
	check(hipModuleGetFunction(&fs, m, "_Z5scalePffi4Pair") == hipSuccess,
	      "scale found");
	check(hipModuleGetFunction(&ft, m, "_Z3trii3TriPi") == hipSuccess,
	      "tri found");
	check(hipModuleGetFunction(&fo, m, "_Z6orphaniPi") == hipErrorNotFound,
	      "orphan has no twin");
	hipMalloc(&want_x, 64);
	hipMalloc(&want_p, 64);
	hipMalloc(&out, sizeof(int));
	run_scale("module kernelParams", [&]() {
		float *x = want_x;
		float a = 2.5f;
		int n = 4;
		Pair pr = { want_p, 4242 };
		void *kp[] = { &x, &a, &n, &pr };

		return hipModuleLaunchKernel(fs, 1, 1, 1, 1, 1, 1, 0, 0, kp,
					     NULL);
	});
	run_scale("module extra", [&]() {
		struct {
			float *x;
			float a;
			int n;
			Pair pr;
		} buf = { want_x, 2.5f, 4, { want_p, 4242 } };
		size_t sz = sizeof(buf);
		void *extra[] = { HIP_LAUNCH_PARAM_BUFFER_POINTER, &buf,
				  HIP_LAUNCH_PARAM_BUFFER_SIZE, &sz,
				  HIP_LAUNCH_PARAM_END };

		return hipModuleLaunchKernel(fs, 1, 1, 1, 1, 1, 1, 0, 0, NULL,
					     extra);
	});
	{
		/* the kernarg layout: Tri at offset 4, out at 16 */
		unsigned char buf[24] = { 0 };
		int a = 7;
		Tri t = { 11, 22, 33 };
		size_t sz = sizeof(buf);
		void *extra[] = { HIP_LAUNCH_PARAM_BUFFER_POINTER, buf,
				  HIP_LAUNCH_PARAM_BUFFER_SIZE, &sz,
				  HIP_LAUNCH_PARAM_END };

		memcpy(buf, &a, 4);
		memcpy(buf + 4, &t, 12);
		memcpy(buf + 16, &out, 8);
		check(hipModuleLaunchKernel(ft, 1, 1, 1, 1, 1, 1, 0, 0, NULL,
					    extra) == hipSuccess,
		      "tri launched");
		hipDeviceSynchronize();
		hipMemcpy(&got, out, sizeof(int), hipMemcpyDeviceToHost);
		check(got == 7112233, "tri: extra buffer split at the "
				      "metadata's offsets");
	}
	hipModuleUnload(m);
	return fails != 0;
}

int main(int argc, char **argv)
{
	int *out;

	if (argc > 2 && !strcmp(argv[1], "module"))
		return modules(argv[2]);
	hipMalloc(&want_x, 64);
	hipMalloc(&want_p, 64);
	hipMalloc(&out, sizeof(int));
	run_scale("<<<>>>", [&]() {
		Pair pr = { want_p, 4242 };

		scale<<<1, 1>>>(want_x, 2.5f, 4, pr);
		return hipGetLastError();
	});
	/* a kernel without a twin fails, and is named once */
	orphan<<<1, 1>>>(1, out);
	check(hipGetLastError() == hipErrorInvalidDeviceFunction,
	      "orphan fails");
	orphan<<<1, 1>>>(2, out);
	check(hipGetLastError() == hipErrorInvalidDeviceFunction,
	      "orphan fails again");
	return fails != 0;
}
