/*
 * kinfo.h - decoding KINFO records (include/lbshim/trace_format.h): a
 * kernel's registers, LDS, scratch and wavefront size from its code
 * object, recorded at registration.
 */
#ifndef LBTRACE_KINFO_H
#define LBTRACE_KINFO_H

#include <stdint.h>
#include "read/reader.h"

struct lbt_kinfo {
	const struct lbt_file *file;
	uint32_t name_sid, target_sid; /* strings of file */
	uint32_t version;   /* code object version */
	uint32_t vgprs, sgprs, lds, scratch, wavefront, max_wg;
	uint32_t kernarg, nargs; /* kernarg bytes, explicit arguments */
};

/*
 * Decodes KINFO record r into k; 0 if r is not a readable one.  Looks no
 * string up (a lazy set would scan the file again): lbt_kinfo_name() and
 * lbt_kinfo_target() do, NULL when the string is lost.
 */
int lbt_kinfo_of(const struct lbt_rec *r, struct lbt_kinfo *k);
const char *lbt_kinfo_name(const struct lbt_kinfo *k); /* demangled */
const char *lbt_kinfo_target(const struct lbt_kinfo *k);

#endif
