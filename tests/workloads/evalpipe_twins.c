/*
 * evalpipe_twins.c - hipemu's twins of evalpipe.hip's kernels: the same
 * arithmetic on the CPU, then a sleep so that each kernel occupies its
 * stream as long as it would on a discrete GPU.  The times model a small
 * vision encoder and a fusion filter; they are what makes the demo's
 * null-stream and hipFree waits visible:
 *
 *   preprocess 2 ms + encode 8 ms + pool_features 2 ms  (vision, 12 ms)
 *   imu_fusion 0.3 ms, sample_action 1 ms
 *
 * EVAL_KERNEL_SCALE (a float, default 1) scales them all, for quick runs.
 */
#include <errno.h>
#include <stdlib.h>
#include <time.h>
#include "hipemu.h"

static void kernel_time(long us)
{
	static double scale = -1;
	struct timespec ts;
	double ns;

	if (scale < 0) {
		const char *s = getenv("EVAL_KERNEL_SCALE");

		scale = s && *s ? atof(s) : 1;
		if (scale < 0)
			scale = 1;
	}
	ns = us * 1000.0 * scale;
	ts.tv_sec = (time_t)(ns / 1e9);
	ts.tv_nsec = (long)(ns - ts.tv_sec * 1e9);
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static unsigned long threads_of(const hipemu_launch *l)
{
	return (unsigned long)l->grid.x * l->block.x;
}

HIPEMU_ARGS(_Z10preprocessPKhPfi, sizeof(void *), sizeof(void *),
	    sizeof(int));
HIPEMU_TWIN(_Z10preprocessPKhPfi)
{
	const unsigned char *img = *(const unsigned char **)args[0];
	float *x = *(float **)args[1];
	int n = *(int *)args[2];
	unsigned long i, t = threads_of(launch);

	for (i = 0; i < t && i < (unsigned long)n; i++)
		x[i] = img[i] / 255.0f - 0.5f;
	kernel_time(2000);
}

HIPEMU_ARGS(_Z6encodePKfPfii, sizeof(void *), sizeof(void *), sizeof(int),
	    sizeof(int));
HIPEMU_TWIN(_Z6encodePKfPfii)
{
	const float *x = *(const float **)args[0];
	float *feat = *(float **)args[1];
	int n = *(int *)args[2], dim = *(int *)args[3], i, j;
	unsigned long t = threads_of(launch);

	for (j = 0; j < dim && (unsigned long)j < t; j++) {
		float s = 0;

		for (i = j; i < n; i += dim)
			s += x[i];
		feat[j] = s;
	}
	kernel_time(8000);
}

HIPEMU_ARGS(_Z13pool_featuresPKfPfi, sizeof(void *), sizeof(void *),
	    sizeof(int));
HIPEMU_TWIN(_Z13pool_featuresPKfPfi)
{
	const float *feat = *(const float **)args[0];
	float *out = *(float **)args[1];
	int dim = *(int *)args[2], j;

	for (j = 0; j < dim && (unsigned long)j < threads_of(launch); j++)
		out[j] = feat[j] > 0 ? feat[j] : 0.1f * feat[j];
	kernel_time(2000);
}

HIPEMU_ARGS(_Z10imu_fusionPKfPfi, sizeof(void *), sizeof(void *),
	    sizeof(int));
HIPEMU_TWIN(_Z10imu_fusionPKfPfi)
{
	const float *imu = *(const float **)args[0];
	float *state = *(float **)args[1];
	int n = *(int *)args[2], i;

	for (i = 0; i < n && (unsigned long)i < threads_of(launch); i++)
		state[i] = 0.9f * state[i] + 0.1f * imu[i];
	kernel_time(300);
}

#define ACT 16
#define IMU_N 64

HIPEMU_ARGS(_Z13sample_actionPKfS0_Pfi, sizeof(void *), sizeof(void *),
	    sizeof(void *), sizeof(int));
HIPEMU_TWIN(_Z13sample_actionPKfS0_Pfi)
{
	const float *feat = *(const float **)args[0];
	const float *state = *(const float **)args[1];
	float *action = *(float **)args[2];
	int dim = *(int *)args[3], a, j;

	for (a = 0; a < ACT && (unsigned long)a < threads_of(launch); a++) {
		float s = 0;

		for (j = a; j < dim; j += ACT)
			s += feat[j];
		action[a] = s * 0.01f + state[a % IMU_N];
	}
	kernel_time(1000);
}
