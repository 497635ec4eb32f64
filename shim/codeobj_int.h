/*
 * codeobj_int.h - what the code-object reader's files share: the set
 * being built, its string arena, and the libraries opened at first use.
 */
#ifndef LB_CODEOBJ_INT_H
#define LB_CODEOBJ_INT_H

#include <stddef.h>
#include <stdint.h>
#include "lbshim/codeobj.h"

/* Every allocation of a set, freed together. */
struct lb_co_block {
	struct lb_co_block *next;
	max_align_t align[];
};

struct lb_co_set {
	uint32_t nobjects, cap;
	struct lb_co_object *objects;
	/* names and symbols to kernels: open addressing, built at the end */
	const struct lb_co_kernel **index;
	uint64_t mask;
	struct lb_co_block *blocks;
	int oom;
	char why[160];
};

/* Allocates n zeroed bytes owned by set; NULL (and set->oom) if none. */
void *lb_co_alloc(struct lb_co_set *set, size_t n);

/* A copy of the n bytes at s, NUL-terminated, owned by set. */
const char *lb_co_strndup(struct lb_co_set *set, const char *s, size_t n);

/* Notes the first problem met (printf-style); later ones are dropped. */
void lb_co_fail(struct lb_co_set *set, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Builds set->index over every object's kernels (the first one wins). */
void lb_co_index(struct lb_co_set *set);

/*
 * Parses the msgpack metadata note desc (n bytes) of one code object
 * into a new object of set.  target_hint names the object when the
 * metadata does not.  Returns 1 if an object was added, 0 if not (why
 * noted).
 */
int lb_co_parse_meta(struct lb_co_set *set, const void *desc, size_t n,
		     int version, const char *target_hint);

/* ---- libraries, opened with dlopen at first use (codeobj_libs.c) ---- */

struct msgpack_unpacked;
struct msgpack_zone;

struct lb_co_libs {
	/* msgpack-c (libmsgpackc.so.2) */
	int (*unpack_next)(struct msgpack_unpacked *r, const char *data,
			   size_t len, size_t *off);
	void (*zone_free)(struct msgpack_zone *z);
	/* libzstd.so.1 */
	size_t (*zstd_decompress)(void *dst, size_t cap, const void *src,
				  size_t n);
	unsigned (*zstd_is_error)(size_t code);
	size_t (*zstd_frame_size)(const void *src, size_t n);
	/* zlib (libz.so.1) */
	int (*z_uncompress)(unsigned char *dst, unsigned long *len,
			    const unsigned char *src, unsigned long n);
};

/*
 * The libraries, opened once; a function is NULL when its library could
 * not be opened (the reader then says so and reads less).
 */
const struct lb_co_libs *lb_co_libs(void);

#endif
