/*
 * tprog.c - the program the trace tests run, with or without the shim.
 *
 *   tprog calls               a fixed sequence of calls (prints handles)
 *   tprog loop N              N hipMemset(p, i, i) calls on one thread
 *   tprog threads T N         T threads, each N hipMemset(p, i, i)
 *   tprog crash MODE N        N calls, then MODE: segv, segv-thread, abort,
 *                             overflow, fpe, kill, inrt (inside the
 *                             runtime), segv-handled (a
 *                             SIGSEGV handler of its own exits 3),
 *                             segv-altstack (the same handler on an
 *                             alternate stack of the program's, of
 *                             TPROG_ALTSTACK bytes, 16384 if unset, with
 *                             a guard page below: the handler prints how
 *                             much of it was ever used), memcpy
 *                             (inside libc's memcpy), stripped (inside a
 *                             static function of the stripped library
 *                             TPROG_STRIPLIB)
 *   tprog fork                calls before and after a fork, in both
 *   tprog forkstress          20 forks while 4 threads make calls
 *   tprog live                hipMalloc + hipMemcpy(DtoH, 4000000)
 *   tprog idle MS             one call, then MS milliseconds asleep
 *   tprog paced MS            100 calls a millisecond for MS milliseconds
 *                             (prints "calls N")
 *   tprog badnames            registration and load with bad name pointers
 *   tprog async               hipMemsetAsync + hipStreamSynchronize on 0
 */
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include "lbshim/hip_decls.h"

static void loop(long n, uintptr_t tag)
{
	long i;

	for (i = 0; i < n; i++)
		hipMemset((void *)tag, (int)i, (size_t)i);
}

struct targ {
	long n;
	uintptr_t tag;
};

static void *thread_main(void *p)
{
	struct targ *a = p;

	loop(a->n, a->tag);
	return NULL;
}

static void stub_a(void)
{
}

static void stub_b(void)
{
}

static int do_calls(void)
{
	static char host[4096], image[16];
	void *d = NULL, *x = NULL;
	hipStream_t s = NULL;
	hipModule_t m = NULL;
	hipFunction_t f = NULL;
	lb_modules_t mods;
	dim3 g = { 2, 3, 4 }, b = { 64, 1, 1 };
	int dev = -1;

	printf("pid=%d\n", (int)getpid());
	hipSetDevice(0);
	hipMalloc(&d, 4096);
	printf("d=%p\n", d);
	printf("oom=%d\n", (int)hipMalloc(&x, 1ull << 41));
	hipStreamCreate(&s);
	printf("s=%p\n", s);
	hipMemcpyAsync(d, host, 4096, hipMemcpyHostToDevice, s);
	hipMemset(d, 7, 100);
	mods = __hipRegisterFatBinary(image);
	__hipRegisterFunction(mods, (const void *)stub_a, "_Z7kernelAv",
			      "_Z7kernelAv", (unsigned)-1, NULL, NULL, NULL,
			      NULL, NULL);
	hipLaunchKernel((const void *)stub_a, g, b, NULL, 128, s);
	hipLaunchKernel((const void *)stub_a, g, b, NULL, 128, s);
	hipLaunchKernel((const void *)stub_b, g, b, NULL, 0, 0);
	hipModuleLoadData(&m, image);
	hipModuleGetFunction(&f, m, "modkern");
	printf("f=%p\n", (void *)f);
	hipModuleLaunchKernel(f, 5, 6, 7, 8, 9, 10, 0, 0, NULL, NULL);
	hipSetDevice(2);
	hipDeviceSynchronize();
	hipGetDevice(&dev);
	hipStreamDestroy(s);
	hipFree(d);
	return 0;
}

static volatile int zero;
static volatile size_t copy_len = 6;

/* Calls tstrip_fault(16) of the library TPROG_STRIPLIB names. */
static void strip_fault(void)
{
	const char *lib = getenv("TPROG_STRIPLIB");
	void *h = lib ? dlopen(lib, RTLD_NOW) : NULL;
	void (*f)(uintptr_t) = h ? (void (*)(uintptr_t))dlsym(h, "tstrip_fault")
				 : NULL;

	if (!f) {
		fprintf(stderr, "tprog: TPROG_STRIPLIB: %s\n", dlerror());
		exit(4);
	}
	f(16);
}

