/*
 * out.c - the formatters' output buffer (see out.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>
#include "format/out.h"

void lbt_out_init(struct lbt_out *o, FILE *f, int color)
{
	o->f = f;
	o->len = 0;
	o->color = color;
	o->error = 0;
}

/*
 * The buffer straight to F's descriptor, after what stdio holds of F:
 * fwrite() of a 64 KiB buffer through stdout's 4 KiB one made three
 * system calls of each flush (print --json of 6 M records: 70 000 writes,
 * at ~2.5 us of system call each on the bench machines, issue 16).  A
 * stream without a descriptor (a memory stream) takes fwrite().  A
 * write that fails (EPIPE, ENOSPC, ...) marks the output in error; the
 * rest of the buffer is dropped, as fwrite() would.
 */
static void out_write(struct lbt_out *o)
{
	const char *p = o->buf;
	size_t n = o->len;
	ssize_t k;
	int fd = fileno(o->f);

	if (fd < 0) {
		if (fwrite(p, 1, n, o->f) != n)
			o->error = 1;
		return;
	}
	while (n) {
		k = write(fd, p, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			o->error = 1;
			return;
		}
		p += k;
		n -= (size_t)k;
	}
}

int lbt_out_flush(struct lbt_out *o)
{
	int saved = errno;

	if (o->f && fflush(o->f))
		o->error = 1;
	if (o->len && o->f && !o->error)
		out_write(o);
	o->len = 0;
	errno = saved;
	return o->error ? -1 : 0;
}

void lbt_write_slow(struct lbt_out *o, const char *s, size_t n)
{
	while (n) {
		size_t k = sizeof(o->buf) - o->len;

		if (!k) {
			lbt_out_flush(o);
			continue;
		}
		if (k > n)
			k = n;
		memcpy(o->buf + o->len, s, k);
		o->len += k;
		s += k;
		n -= k;
	}
}

const char lbt_digits2[201] = "00010203040506070809"
			    "10111213141516171819"
			    "20212223242526272829"
			    "30313233343536373839"
			    "40414243444546474849"
			    "50515253545556575859"
			    "60616263646566676869"
			    "70717273747576777879"
			    "80818283848586878889"
			    "90919293949596979899";

#define H16(x) #x "0" #x "1" #x "2" #x "3" #x "4" #x "5" #x "6" #x "7" \
		 #x "8" #x "9" #x "a" #x "b" #x "c" #x "d" #x "e" #x "f"
const char lbt_hex2[513] = H16(0) H16(1) H16(2) H16(3) H16(4) H16(5) H16(6)
    H16(7) H16(8) H16(9) H16(a) H16(b) H16(c) H16(d) H16(e) H16(f);
#undef H16

void lbt_put_u64(struct lbt_out *o, uint64_t v)
{
	lbt_end(o, lbt_w_u64(lbt_room(o, LBT_NUM_MAX), v));
}

void lbt_put_i64(struct lbt_out *o, int64_t v)
{
	lbt_end(o, lbt_w_i64(lbt_room(o, LBT_NUM_MAX), v));
}

void lbt_put_hex(struct lbt_out *o, uint64_t v)
{
	lbt_end(o, lbt_w_hex(lbt_room(o, LBT_NUM_MAX), v));
}

void lbt_put_fixed(struct lbt_out *o, int64_t ns, int64_t unit, int dec)
{
	uint64_t v, whole, frac, scale = 1;
	char tmp[24], *p;
	int i;

	if (ns < 0) {
		lbt_putc(o, '-');
		v = -(uint64_t)ns;
	} else {
		v = ns;
	}
	whole = v / unit;
	frac = v % unit;
	for (i = 0; i < dec; i++)
		scale *= 10;
	/* frac * scale / unit, rounded down: exact for unit = 10^k */
	frac = (uint64_t)((unsigned __int128)frac * scale / unit);
	lbt_put_u64(o, whole);
	if (!dec)
		return;
	lbt_putc(o, '.');
	p = tmp + dec;
	for (i = 0; i < dec; i++) {
		*--p = '0' + frac % 10;
		frac /= 10;
	}
	lbt_write(o, tmp, dec);
}

void lbt_printf(struct lbt_out *o, const char *fmt, ...)
{
	va_list ap;
	char *p = lbt_room(o, 4096);
	int n;

	va_start(ap, fmt);
	n = vsnprintf(p, 4096, fmt, ap);
	va_end(ap);
	if (n > 4095)
		n = 4095;
	if (n > 0)
		o->len += n;
}

/* Length of the valid UTF-8 sequence at S (1..4), or 0 if invalid. */
static int utf8_len(const unsigned char *s)
{
	int n, i;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0)
		n = 2, cp = s[0] & 0x1f;
	else if ((s[0] & 0xf0) == 0xe0)
		n = 3, cp = s[0] & 0x0f;
	else if ((s[0] & 0xf8) == 0xf0)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0; /* also stops at the NUL */
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) ||
	    (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0; /* overlong, out of range or a surrogate */
	return n;
}

