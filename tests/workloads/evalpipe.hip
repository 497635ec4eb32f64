// evalpipe.hip - the device side of the demo's embodied-evaluation
// pipeline, as a Python extension module (import evalpipe), written the
// way a quick research extension is: everything on the null stream,
// scratch buffers allocated and freed every step, a synchronize of the
// null stream wherever a result is needed (what
// torch.cuda.current_stream().synchronize() becomes on PyTorch's default
// stream; torch.cuda.synchronize() is hipDeviceSynchronize).  Built by
// hipcc; links libamdhip64.so.5 like PyTorch's extensions, and Python
// loads it RTLD_LOCAL.  Every HIP call runs with
// the GIL released so that the Python threads really overlap.
//
// On hipemu the kernels run as the C twins in evalpipe_twins.c, which
// take the time a discrete GPU would (DEVELOPING.md, "What the demo runs on").
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <hip/hip_runtime.h>
#include <pthread.h>
#include <string.h>

#define IMG_W 320
#define IMG_H 240
#define FEAT 512
#define IMU_N 64
#define ACT 16

__global__ void preprocess(const unsigned char *img, float *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] = img[i] / 255.0f - 0.5f;
}

__global__ void encode(const float *x, float *feat, int n, int dim)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	if (j < dim) {
		float s = 0;
		for (int i = j; i < n; i += dim)
			s += x[i];
		feat[j] = s;
	}
}

__global__ void pool_features(const float *feat, float *out, int dim)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	if (j < dim)
		out[j] = feat[j] > 0 ? feat[j] : 0.1f * feat[j];
}

__global__ void imu_fusion(const float *imu, float *state, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		state[i] = 0.9f * state[i] + 0.1f * imu[i];
}

__global__ void sample_action(const float *feat, const float *state,
			      float *action, int dim)
{
	int a = blockIdx.x * blockDim.x + threadIdx.x;
	if (a < ACT) {
		float s = 0;
		for (int j = a; j < dim; j += ACT)
			s += feat[j];
		action[a] = s * 0.01f + state[a % IMU_N];
	}
}

// The pipeline's shared state: latest features and IMU state on the host.
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static float latest_feat[FEAT], latest_state[IMU_N];
static float *dev_state; // persistent IMU state on the device

#define TRY(call)                                  \
	do {                                       \
		hipError_t e_ = (call);            \
		if (e_ != hipSuccess && !err)      \
			err = e_;                  \
	} while (0)

static PyObject *fail(hipError_t err, const char *what)
{
	PyErr_Format(PyExc_RuntimeError, "%s: %s", what, hipGetErrorName(err));
	return NULL;
}

static PyObject *init(PyObject *, PyObject *)
{
	hipError_t err = hipSuccess;

	Py_BEGIN_ALLOW_THREADS
	TRY(hipSetDevice(0));
	TRY(hipMalloc((void **)&dev_state, IMU_N * sizeof(float)));
	TRY(hipMemset(dev_state, 0, IMU_N * sizeof(float)));
	TRY(hipDeviceSynchronize());
	Py_END_ALLOW_THREADS
	if (err)
		return fail(err, "init");
	Py_RETURN_NONE;
}

static PyObject *set_thread_name(PyObject *, PyObject *args)
{
	const char *name;

	if (!PyArg_ParseTuple(args, "s", &name))
		return NULL;
	pthread_setname_np(pthread_self(), name);
	Py_RETURN_NONE;
}

// One camera frame: upload, preprocess -> encode -> pool, download.
static PyObject *camera_step(PyObject *, PyObject *args)
{
	static unsigned char frame[IMG_W * IMG_H];
	hipError_t err = hipSuccess;
	unsigned char *img = NULL;
	float *x = NULL, *feat = NULL, *out = NULL, host[FEAT];
	int n = IMG_W * IMG_H, seed;

	if (!PyArg_ParseTuple(args, "i", &seed))
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	for (int i = 0; i < n; i += 97)
		frame[i] = (unsigned char)(seed + i);
	TRY(hipMalloc((void **)&img, n));
	TRY(hipMalloc((void **)&x, n * sizeof(float)));
	TRY(hipMalloc((void **)&feat, FEAT * sizeof(float)));
	TRY(hipMalloc((void **)&out, FEAT * sizeof(float)));
	TRY(hipMemcpyAsync(img, frame, n, hipMemcpyHostToDevice, 0));
	preprocess<<<(n + 255) / 256, 256>>>(img, x, n);
	TRY(hipGetLastError());
	encode<<<FEAT / 128, 128>>>(x, feat, n, FEAT);
	TRY(hipGetLastError());
	pool_features<<<FEAT / 128, 128>>>(feat, out, FEAT);
	TRY(hipGetLastError());
	TRY(hipMemcpy(host, out, sizeof(host), hipMemcpyDeviceToHost));
	TRY(hipFree(img));
	TRY(hipFree(x));
	TRY(hipFree(feat));
	TRY(hipFree(out));
	pthread_mutex_lock(&lock);
	memcpy(latest_feat, host, sizeof(host));
	pthread_mutex_unlock(&lock);
	Py_END_ALLOW_THREADS
	if (err)
		return fail(err, "camera_step");
	return PyFloat_FromDouble(host[0]);
}

