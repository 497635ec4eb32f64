/*
 * twothread.cu - the seed's two-thread case on CUDA: a "camera" thread
 * keeps the GPU busy with long kernels on the legacy default stream, an
 * "imu" thread launches a tiny kernel on it every 5 ms and waits for it
 * with cudaStreamSynchronize(0) (torch.cuda.current_stream().synchronize()).
 *
 * On the legacy stream the IMU's kernel and sync queue behind the camera's
 * kernels; lbshim's stream0 gives each thread its own stream.  Built with
 * the shared and the static cudart (nvcc's default): the static one's
 * runtime calls cannot be interposed, its driver calls can.
 *
 * usage: twothread [IMU_STEPS [CAMERA_KERNEL_MS]]   (defaults 100, 20)
 * prints: twothread: imu_sync_total_ms=.. imu_sync_p50_ms=.. ..
 * exit 0 iff both threads' counters are right.
 */
#include "gpucommon.h"
#include <pthread.h>
#include <sys/prctl.h>
#include <unistd.h>

static int imu_steps = 100;
static double cam_ms = 20;
static volatile int imu_done;
static int *d_cam, *d_imu;
static int cam_frames;
static double *imu_sync;

__global__ void imu_step(int *c)
{
	atomicAdd(c, 1);
}

static void *camera(void *arg)
{
	(void)arg;
	prctl(PR_SET_NAME, "camera", 0, 0, 0);
	while (!imu_done) {
		lb_spin<<<1, 1>>>((long long)(cam_ms * 1e6), d_cam);
		CK(cudaGetLastError());
		CK(cudaStreamSynchronize(0));
		cam_frames++;
	}
	return NULL;
}

static void *imu(void *arg)
{
	int i;

	(void)arg;
	prctl(PR_SET_NAME, "imu", 0, 0, 0);
	for (i = 0; i < imu_steps; i++) {
		double t0;

		usleep(5000);
		imu_step<<<1, 1>>>(d_imu);
		CK(cudaGetLastError());
		t0 = now_ms();
		CK(cudaStreamSynchronize(0));
		imu_sync[i] = now_ms() - t0;
	}
	imu_done = 1;
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t c, m;
	int h_cam, h_imu, i;
	double total = 0, wall;

	if (argc > 1)
		imu_steps = atoi(argv[1]);
	if (argc > 2)
		cam_ms = atof(argv[2]);
	if (imu_steps < 1 || cam_ms <= 0) {
		fprintf(stderr, "usage: twothread [IMU_STEPS [CAMERA_KERNEL_MS]]\n");
		return 2;
	}
	imu_sync = (double *)calloc(imu_steps, sizeof(*imu_sync));
	CK(cudaMalloc(&d_cam, sizeof(int)));
	CK(cudaMalloc(&d_imu, sizeof(int)));
	CK(cudaMemset(d_cam, 0, sizeof(int)));
	CK(cudaMemset(d_imu, 0, sizeof(int)));
	CK(cudaDeviceSynchronize());
	wall = now_ms();
	pthread_create(&c, NULL, camera, NULL);
	pthread_create(&m, NULL, imu, NULL);
	pthread_join(m, NULL);
	pthread_join(c, NULL);
	wall = now_ms() - wall;
	CK(cudaMemcpy(&h_cam, d_cam, sizeof(int), cudaMemcpyDeviceToHost));
	CK(cudaMemcpy(&h_imu, d_imu, sizeof(int), cudaMemcpyDeviceToHost));
	for (i = 0; i < imu_steps; i++)
		total += imu_sync[i];
	printf("twothread: imu_steps=%d cam_frames=%d imu_sync_total_ms=%.3f "
	       "imu_sync_p50_ms=%.4f imu_sync_p99_ms=%.4f wall_ms=%.1f "
	       "imu_ok=%d cam_ok=%d\n", imu_steps, cam_frames, total,
	       pct(imu_sync, imu_steps, 50), pct(imu_sync, imu_steps, 99),
	       wall, h_imu == imu_steps, h_cam == cam_frames);
	return h_imu == imu_steps && h_cam == cam_frames ? 0 : 1;
}