/* Bytes a JSON string holds as they are: printable ASCII but " and \. */
static const unsigned char lbt_json_plain[256] = {
	[0x20 ... 0x21] = 1, /* '"' is 0x22 */
	[0x23 ... 0x5b] = 1, /* '\\' is 0x5c */
	[0x5d ... 0x7f] = 1,
};

/*
 * Nonzero if none of the 8 bytes of X needs escaping (all plain): tests
 * all 8 at once (the haszero/hasless tricks: a byte below N borrows in
 * X - N * ones, and only then is its top bit set where X's is not).
 */
static inline int plain8(uint64_t x)
{
	const uint64_t ones = 0x0101010101010101ull;
	uint64_t q = x ^ (ones * '"'), b = x ^ (ones * '\\');
	uint64_t t = x;				/* >= 0x80 */

	t |= (x - ones * 0x20) & ~x;		/* < 0x20 */
	t |= (q - ones) & ~q;			/* '"' */
	t |= (b - ones) & ~b;			/* '\\' */
	return !(t & ones * 0x80);
}

void lbt_put_json_chars(struct lbt_out *o, const char *str)
{
	static const char dig[] = "0123456789abcdef";
	const unsigned char *s = (const unsigned char *)str;
	size_t left = strlen(str);

	while (left) {
		/* plain bytes straight into the buffer, 256 at a time, by
		 * words of 8 while they last (the length known, no word
		 * is read past the string) */
		char *d = lbt_room(o, 256);
		size_t i = 0, k = left < 256 ? left : 256;
		uint64_t x;
		int n;

		while (i + 8 <= k) {
			memcpy(&x, s + i, 8);
			if (!plain8(x))
				break;
			memcpy(d + i, &x, 8);
			i += 8;
		}
		/* the last few: the word that ends the run, if plain, read
		 * over bytes already checked (k >= 8) */
		if (i < k && k >= 8 && i + 8 > k) {
			memcpy(&x, s + k - 8, 8);
			if (plain8(x)) {
				memcpy(d + k - 8, &x, 8);
				i = k;
			}
		}
		while (i < k) {
			unsigned char c = s[i];

			if (!lbt_json_plain[c])
				break;
			d[i++] = (char)c;
		}
		o->len += i;
		s += i;
		left -= i;
		if (i == k)
			continue;
		if (*s == '"' || *s == '\\') {
			lbt_putc(o, '\\');
			lbt_putc(o, *s++);
			left--;
		} else if (*s < 0x20) {
			char e[6] = {'\\', 'u',		 '0',
				     '0',  dig[*s >> 4], dig[*s & 15]};

			lbt_write(o, e, 6);
			s++;
			left--;
		} else if ((n = utf8_len(s)) > 0) {
			lbt_write(o, (const char *)s, n);
			s += n;
			left -= n;
		} else {
			lbt_puts(o, "\\ufffd");
			s++;
			left--;
		}
	}
}

/* Nonzero if the N bytes at S (N <= 32) need no escaping: checked by
 * words that stay inside S[0..N), the last one overlapping. */
int lbt_json_plain_small(const char *s, size_t n)
{
	uint64_t x;
	uint32_t w;
	size_t i;

	if (n >= 8) {
		for (i = 0; i + 8 <= n; i += 8) {
			memcpy(&x, s + i, 8);
			if (!plain8(x))
				return 0;
		}
		memcpy(&x, s + n - 8, 8);
		return plain8(x);
	}
	if (n >= 4) {
		memcpy(&w, s, 4);
		x = w;
		memcpy(&w, s + n - 4, 4);
		x |= (uint64_t)w << 32;
		return plain8(x);
	}
	for (i = 0; i < n; i++)
		if (!lbt_json_plain[(unsigned char)s[i]])
			return 0;
	return 1;
}


void lbt_put_json_str(struct lbt_out *o, const char *s)
{
	size_t n;

	if (!s) {
		lbt_puts(o, "null");
		return;
	}
	/* names (APIs, return codes, kinds) are short and plain: moved
	 * whole, once checked */
	n = strlen(s);
	if (n <= 32 && lbt_json_plain_small(s, n)) {
		char *p = lbt_room(o, 34);

		*p++ = '"';
		p = lbt_w_small(p, s, n);
		*p++ = '"';
		lbt_end(o, p);
		return;
	}
	lbt_putc(o, '"');
	lbt_put_json_chars(o, s);
	lbt_putc(o, '"');
}

void lbt_put_text(struct lbt_out *o, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	if (!s) {
		lbt_putc(o, '?');
		return;
	}
	for (; *s; s++)
		lbt_putc(o, *s < 0x20 || *s == 0x7f ? '?' : (char)*s);
}

void lbt_color(struct lbt_out *o, int c)
{
	static const char *const seq[] = {
	    "\033[0m", "\033[1m", "\033[31m", "\033[2m", "\033[1;31m",
	};

	if (o->color && c >= 0 && c <= LBT_C_CRASH)
		lbt_puts(o, seq[c]);
}
