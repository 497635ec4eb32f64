/*
 * kargs.h - a launch's arguments (KARGS records, include/lbshim/
 * trace_format.h), typed from the kernel's demangled signature and laid
 * out by its metadata: decoded once here for print, print --json and
 * export (fields.c's LBT_F_ARGS).
 *
 * The record is untrusted input: its layout string may name any offsets
 * and sizes; only bytes inside the 56 the record holds are ever read.
 */
#ifndef LBTRACE_KARGS_H
#define LBTRACE_KARGS_H

#include <stdint.h>
#include "format/out.h"
#include "read/reader.h"

#define LBT_KARGS_MAX 64 /* arguments shown; a longer layout says "..." */

/* How an argument's value shows. */
enum lbt_kval {
	LBT_KV_CUT,   /* not (wholly) recorded */
	LBT_KV_HEX,   /* a pointer */
	LBT_KV_I64,   /* signed integer, sign-extended into x */
	LBT_KV_U64,
	LBT_KV_F32,   /* float bits in x */
	LBT_KV_F64,   /* double bits in x */
	LBT_KV_BOOL,
	LBT_KV_WORDS, /* a struct or unknown type: its 8- or 4-byte words */
};

struct lbt_karg {
	uint32_t off, size;
	char kind[32];	  /* .value_kind from the layout, "" unknown */
	const char *type; /* demangled type (not terminated), or NULL */
	uint32_t type_len;
	uint8_t v;	  /* enum lbt_kval */
	uint64_t x;	  /* scalar value */
};

struct lbt_kargs {
	const char *name;     /* demangled kernel name, or NULL */
	uint32_t prefix_len;  /* of name before its parameter list */
	uint32_t n;	      /* arguments in a[] */
	int more;	      /* the layout has more than LBT_KARGS_MAX */
	int cut;	      /* LB_KF_CUT: arguments past the bytes recorded */
	int untyped;	      /* no layout: a[] are the bytes' 8-byte words */
	uint32_t have;	      /* bytes recorded */
	uint8_t bytes[LB_KARGS_BYTES];
	struct lbt_karg a[LBT_KARGS_MAX];
};

/*
 * Decodes the arguments of R (a launch with has_kargs, or a KARGS record
 * on its own) into K.  Returns 0 if R has none.
 */
int lbt_kargs_of(const struct lbt_rec *r, struct lbt_kargs *k);

/* "scale(float* 0x7f.., float 2.5, int 4, Pair{0x7f.., 4242, 0})". */
void lbt_kargs_put_text(struct lbt_out *o, const struct lbt_kargs *k);

/* [{"offset":0,"size":8,"kind":"global_buffer","type":"float*",
 * "value":"0x7f.."}, ...]; value null where not recorded. */
void lbt_kargs_put_json(struct lbt_out *o, const struct lbt_kargs *k);

#endif
