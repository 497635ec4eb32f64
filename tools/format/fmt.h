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
	int win_start_set;    /* export --svg --window START given */
	int64_t win_start_ns; /* START: ns from each file's start */
	int64_t win_len_ns;   /* the window's length; 0: the default */
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
extern const struct lbt_fmt lbt_fmt_nsys; /* summary --nsys (cmd/nsys.c) */
extern const struct lbt_fmt lbt_fmt_crash;
extern const struct lbt_fmt lbt_fmt_chrome;
extern const struct lbt_fmt lbt_fmt_svg;

/*
 * Runs FMT over every record of SET that passes OPT's filters, writing to
 * O.  Returns FMT's end status (0 on success), or 2 when O failed.
 */
int lbt_run_fmt(const struct lbt_fmt *fmt, struct lbt_set *set,
		struct lbt_out *o, const struct lbt_opts *opt);

/* Nonzero if R passes OPT's filters. */
int lbt_filter(const struct lbt_opts *opt, const struct lbt_rec *r);

/*
 * The bare function name of demangled kernel name D: no return type,
 * scope, template arguments or parameters ("void ns::k<32>(float*)" gives
 * "k"), written to BUF (LEN > 0 bytes, cut to fit).  Returns BUF.
 */
const char *lbt_kernel_short(const char *d, char *buf, size_t len);

/* ---- the fields of a record, shared by the formats (fields.c) ----
 *
 * What a record says is decided once, here: the text and JSON formats
 * walk the same list of fields (lbt_fields_start / lbt_fields_next) and
 * differ only in how they show a value and where they put it.  A field
 * has a value of one type, a JSON key, the formats it shows in, and for
 * the text format a label and a role.  A new kind of value is one more
 * enum lbt_ftype, made in fields.c and given a case in each format's
 * value printer (fmt_text.c and fmt_json.c put_value; export_chrome.c
 * put_args for a call's arguments).
 */

enum lbt_ftype {
	LBT_F_NONE, /* no value: the text label alone */
	LBT_F_HEX,  /* pointer or handle: "0x..." */
	LBT_F_U64,
	LBT_F_I64,
	LBT_F_STR,    /* s, NULL shown as null / "?" */
	LBT_F_DIM3,   /* d[3] */
	LBT_F_MS,     /* milliseconds, float bits in v */
	LBT_F_BOOL,   /* v: JSON true / false; no text value */
	LBT_F_US,     /* nanoseconds in v, shown as microseconds (text) */
	LBT_F_FRAMES, /* crash's frames: JSON their list, text their count */
	LBT_F_ARGS,   /* a launch's arguments (format/kargs.h) of rec: text
		       * the typed call, JSON the array */
};

/* Where a field shows (struct lbt_field.show). */
#define LBT_SHOW_TEXT 0x1u /* print */
#define LBT_SHOW_JSON 0x2u /* print --json */
#define LBT_SHOW_BOTH 0x3u

/* What a field is in the text format (struct lbt_field.role). */
enum lbt_frole {
	LBT_R_ARG,   /* a call's argument: "label=value", comma-separated
		      * inside the parentheses */
	LBT_R_JOIN,  /* glued to the argument before it: label, value */
	LBT_R_TAG,   /* a mark after a call's duration: " [label]" */
	LBT_R_PROSE, /* a part of a record's sentence: the label, with the
		      * value where it says "%v" */
};

struct lbt_field {
	const char *key;   /* JSON key (plain ASCII) */
	uint8_t klen;	   /* strlen(key), 0 when key is NULL */
	const char *label; /* text: the name shown, or the sentence part */
	uint8_t type;	   /* enum lbt_ftype */
	uint8_t show;	   /* LBT_SHOW_* */
	uint8_t role;	   /* enum lbt_frole */
	uint8_t color;	   /* text: LBT_C_* around it, 0 none */
	uint64_t v;
	const char *s;
	const struct lbt_crash *crash; /* LBT_F_FRAMES */
	const struct lbt_rec *rec;     /* LBT_F_ARGS */
	uint32_t d[3];
};

#define LBT_MAX_FIELDS 8  /* arguments of a call */
#define LBT_REC_FIELDS 32 /* fields of any record */

/*
 * The arguments that matter of call record R, by its API's kind (see
 * trace_format.h), with DEMANGLED kernel names or not.  Returns how many
 * were written to OUT (at most LBT_MAX_FIELDS).  Streams are not among
 * them: see lbt_has_stream().
 */
int lbt_call_fields(const struct lbt_rec *r, struct lbt_field *out,
		    int demangled);

/* A walk over the fields of one record. */
struct lbt_field_iter {
	int n, i;
	struct lbt_field f[LBT_REC_FIELDS];
};

/*
 * Starts a walk over every field of record R, in the order the formats
 * show them: for a call its kind and device, the arguments (kernel names
 * demangled), its streams and its flags; for the other types what they
 * count or name.  A crash record's fields are its crash's (see
 * lbt_crash_fields).
 */
void lbt_fields_start(struct lbt_field_iter *it, const struct lbt_rec *r);

/* Starts a walk over the fields of crash C: signal, code, address, frames. */
void lbt_crash_fields(struct lbt_field_iter *it, const struct lbt_crash *c);

/* The next field of the walk that shows in SHOW (LBT_SHOW_*), or NULL. */
static inline const struct lbt_field *
lbt_fields_next(struct lbt_field_iter *it, unsigned show)
{
	while (it->i < it->n) {
		const struct lbt_field *f = &it->f[it->i++];

		if (f->show & show)
			return f;
	}
	return NULL;
}

/* Nonzero if R's API takes a stream (or, unknown, has one recorded). */
int lbt_has_stream(const struct lbt_rec *r);

/* Nonzero if call R failed (any code but hipSuccess, except a query's
 * hipErrorNotReady, which is an answer). */
int lbt_rec_is_error(const struct lbt_rec *r);

/* hipError_t name of R's return code, or NULL. */
const char *lbt_ret_name(const struct lbt_rec *r);

/*
 * Up to when the trace knows the process was alive, for the calls still
 * in flight: the crash's time when cr is given (the signal that ended it);
 * at a clean exit its end time; else the writer's last heartbeat (header
 * alive_ticks, stored every 200 ms at most) or the latest time in any
 * record, whichever is later.  u->ns is since the set's origin, u->what
 * names the moment ("the SIGTERM", "the exit", ...).  f must be scanned.
 */
struct lbt_until {
	int64_t ns;
	char what[48];
};
void lbt_until(const struct lbt_file *f, const struct lbt_crash *cr,
	       struct lbt_until *u);

/*
 * How long call R is drawn on a timeline (export --format chrome, --svg):
 * its duration; for a call still in flight when the trace ended, up to
 * lbt_until() of its file (the first crash, else the exit or the last
 * sign of life).  0 when that lies before its start.
 */
int64_t lbt_shown_dur(const struct lbt_rec *r);

/* One backtrace frame as a JSON string: "name+0xoff [0xpc]", "?? [0xpc]",
 * with " (guess)" after the offset when the name is another function's
 * (print --json and the timeline's crash marks). */
void lbt_json_frame(struct lbt_out *o, const struct lbt_frame *f);

/* Pool result name of an alloc/free record ("hit", "miss", "off"). */
const char *lbt_pool_name(unsigned note);

#endif
