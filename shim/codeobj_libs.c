/*
 * codeobj_libs.c - msgpack-c, libzstd and zlib, opened at first use.
 *
 * The reader is linked into liblbshim.so, which is preloaded into every
 * process of a session, most of which never touch HIP.  Linking the three
 * libraries would add them to every such process's DT_NEEDED list: more
 * start-up work, and a second libzstd or msgpack next to a copy the
 * program bundles (a Python wheel's, say).  So they are opened with
 * dlopen(RTLD_LOCAL) the first time a code object is read, which is at
 * registration of device code, never in a process that has none, and
 * their symbols never interpose on the program's.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include "codeobj_int.h"

static struct lb_co_libs lb_libs;
static pthread_once_t lb_libs_once = PTHREAD_ONCE_INIT;

static void *lb_open(const char *soname)
{
	return dlopen(soname, RTLD_NOW | RTLD_LOCAL);
}

static void lb_libs_open(void)
{
	int saved = errno;
	void *h;

	/* Debian 12: libmsgpackc2, libzstd1, zlib1g (mk/deps.sh). */
	h = lb_open("libmsgpackc.so.2");
	if (h) {
		*(void **)&lb_libs.unpack_next = dlsym(h, "msgpack_unpack_next");
		*(void **)&lb_libs.zone_free = dlsym(h, "msgpack_zone_free");
		if (!lb_libs.unpack_next || !lb_libs.zone_free)
			lb_libs.unpack_next = NULL;
	}
	h = lb_open("libzstd.so.1");
	if (h) {
		*(void **)&lb_libs.zstd_decompress = dlsym(h, "ZSTD_decompress");
		*(void **)&lb_libs.zstd_is_error = dlsym(h, "ZSTD_isError");
		*(void **)&lb_libs.zstd_frame_size =
			dlsym(h, "ZSTD_findFrameCompressedSize");
		if (!lb_libs.zstd_decompress || !lb_libs.zstd_is_error)
			lb_libs.zstd_decompress = NULL;
	}
	h = lb_open("libz.so.1");
	if (h)
		*(void **)&lb_libs.z_uncompress = dlsym(h, "uncompress");
	errno = saved;
}

const struct lb_co_libs *lb_co_libs(void)
{
	pthread_once(&lb_libs_once, lb_libs_open);
	return &lb_libs;
}
