/*
 * he_copy.h - what copy2d.c gives arrays.c: a pitched 3D copy as ops on a
 * stream, and the element size of a hipArray.  Hidden like he.h.
 */
#ifndef LB_EMU_HE_COPY_H
#define LB_EMU_HE_COPY_H

#include "he.h"

#pragma GCC visibility push(hidden)

/* depth slices of height rows of width bytes, pitch and slice apart */
struct he_box {
	char *dst;
	const char *src;
	size_t dpitch, spitch, dslice, sslice;
	size_t width, height, depth;
	hipMemcpyKind kind;
};

/*
 * Enqueues the box's copy on stream, one op per slice, and with sync waits
 * for it.  An empty box succeeds without touching the stream.
 */
hipError_t he_copy3d(const struct he_box *b, hipStream_t stream, bool sync);

/* Bytes per element of a (its channel descriptor's bits / 8, at least 1). */
size_t he_array_elsize(hipArray_const_t a);
/* bytes of one channel of a driver array format (memextra.c) */
size_t he_format_bytes(enum hipArray_Format f);

#pragma GCC visibility pop

#endif
