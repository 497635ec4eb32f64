/*
 * lbext.c - a Python C extension that links the HIP runtime the way
 * PyTorch's do (Python loads it RTLD_LOCAL): its calls must go through the
 * shim.  lbext.malloc_free() returns (hipMalloc status, hipFree status).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include "lbshim/hip_decls.h"

static PyObject *malloc_free(PyObject *self, PyObject *args)
{
	void *p = NULL;
	hipError_t a, b;

	(void)self;
	(void)args;
	a = hipMalloc(&p, 1 << 20);
	b = hipFree(p);
	return Py_BuildValue("(ii)", (int)a, (int)b);
}

static PyMethodDef methods[] = {
	{ "malloc_free", malloc_free, METH_NOARGS, "hipMalloc then hipFree" },
	{ NULL, NULL, 0, NULL }
};

static struct PyModuleDef module = { PyModuleDef_HEAD_INIT, "lbext", NULL, -1,
				     methods };

PyMODINIT_FUNC PyInit_lbext(void)
{
	return PyModule_Create(&module);
}
