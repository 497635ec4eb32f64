/*
 * out_test.c - lbtrace's output writers (tools/format/out.c) against
 * plain references: decimal and hex numbers at every length boundary and
 * the extremes (snprintf), and JSON strings (an escaper written here from
 * the JSON rules, a byte at a time) on the cases the word-at-a-time
 * paths split on: lengths around 4, 8, 16, 32 and 256, escapes at each
 * position, invalid UTF-8; and the flush (what stdio holds of the
 * stream first, then the buffer; a memory stream; more than a buffer's
 * worth; a write that fails).  Prints what differs; exit 1 if anything.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "format/out.h"

static struct lbt_out *o;
static int bad;

static void expect(const char *what, const char *want)
{
	size_t n = strlen(want);

	if (o->len != n || memcmp(o->buf, want, n)) {
		if (bad++ < 10)
			printf("FAIL %s: got '%.*s', want '%s'\n", what,
			       (int)o->len, o->buf, want);
	}
	o->len = 0;
}

static void num(uint64_t v)
{
	char want[64];

	snprintf(want, sizeof(want), "%" PRIu64, v);
	lbt_put_u64(o, v);
	expect("u64", want);
	snprintf(want, sizeof(want), "%" PRId64, (int64_t)v);
	lbt_put_i64(o, (int64_t)v);
	expect("i64", want);
	snprintf(want, sizeof(want), "0x%" PRIx64, v);
	lbt_put_hex(o, v);
	expect("hex", want);
}

/* Length of a valid UTF-8 sequence at S, else 0 (RFC 3629). */
static int ref_utf8(const unsigned char *s)
{
	int n, i;
	uint32_t cp;

	if (s[0] >= 0xf8 || (s[0] & 0xc0) == 0x80)
		return 0;
	n = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : 2;
	cp = s[0] & (0x7f >> n);
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < (n == 2 ? 0x80u : n == 3 ? 0x800u : 0x10000u) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

static void ref_json(const char *str, char *out)
{
	const unsigned char *s = (const unsigned char *)str;
	int n;

	*out++ = '"';
	while (*s) {
		if (*s == '"' || *s == '\\') {
			*out++ = '\\';
			*out++ = (char)*s++;
		} else if (*s < 0x20) {
			out += sprintf(out, "\\u%04x", *s++);
		} else if (*s < 0x80) {
			*out++ = (char)*s++;
		} else if ((n = ref_utf8(s)) > 0) {
			memcpy(out, s, n);
			out += n;
			s += n;
		} else {
			out += sprintf(out, "\\ufffd");
			s++;
		}
	}
	*out++ = '"';
	*out = 0;
}

static void str(const char *s)
{
	static char want[8 * 1024];

	ref_json(s, want);
	lbt_put_json_str(o, s);
	expect("json", want);
}

/* Writes N bytes of a pattern through a fresh output on F, with stdio
 * holding "pre:" of F first; then checks F's bytes read back from RD. */
static void flush_case(const char *what, FILE *f, size_t n)
{
	static struct lbt_out w;
	size_t i;

	fputs("pre:", f); /* held by stdio, must come out first */
	lbt_out_init(&w, f, 0);
	for (i = 0; i < n; i++)
		lbt_putc(&w, (char)('a' + i % 23));
	if (lbt_out_flush(&w) || w.error) {
		bad++;
		printf("FAIL flush %s: error\n", what);
	}
	(void)fflush(f);
}

static void flush_check(const char *what, const char *got, size_t len,
			size_t n)
{
	size_t i;
	int ok = len == 4 + n && !memcmp(got, "pre:", 4);

	for (i = 0; ok && i < n; i++)
		ok = got[4 + i] == (char)('a' + i % 23);
	if (!ok) {
		bad++;
		printf("FAIL flush %s: %zu bytes, want %zu\n", what, len,
		       4 + n);
	}
}

static void flushes(void)
{
	static struct lbt_out w;
	static char got[3 << 20];
	size_t sizes[] = { 0, 1, LBT_OUT_CAP - 1, LBT_OUT_CAP,
			   LBT_OUT_CAP + 1, 2 * LBT_OUT_CAP + 7 };
	size_t i, len;
	char *mem;
	FILE *f;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		/* a file: the buffer goes to its descriptor */
		f = tmpfile();
		if (!f) {
			bad++;
			return;
		}
		flush_case("file", f, sizes[i]);
		rewind(f);
		len = fread(got, 1, sizeof(got), f);
		flush_check("file", got, len, sizes[i]);
		fclose(f);
		/* a memory stream: no descriptor, fwrite */
		mem = NULL;
		f = open_memstream(&mem, &len);
		if (!f) {
			bad++;
			return;
		}
		flush_case("memory", f, sizes[i]);
		fclose(f);
		flush_check("memory", mem, len, sizes[i]);
		free(mem);
	}
	/* a write that fails: an error, errno as it was */
	f = fopen("/dev/full", "w");
	if (f) {
		lbt_out_init(&w, f, 0);
		lbt_puts(&w, "x");
		errno = 1234;
		if (!lbt_out_flush(&w) || !w.error || errno != 1234) {
			bad++;
			printf("FAIL flush /dev/full: no error or errno\n");
		}
		fclose(f);
	}
}

int main(void)
{
	static const char pool[] = "ab\"\\\x01\x1f \x7f\xc3\xa9\xe2\x82\xac"
				   "\xf0\x9f\x98\x80\xff\xc3\x80\xed\xa0\x80z";
	static char s[600];
	uint64_t p = 1;
	int i, d, n, k;

	o = calloc(1, sizeof(*o));
	if (!o)
		return 1;
	lbt_out_init(o, NULL, 0);
	for (i = 0; i < 20; i++, p *= 10)
		for (d = -2; d <= 2; d++)
			num(p + d);
	for (i = 0; i < 64; i++)
		for (d = -1; d <= 1; d++)
			num((1ull << i) + d);
	num(0);
	num(UINT64_MAX);
	num(INT64_MAX);
	num((uint64_t)INT64_MIN);
	num((uint64_t)-1000);
	lbt_put_json_str(o, NULL);
	expect("json NULL", "null");
	str("");
	str("hipSuccess");
	str("tab\there \"quoted\" back\\slash");
	/* every length to 40 and around 256, one odd byte at each place */
	for (n = 0; n <= 300; n = n == 40 ? 250 : n + 1) {
		for (k = -1; k < n; k++) {
			for (i = 0; i < n; i++)
				s[i] = (char)('a' + i % 26);
			s[n] = 0;
			if (k >= 0)
				s[k] = pool[(n + k) % (sizeof(pool) - 1)];
			str(s);
		}
	}
	srand(7);
	for (i = 0; i < 200000; i++) {
		n = rand() % (i % 16 ? 40 : 600);
		for (k = 0; k < n; k++)
			s[k] = rand() % 4 ? (char)('a' + rand() % 26)
					  : pool[rand() % (sizeof(pool) - 1)];
		s[n] = 0;
		str(s);
	}
	flushes();
	printf("%s\n", bad ? "failed" : "all passed");
	free(o);
	return bad ? 1 : 0;
}