// One IMU sample: upload, fuse into the state, synchronize, read back.
static PyObject *imu_step(PyObject *, PyObject *args)
{
	hipError_t err = hipSuccess;
	float sample[IMU_N], state[IMU_N], *d = NULL;
	int seed;

	if (!PyArg_ParseTuple(args, "i", &seed))
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	for (int i = 0; i < IMU_N; i++)
		sample[i] = (float)((seed + i) % 17) / 17.0f;
	TRY(hipMalloc((void **)&d, sizeof(sample)));
	TRY(hipMemcpyAsync(d, sample, sizeof(sample), hipMemcpyHostToDevice, 0));
	imu_fusion<<<1, IMU_N>>>(d, dev_state, IMU_N);
	TRY(hipGetLastError());
	TRY(hipMemcpyAsync(state, dev_state, sizeof(state),
			   hipMemcpyDeviceToHost, 0));
	TRY(hipStreamSynchronize(0)); // torch.cuda.current_stream().synchronize()
	TRY(hipFree(d));
	pthread_mutex_lock(&lock);
	memcpy(latest_state, state, sizeof(state));
	pthread_mutex_unlock(&lock);
	Py_END_ALLOW_THREADS
	if (err)
		return fail(err, "imu_step");
	return PyFloat_FromDouble(state[0]);
}

// One action: features + state -> policy head -> action.
static PyObject *sample_step(PyObject *, PyObject *)
{
	hipError_t err = hipSuccess;
	float *feat = NULL, *state = NULL, *act = NULL, action[ACT];
	float hf[FEAT], hs[IMU_N];

	Py_BEGIN_ALLOW_THREADS
	pthread_mutex_lock(&lock);
	memcpy(hf, latest_feat, sizeof(hf));
	memcpy(hs, latest_state, sizeof(hs));
	pthread_mutex_unlock(&lock);
	TRY(hipMalloc((void **)&feat, sizeof(hf)));
	TRY(hipMalloc((void **)&state, sizeof(hs)));
	TRY(hipMalloc((void **)&act, sizeof(action)));
	TRY(hipMemcpyAsync(feat, hf, sizeof(hf), hipMemcpyHostToDevice, 0));
	TRY(hipMemcpyAsync(state, hs, sizeof(hs), hipMemcpyHostToDevice, 0));
	sample_action<<<1, ACT>>>(feat, state, act, FEAT);
	TRY(hipGetLastError());
	TRY(hipMemcpy(action, act, sizeof(action), hipMemcpyDeviceToHost));
	TRY(hipFree(feat));
	TRY(hipFree(state));
	TRY(hipFree(act));
	Py_END_ALLOW_THREADS
	if (err)
		return fail(err, "sample_step");
	return PyFloat_FromDouble(action[0]);
}

static PyMethodDef methods[] = {
	{ "init", init, METH_NOARGS, "select device 0, allocate the state" },
	{ "set_thread_name", set_thread_name, METH_VARARGS,
	  "name the calling OS thread (shown in traces)" },
	{ "camera_step", camera_step, METH_VARARGS, "encode one frame" },
	{ "imu_step", imu_step, METH_VARARGS, "fuse one IMU sample" },
	{ "sample_step", sample_step, METH_NOARGS, "sample one action" },
	{ NULL, NULL, 0, NULL }
};

static struct PyModuleDef module = { PyModuleDef_HEAD_INIT, "evalpipe",
				     "demo pipeline kernels", -1, methods,
				     NULL, NULL, NULL, NULL };

PyMODINIT_FUNC PyInit_evalpipe(void)
{
	return PyModule_Create(&module);
}
