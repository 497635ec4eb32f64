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

#define LBT_OUT_CAP (1u << 20) /* a write(2) per MiB */

struct lbt_out {
	FILE *f;
	size_t len;
	int color; /* ANSI colours allowed */
	int error; /* a write failed */
	char buf[LBT_OUT_CAP]; /* (allocated, never on a stack) */
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

/*
 * Writing through a cursor, for the formats' hot paths: P = lbt_room(O, N)
 * is room for N bytes, lbt_w_*() write at P and return the new end, and
 * lbt_end(O, P) takes what was written.  A cursor kept in a local
 * variable stays in a register, where o->len would be reloaded after
 * every byte stored (a char store may alias it).
 */
#define LBT_NUM_MAX 24 /* room for any lbt_w_u64/i64/hex */

static inline void lbt_end(struct lbt_out *o, char *p)
{
	o->len = (size_t)(p - o->buf);
}

static inline char *lbt_w_mem(char *p, const char *s, size_t n)
{
	memcpy(p, s, n);
	return p + n;
}

/*
 * N bytes (N <= 32) from S to P without a call: two overlapping moves of
 * the largest width that fits, none reading outside S[0..N).
 */
static inline char *lbt_w_small(char *p, const char *s, size_t n)
{
	uint64_t a, b;
	uint32_t c, d;

	if (n >= 16) {
		char t[16], u[16];

		memcpy(t, s, 16);
		memcpy(u, s + n - 16, 16);
		memcpy(p, t, 16);
		memcpy(p + n - 16, u, 16);
	} else if (n >= 8) {
		memcpy(&a, s, 8);
		memcpy(&b, s + n - 8, 8);
		memcpy(p, &a, 8);
		memcpy(p + n - 8, &b, 8);
	} else if (n >= 4) {
		memcpy(&c, s, 4);
		memcpy(&d, s + n - 4, 4);
		memcpy(p, &c, 4);
		memcpy(p + n - 4, &d, 4);
	} else if (n) {
		p[0] = s[0];
		p[n / 2] = s[n / 2];
		p[n - 1] = s[n - 1];
	}
	return p + n;
}

/* A string literal, its length known when compiling. */
#define lbt_w_lit(p, lit) lbt_w_mem((p), (lit), sizeof(lit) - 1)

extern const char lbt_digits2[201];  /* "00" "01" .. "99" */
extern const char lbt_hex2[513];     /* "00" "01" .. "ff" */

/*
 * Numbers go straight to their place (building them elsewhere to copy
 * them in costs a stalled reload of the bytes just stored), 8 digits at
 * once: lbt_dec8() makes the 8 digits of a number below 10^8 in one
 * word, dividing its 2 halves, then 4 quarters, then 8 digits in lanes
 * of one register (the multiply-shift quotients are exact in range), the
 * first digit in the lowest byte.  The word is stored whole: the room a
 * writer asks for (LBT_NUM_MAX) covers the bytes past the number.
 */
static inline __attribute__((always_inline)) uint64_t lbt_dec8(uint64_t v)
{
	uint64_t y = v / 10000, q;

	y |= (v - y * 10000) << 32;			      /* 2 x 4 */
	q = (y * 10486 >> 20) & 0x0000007f0000007full;	      /* / 100 */
	y = q | (y - q * 100) << 16;			      /* 4 x 2 */
	q = (y * 103 >> 10) & 0x000f000f000f000full;	      /* / 10 */
	y = q | (y - q * 10) << 8;			      /* 8 x 1 */
	return y | 0x3030303030303030ull;
}

/* V (1 <= V < 10^8) without its leading zeros. */
static inline __attribute__((always_inline)) char *
lbt_w_dec8_lead(char *p, uint64_t v)
{
	uint64_t d = lbt_dec8(v);
	unsigned z = __builtin_ctzll(d & 0x0f0f0f0f0f0f0f0full) >> 3;

	d >>= 8 * z;
	memcpy(p, &d, 8);
	return p + 8 - z;
}

static inline __attribute__((always_inline)) char *
lbt_w_u64(char *p, uint64_t v)
{
	uint64_t hi, top, d;

	if (v < 100) {
		if (v < 10) {
			*p = (char)('0' + v);
			return p + 1;
		}
		memcpy(p, lbt_digits2 + v * 2, 2);
		return p + 2;
	}
	if (v < 100000000)
		return lbt_w_dec8_lead(p, v);
	hi = v / 100000000;
	v -= hi * 100000000;
	if (hi >= 100000000) {
		top = hi / 100000000; /* < 1845 */
		hi -= top * 100000000;
		p = lbt_w_dec8_lead(p, top);
		d = lbt_dec8(hi);
		memcpy(p, &d, 8);
		p += 8;
	} else {
		p = lbt_w_dec8_lead(p, hi);
	}
	d = lbt_dec8(v);
	memcpy(p, &d, 8);
	return p + 8;
}

static inline char *lbt_w_i64(char *p, int64_t v)
{
	if (v < 0) {
		*p++ = '-';
		return lbt_w_u64(p, -(uint64_t)v);
	}
	return lbt_w_u64(p, (uint64_t)v);
}

static inline char *lbt_w_hex(char *p, uint64_t v)
{
	unsigned n = (64 - __builtin_clzll(v | 1) + 3) / 4;
	char *end = p + 2 + n, *e = end;

	p[0] = '0';
	p[1] = 'x';
	for (; n >= 2; n -= 2, v >>= 8) {
		e -= 2;
		memcpy(e, lbt_hex2 + (v & 0xff) * 2, 2);
	}
	if (n)
		e[-1] = lbt_hex2[(v & 15) * 2 + 1];
	return end;
}

/* NS as a decimal number of UNIT-ns with DEC decimals: (1234, 1000, 3)
 * gives "1.234".  Negative values get a '-'. */
void lbt_put_fixed(struct lbt_out *o, int64_t ns, int64_t unit, int dec);

/* printf into the buffer (slow path; at most 4095 bytes). */
void lbt_printf(struct lbt_out *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* S as a quoted JSON string (NULL: null); invalid UTF-8 becomes U+FFFD. */
void lbt_put_json_str(struct lbt_out *o, const char *s);

/* Nonzero if the N bytes at S (N <= 32) are JSON as they are. */
int lbt_json_plain_small(const char *s, size_t n);

/* The escaped content of S (not NULL), without the quotes. */
void lbt_put_json_chars(struct lbt_out *o, const char *s);

/* S for a terminal: control characters shown as '?'; NULL as "?". */
void lbt_put_text(struct lbt_out *o, const char *s);

/* Colours (nothing unless enabled). */
enum { LBT_C_OFF, LBT_C_API, LBT_C_ERR, LBT_C_DIM, LBT_C_CRASH };
void lbt_color(struct lbt_out *o, int c);

#endif