static __attribute__((noinline)) void crash_here(const char *mode)
{
	if (!strcmp(mode, "segv") || !strcmp(mode, "segv-thread"))
		*(volatile int *)(uintptr_t)16 = 1;
	else if (!strcmp(mode, "abort"))
		abort();
	else if (!strcmp(mode, "fpe"))
		printf("%d\n", 100 / zero);
	else if (!strcmp(mode, "kill"))
		raise(SIGKILL);
	else if (!strcmp(mode, "inrt")) /* a crash inside the runtime */
		hipMemset((void *)(uintptr_t)0xdead0000u, 42, 8);
	else if (!strcmp(mode, "memcpy")) /* a size not known: libc's */
		memcpy((void *)(uintptr_t)16, mode, copy_len);
	else if (!strcmp(mode, "stripped"))
		strip_fault();
}

static __attribute__((noinline)) int recurse(int n)
{
	volatile char pad[256];

	pad[0] = (char)n;
	if (n < 0) /* never: keeps the compiler from calling it endless */
		return 0;
	return recurse(n + 1) + pad[0];
}

struct cargs {
	const char *mode;
	long n;
};

static void *crash_thread(void *p)
{
	struct cargs *c = p;

	loop(c->n, 2);
	crash_here(c->mode);
	return NULL;
}

static void own_handler(int sig)
{
	static const char msg[] = "own handler\n";

	(void)sig;
	if (write(1, msg, sizeof(msg) - 1) < 0)
		_exit(4);
	_exit(3);
}

/* The program's own alternate stack, filled with a pattern. */
static unsigned char *alt_lo;
static size_t alt_size;

static void alt_handler(int sig)
{
	char msg[64];
	size_t used = alt_size, i;
	int len;

	(void)sig;
	/* formatted once before measuring, so that what snprintf needs (and
	 * the binding of its symbol, made lazily on first use) is counted */
	len = snprintf(msg, sizeof(msg), "altstack used %zu of %zu\n", used,
		       alt_size);
	for (i = 0; i < alt_size && alt_lo[i] == 0xa5; i++)
		used--;
	len = snprintf(msg, sizeof(msg), "altstack used %zu of %zu\n", used,
		       alt_size);
	if (write(1, msg, (size_t)len) < 0)
		_exit(4);
	_exit(3);
}

static void own_altstack(void)
{
	const char *e = getenv("TPROG_ALTSTACK");
	struct sigaction sa;
	stack_t ss;
	unsigned char *m;

	alt_size = e ? (size_t)atol(e) : 16384;
	m = mmap(NULL, alt_size + 4096, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED || mprotect(m, 4096, PROT_NONE)) {
		perror("tprog: altstack");
		exit(5);
	}
	alt_lo = m + 4096;
	memset(alt_lo, 0xa5, alt_size);
	memset(&ss, 0, sizeof(ss));
	ss.ss_sp = alt_lo;
	ss.ss_size = alt_size;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = alt_handler;
	sa.sa_flags = SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	if (sigaltstack(&ss, NULL) || sigaction(SIGSEGV, &sa, NULL)) {
		perror("tprog: altstack");
		exit(5);
	}
}

static int do_crash(const char *mode, long n)
{
	struct cargs c = { mode, n };
	pthread_t t;

	if (!strcmp(mode, "segv-altstack")) {
		own_altstack(); /* before the first HIP call, like faulthandler */
		mode = "segv";
	}
	if (!strcmp(mode, "segv-handled")) {
		signal(SIGSEGV, own_handler); /* before the first HIP call */
		mode = "segv";
	}

	if (!strcmp(mode, "segv-thread")) {
		hipDeviceSynchronize(); /* the main thread uses HIP too */
		pthread_create(&t, NULL, crash_thread, &c);
		pthread_join(t, NULL);
		return 0;
	}
	loop(n, 1);
	if (!strcmp(mode, "overflow"))
		return recurse(0);
	crash_here(mode);
	return 0;
}

/* Children forked while 4 threads trace: each child its own 100 calls. */
static int do_forkstress(void)
{
	pthread_t t[4];
	struct targ a[4];
	int i, st, bad = 0;

	for (i = 0; i < 4; i++) {
		a[i].n = 200000;
		a[i].tag = (uintptr_t)(i + 1);
		pthread_create(&t[i], NULL, thread_main, &a[i]);
	}
	for (i = 0; i < 20; i++) {
		pid_t pid;

		fflush(stdout);
		pid = fork();
		if (pid == 0) {
			loop(100, 0x100);
			_exit(0);
		}
		if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) ||
		    WEXITSTATUS(st))
			bad = 1;
	}
	for (i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	return bad;
}

