/*
 * fmt.h - lbtrace's output formats, one ops table each (in the spirit of
 * uftrace's reader): begin with the set, take each record that passed the
 * filters, end by printing what is left.  Commands pick a format; the
 * loop, the filters and --last live in run.c, so every format gets them.
 */
#ifndef LBTRACE_FMT_H
#define LBTRACE_FMT_H

#include "format/out.h"
#include "read/reader.h"

/* What the command line asked for. */
struct lbt_opts {
	const char *api_glob;	 /* --api */
	const char *kernel_glob; /* --kernel */
	int tid_set;
	uint32_t tid;	      /* --tid */
	int errors;	      /* --errors */
	uint64_t last;	      /* --last N, 0 = all */
	uint64_t crash_calls; /* crash: calls shown per thread */
	int registrations;    /* crash: keep kernel/module registrations */
	int color;
};

struct lbt_fmt {
	const char *name;
	int mode;     /* LBT_ORDERED or LBT_UNORDERED */
	int filtered; /* takes --api/--kernel/--tid/--errors/--last */
	/* state for one run, or NULL when out of memory */
	void *(*begin)(struct lbt_set *set, struct lbt_out *o,
		       const struct lbt_opts *opt);
	void (*record)(void *st, const struct lbt_rec *r);
	/* prints the result and frees ST; returns 0 or an exit status */
	int (*end)(void *st);
};

extern const struct lbt_fmt lbt_fmt_text;
extern const struct lbt_fmt lbt_fmt_json;
extern const struct lbt_fmt lbt_fmt_summary;
extern const struct lbt_fmt lbt_fmt_crash;
extern const struct lbt_fmt lbt_fmt_chrome;

/*
 * Runs FMT over every record of SET that passes OPT's filters, writing to
 * O.  Returns FMT's end status (0 on success), or 2 when O failed.
 */
int lbt_run_fmt(const struct lbt_fmt *fmt, struct lbt_set *set,
		struct lbt_out *o, const struct lbt_opts *opt);

/* Nonzero if R passes OPT's filters. */
int lbt_filter(const struct lbt_opts *opt, const struct lbt_rec *r);

/* ---- the arguments of a call, shared by the formats (fields.c) ---- */

enum lbt_ftype {
	LBT_F_HEX, /* pointer or handle: "0x..." */
	LBT_F_U64,
	LBT_F_I64,
	LBT_F_STR,  /* s, NULL shown as null / "?" */
	LBT_F_DIM3, /* d[3] */
	LBT_F_MS,   /* milliseconds, float bits in v */
};

struct lbt_field {
	const char *key;
	int type;
	uint64_t v;
	const char *s;
	uint32_t d[3];
};

#define LBT_MAX_FIELDS 8

/*
 * The arguments that matter of call record R, by its API's kind (see
 * trace_format.h), with DEMANGLED kernel names or not.  Returns how many
 * were written to OUT (at most LBT_MAX_FIELDS).  Streams are not among
 * them: see lbt_has_stream().
 */
int lbt_call_fields(const struct lbt_rec *r, struct lbt_field *out,
		    int demangled);

/* Nonzero if R's API takes a stream (or, unknown, has one recorded). */
int lbt_has_stream(const struct lbt_rec *r);

/* Nonzero if call R failed (any code but hipSuccess, except a query's
 * hipErrorNotReady, which is an answer). */
int lbt_rec_is_error(const struct lbt_rec *r);

/* hipError_t name of R's return code, or NULL. */
const char *lbt_ret_name(const struct lbt_rec *r);

/* Pool result name of an alloc/free record ("hit", "miss", "off"). */
const char *lbt_pool_name(unsigned note);

#endif
