/*
 * pool_bench.c - allocation speed and fragmentation, printed by
 * tests/policies/pool/bench.sh (never asserted).
 *
 *   pool_bench pair N            N hipMalloc+hipFree pairs, one thread
 *   pool_bench mt THREADS N      the same on THREADS threads at once
 *   pool_bench replay FORWARDS   the allocation sequence of a small
 *                                transformer's inference, dynamic lengths
 *
 * Each prints one line "key=value ..." that the script reads.
 */
#include "pool_common.h"

int pt_failed;
hipFunction_t pt_f_sum, pt_f_nop;

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void bench_pair(long n)
{
	uint64_t t0, t1;
	void *p;
	long i;

	for (i = 0; i < 100; i++) { /* warm: chunk and caches */
		PT_OK(hipMalloc(&p, 4096));
		PT_OK(hipFree(p));
	}
	t0 = pt_now_ns();
	for (i = 0; i < n; i++) {
		PT_OK(hipMalloc(&p, 4096));
		PT_OK(hipFree(p));
	}
	t1 = pt_now_ns();
	printf("pair n=%ld ns_per_pair=%.1f\n", n, (double)(t1 - t0) / n);
}

#define MT_BATCH 1000
static long mt_n;
static double *mt_samples;
static int mt_nsamples;
static pthread_barrier_t mt_bar;

static void *mt_main(void *arg)
{
	int id = (int)(intptr_t)arg, k = 0;
	long i, j;
	void *p;

	PT_OK(hipMalloc(&p, 4096 + 256 * id));
	PT_OK(hipFree(p));
	pthread_barrier_wait(&mt_bar);
	for (i = 0; i < mt_n; i += MT_BATCH) {
		uint64_t t0 = pt_now_ns();

		for (j = 0; j < MT_BATCH; j++) {
			PT_OK(hipMalloc(&p, 4096 + 256 * id));
			PT_OK(hipFree(p));
		}
		mt_samples[id * (mt_n / MT_BATCH) + k++] =
			(double)(pt_now_ns() - t0) / MT_BATCH;
	}
	return NULL;
}

static void bench_mt(int nt, long n)
{
	pthread_t t[64];
	double mean = 0;
	int i;

	if (nt > 64)
		nt = 64;
	mt_n = n / MT_BATCH * MT_BATCH;
	if (!mt_n)
		mt_n = MT_BATCH;
	mt_nsamples = nt * (int)(mt_n / MT_BATCH);
	mt_samples = calloc(mt_nsamples, sizeof(double));
	pthread_barrier_init(&mt_bar, NULL, nt);
	for (i = 0; i < nt; i++)
		pthread_create(&t[i], NULL, mt_main, (void *)(intptr_t)i);
	for (i = 0; i < nt; i++)
		pthread_join(t[i], NULL);
	qsort(mt_samples, mt_nsamples, sizeof(double), cmp_double);
	for (i = 0; i < mt_nsamples; i++)
		mean += mt_samples[i] / mt_nsamples;
	printf("mt threads=%d n=%ld median_ns_per_pair=%.1f p90=%.1f "
	       "mean=%.1f\n",
	       nt, mt_n, mt_samples[mt_nsamples / 2],
	       mt_samples[mt_nsamples * 9 / 10], mean);
}

/* ---- replay ---- */

static size_t rp_live, rp_peak;

static void *rp_alloc(size_t n)
{
	void *p;

	PT_OK(hipMalloc(&p, n));
	rp_live += n;
	if (rp_live > rp_peak)
		rp_peak = rp_live;
	return p;
}

static void rp_free(void *p, size_t n)
{
	PT_OK(hipFree(p));
	rp_live -= n;
}

/*
 * One encoder layer, as PyTorch's eager mode allocates it: each op's
 * output when the op runs, each input freed when its last use is done.
 */
static void *rp_layer(void *x, int b, int s, int h, int heads)
{
	size_t act = (size_t)b * s * h * 4, att = (size_t)b * heads * s * s * 4;
	size_t ffn = act * 4, stat = (size_t)b * s * 4 * 2;
	void *q, *k, *v, *sc, *pr, *ctx, *o, *ln, *st, *f1, *g, *f2, *y;

	q = rp_alloc(act);
	k = rp_alloc(act);
	v = rp_alloc(act);
	sc = rp_alloc(att);
	rp_free(q, act);
	rp_free(k, act);
	pr = rp_alloc(att);
	rp_free(sc, att);
	ctx = rp_alloc(act);
	rp_free(pr, att);
	rp_free(v, act);
	o = rp_alloc(act);
	rp_free(ctx, act);
	st = rp_alloc(stat);
	ln = rp_alloc(act);
	rp_free(st, stat);
	rp_free(o, act);
	rp_free(x, act);
	f1 = rp_alloc(ffn);
	g = rp_alloc(ffn);
	rp_free(f1, ffn);
	f2 = rp_alloc(act);
	rp_free(g, ffn);
	st = rp_alloc(stat);
	y = rp_alloc(act);
	rp_free(st, stat);
	rp_free(f2, act);
	rp_free(ln, act);
	return y;
}

static void bench_replay(int forwards)
{
	static const int lens[] = { 128, 64, 96, 128, 80, 112, 48, 128 };
	const int b = 4, h = 256, heads = 4, layers = 12;
	void *w[layers * 4];
	size_t wsz[4] = { (size_t)h * h * 4 * 3, (size_t)h * h * 4,
			  (size_t)h * h * 4 * 4, (size_t)h * h * 4 * 4 };
	uint64_t t0, t1;
	int f, l, i;

	for (l = 0; l < layers; l++) /* weights: once, kept */
		for (i = 0; i < 4; i++)
			w[l * 4 + i] = rp_alloc(wsz[i]);
	t0 = pt_now_ns();
	for (f = 0; f < forwards; f++) {
		int s = lens[f % 8];
		size_t act = (size_t)b * s * h * 4;
		void *x = rp_alloc(act), *mask = rp_alloc((size_t)b * s * 4);

		for (l = 0; l < layers; l++)
			x = rp_layer(x, b, s, h, heads);
		rp_free(mask, (size_t)b * s * 4);
		rp_free(x, act);
	}
	t1 = pt_now_ns();
	for (l = 0; l < layers * 4; l++)
		rp_free(w[l], wsz[l % 4]);
	printf("replay forwards=%d us_per_forward=%.1f peak_live_bytes=%zu\n",
	       forwards, (double)(t1 - t0) / 1000.0 / forwards, rp_peak);
}

int main(int argc, char **argv)
{
	const char *m = argc > 1 ? argv[1] : "";

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(m, "pair") && argc > 2)
		bench_pair(atol(argv[2]));
	else if (!strcmp(m, "mt") && argc > 3)
		bench_mt(atoi(argv[2]), atol(argv[3]));
	else if (!strcmp(m, "replay") && argc > 2)
		bench_replay(atoi(argv[2]));
	else
		return fprintf(stderr, "usage: see pool_bench.c\n"), 2;
	return pt_failed;
}