static int do_fork(void)
{
	pid_t pid;
	int st;

	loop(3, 1);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		printf("child=%d\n", (int)getpid());
		loop(5, 100);
		fflush(stdout);
		_exit(0);
	}
	waitpid(pid, &st, 0);
	loop(2, 1);
	printf("parent=%d\n", (int)getpid());
	return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc >= 2 && !strcmp(argv[1], "calls"))
		return do_calls();
	if (argc >= 3 && !strcmp(argv[1], "loop")) {
		loop(atol(argv[2]), 1);
		return 0;
	}
	if (argc >= 4 && !strcmp(argv[1], "threads")) {
		int nt = atoi(argv[2]), i;
		pthread_t t[64];
		struct targ a[64];

		for (i = 0; i < nt && i < 64; i++) {
			a[i].n = atol(argv[3]);
			a[i].tag = (uintptr_t)(i + 1);
			pthread_create(&t[i], NULL, thread_main, &a[i]);
		}
		for (i = 0; i < nt && i < 64; i++)
			pthread_join(t[i], NULL);
		return 0;
	}
	if (argc >= 4 && !strcmp(argv[1], "crash"))
		return do_crash(argv[2], atol(argv[3]));
	if (argc >= 3 && !strcmp(argv[1], "idle")) {
		hipDeviceSynchronize();
		usleep((useconds_t)atol(argv[2]) * 1000);
		return 0;
	}
	if (argc >= 3 && !strcmp(argv[1], "paced")) {
		long ms = atol(argv[2]), i;

		for (i = 0; i < ms; i++) {
			loop(100, 1);
			usleep(1000);
		}
		printf("calls %ld\n", ms * 100);
		return 0;
	}
	if (argc >= 2 && !strcmp(argv[1], "badnames")) {
		/* Strings the (fake) runtime never reads: the shim must not. */
		static char image[16];
		lb_modules_t mods = __hipRegisterFatBinary(image);
		hipModule_t m = NULL;
		dim3 g = { 1, 1, 1 };

		__hipRegisterFunction(mods, (const void *)stub_b,
				      (char *)(uintptr_t)8,
				      (const char *)(uintptr_t)0x10,
				      (unsigned)-1, NULL, NULL, NULL, NULL,
				      NULL);
		hipLaunchKernel((const void *)stub_b, g, g, NULL, 0, 0);
		printf("load=%d\n", (int)hipModuleLoad(&m, (const char *)8));
		return 0;
	}
	if (argc >= 2 && !strcmp(argv[1], "async")) {
		/* Null-stream work, for stream0 under the trace (on hipemu). */
		void *d = NULL;

		if (hipMalloc(&d, 64) || hipMemsetAsync(d, 1, 64, 0) ||
		    hipStreamSynchronize(0) || hipFree(d))
			return 2;
		return 0;
	}
	if (argc >= 2 && !strcmp(argv[1], "procaddr")) {
		/*
		 * Each function takes a name (a STRING record) and has a
		 * result; found by name, as the runtime under the tests may
		 * lack them (the shim's wrappers answer then).
		 */
		typedef hipError_t (*pa_fn)(const char *, void **, int,
					    uint64_t, void *);
		typedef hipError_t (*de_fn)(const char *, void **,
					    unsigned long long, void *);
		pa_fn pa = (pa_fn)dlsym(RTLD_DEFAULT, "hipGetProcAddress");
		pa_fn pas = (pa_fn)dlsym(RTLD_DEFAULT, "hipGetProcAddress_spt");
		de_fn de = (de_fn)dlsym(RTLD_DEFAULT, "hipGetDriverEntryPoint");
		de_fn des = (de_fn)dlsym(RTLD_DEFAULT,
					 "hipGetDriverEntryPoint_spt");
		void *fn = NULL;

		if (!pa || !pas || !de || !des)
			return 2;
		printf("%d %d %d %d\n", (int)pa("hipMalloc", &fn, 60100, 0, NULL),
		       (int)pas("hipFree", &fn, 60100, 0, NULL),
		       (int)de("hipMalloc", &fn, 0, NULL),
		       (int)des("hipFree", &fn, 0, NULL));
		return 0;
	}
	if (argc >= 2 && !strcmp(argv[1], "forkstress"))
		return do_forkstress();
	if (argc >= 2 && !strcmp(argv[1], "fork"))
		return do_fork();
	if (argc >= 2 && !strcmp(argv[1], "live")) {
		void *d = NULL;
		static char h[4000000];

		hipMalloc(&d, 4000000);
		hipMemcpy(h, d, 4000000, hipMemcpyDeviceToHost);
		return 0;
	}
	fprintf(stderr, "usage: tprog calls|loop|threads|crash|fork|live\n");
	return 1;
}
