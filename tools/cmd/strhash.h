/*
 * strhash.h - the string hash of the name tables of `lbtrace summary`
 * (summary.c) and `lbtrace nsys` (nsys.c).
 */
#ifndef LBTRACE_STRHASH_H
#define LBTRACE_STRHASH_H

#include <stdint.h>

/* FNV-1a of the NUL-terminated S; the tables mask it to their size. */
static inline uint64_t lbt_str_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}

#endif
