/*
 * out.h - buffered output for lbtrace's formatters: numbers, hex, JSON
 * strings and sanitized text written without stdio's per-call cost (print
 * --json must keep up with millions of records a second).
 */
#ifndef LBTRACE_OUT_H
#define LBTRACE_OUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define LBT_OUT_CAP (64u << 10)

struct lbt_out {
	FILE *f;
	size_t len;
	int color; /* ANSI colours allowed */
	int error; /* a write failed */
	char buf[LBT_OUT_CAP];
};

/* Starts writing to F (not owned); COLOR enables lbt_color(). */
void lbt_out_init(struct lbt_out *o, FILE *f, int color);

/* Writes out what is buffered; returns 0 or -1 if any write failed. */
int lbt_out_flush(struct lbt_out *o);

/* Makes room for N more bytes (N <= 4096). */
static inline char *lbt_room(struct lbt_out *o, size_t n)
{
	if (o->len + n > sizeof(o->buf))
		lbt_out_flush(o);
	return o->buf + o->len;
}

static inline void lbt_putc(struct lbt_out *o, char c)
{
	*lbt_room(o, 1) = c;
	o->len++;
}

/* Raw bytes / a C string, as they are. */
void lbt_write_slow(struct lbt_out *o, const char *s, size_t n);

static inline void lbt_write(struct lbt_out *o, const char *s, size_t n)
{
	if (__builtin_expect(o->len + n <= sizeof(o->buf), 1)) {
		memcpy(o->buf + o->len, s, n);
		o->len += n;
	} else {
		lbt_write_slow(o, s, n);
	}
}

/* (inline, so that the length of a literal is known when compiling) */
static inline void lbt_puts(struct lbt_out *o, const char *s)
{
	lbt_write(o, s, strlen(s));
}

/* Decimal, signed decimal, "0x..." hex. */
void lbt_put_u64(struct lbt_out *o, uint64_t v);
void lbt_put_i64(struct lbt_out *o, int64_t v);
void lbt_put_hex(struct lbt_out *o, uint64_t v);

/* NS as a decimal number of UNIT-ns with DEC decimals: (1234, 1000, 3)
 * gives "1.234".  Negative values get a '-'. */
void lbt_put_fixed(struct lbt_out *o, int64_t ns, int64_t unit, int dec);

/* printf into the buffer (slow path; at most 4095 bytes). */
void lbt_printf(struct lbt_out *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* S as a quoted JSON string (NULL: null); invalid UTF-8 becomes U+FFFD. */
void lbt_put_json_str(struct lbt_out *o, const char *s);

/* The escaped content of S (not NULL), without the quotes. */
void lbt_put_json_chars(struct lbt_out *o, const char *s);

/* S for a terminal: control characters shown as '?'; NULL as "?". */
void lbt_put_text(struct lbt_out *o, const char *s);

/* Colours (nothing unless enabled). */
enum { LBT_C_OFF, LBT_C_API, LBT_C_ERR, LBT_C_DIM, LBT_C_CRASH };
void lbt_color(struct lbt_out *o, int c);

#endif
