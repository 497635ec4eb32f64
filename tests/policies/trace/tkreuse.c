/*
 * tkreuse.c - one host stub registered again and again (t_kreuse.sh), as
 * when a library is unloaded and another is loaded at its address: the
 * trace must record each launch by the kernel registered at the time,
 * in every thread, never by a plan remembered from before.  On the fake
 * runtime, with the fat binary of tkargs.hip:
 *
 *   1. the stub is mix (48 bytes in 7): launched by main, then thread B;
 *   2. the binary unregistered and registered again, the stub now a name
 *      it has no metadata for: launched by both (no KARGS record);
 *   3. the stub registered once more as scale (32 bytes in 4): both.
 *
 * Each launch passes 7 readable arguments, so that a stale plan shows as
 * a record rather than a crash.
 *
 *   tkreuse FATBIN
 *   tkreuse FATBIN race N   thread B launches the stub without a pause
 *                           while main registers it N times, by turns
 *                           as each of the three (for ThreadSanitizer)
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lbshim/hip_decls.h"
#include "lbtest.h"

static char stub;
static long argv7[7] = { 1, 2, 3, 4, 5, 6, 7 };
static void *args[7] = { &argv7[0], &argv7[1], &argv7[2], &argv7[3],
			 &argv7[4], &argv7[5], &argv7[6] };
static pthread_barrier_t bar;
static int done;

static void launch(void)
{
	dim3 g = { 1, 1, 1 }, b = { 1, 1, 1 };

	hipLaunchKernel(&stub, g, b, args, 0, NULL);
}

static void *thread_b(void *p)
{
	int i;

	(void)p;
	for (i = 0; i < 3; i++) {
		pthread_barrier_wait(&bar); /* main registered and launched */
		launch();
		pthread_barrier_wait(&bar);
	}
	return NULL;
}

static void *racer(void *p)
{
	(void)p;
	while (!__atomic_load_n(&done, __ATOMIC_ACQUIRE))
		launch();
	return NULL;
}

static void reg(lb_modules_t h, const char *name)
{
	__hipRegisterFunction(h, &stub, (char *)name, name, (unsigned)-1,
			      NULL, NULL, NULL, NULL, NULL);
}

int main(int argc, char **argv)
{
	static const char *const name[3] = { "_Z3mixhsxbdPKfPPf",
					     "_Z7nothingv",
					     "_Z5scalePffi4Pair" };
	void *fatbin = argc > 1 ? lbt_load_file(argv[1]) : NULL;
	struct {
		unsigned magic, version;
		void *binary, *dummy;
	} wrapper = { 0x48495046, 1, fatbin, NULL }; /* __hipFatMAGIC2 */
	lb_modules_t mods;
	pthread_t t;
	int i;

	if (!fatbin) {
		fprintf(stderr, "usage: tkreuse FATBIN\n");
		return 1;
	}
	mods = __hipRegisterFatBinary(&wrapper);
	if (argc > 3 && !strcmp(argv[2], "race")) {
		reg(mods, name[0]);
		if (pthread_create(&t, NULL, racer, NULL))
			return 1;
		for (i = 0; i < atoi(argv[3]); i++) {
			if (i % 50 == 49) {
				__hipUnregisterFatBinary(mods);
				mods = __hipRegisterFatBinary(&wrapper);
			}
			reg(mods, name[i % 3]);
			launch();
		}
		__atomic_store_n(&done, 1, __ATOMIC_RELEASE);
		pthread_join(t, NULL);
		return 0;
	}
	pthread_barrier_init(&bar, NULL, 2);
	if (pthread_create(&t, NULL, thread_b, NULL))
		return 1;
	for (i = 0; i < 3; i++) {
		if (i == 1) {
			__hipUnregisterFatBinary(mods);
			mods = __hipRegisterFatBinary(&wrapper);
		}
		reg(mods, name[i]);
		launch();
		pthread_barrier_wait(&bar);
		pthread_barrier_wait(&bar); /* B launched */
	}
	pthread_join(t, NULL);
	return 0;
}
