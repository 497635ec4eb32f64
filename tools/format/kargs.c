/*
 * kargs.c - a launch's arguments: the bytes of its KARGS record, laid out
 * by the layout string the record names (offset, size and .value_kind of
 * every explicit argument, from the code object's metadata) and typed by
 * the parameter list of the kernel's demangled name.
 *
 * Types come from the demangled signature only: a pointer (anything
 * ending in '*' or '&', or a pointer to function or array) shows as hex,
 * the built-in arithmetic types as numbers, and everything else (structs,
 * classes, enums, unions) as its words, since the trace knows no finer
 * layout: an 8-byte word at an 8-byte offset that looks like a user-space
 * address (2^44 <= w < 2^48) in hex, else 4-byte words as signed
 * decimals, a tail of 1 to 3 bytes as an unsigned one.  When the
 * signature's parameters do not match the layout (a C kernel, a name the
 * demangler refused), the values show without types, pointers by their
 * .value_kind.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "format/kargs.h"

struct span {
	const char *s;
	uint32_t n;
};

static struct span trim(const char *s, size_t n)
{
	struct span r;

	while (n && *s == ' ')
		s++, n--;
	while (n && s[n - 1] == ' ')
		n--;
	r.s = s;
	r.n = (uint32_t)n;
	return r;
}

/*
 * The parameter list of demangled name d: *open = the index of its '('
 * (the one matching the final ')'), out[] = the parameters' types.
 * Returns how many (0 for "()" and "(void)"), or -1 when d has no list
 * or more than max parameters.
 */
static int split_params(const char *d, uint32_t *open, struct span *out,
			int max)
{
	size_t n = strlen(d), i, start;
	int depth = 0, angle = 0, np = 0;

	while (n && d[n - 1] == ' ')
		n--;
	if (!n || d[n - 1] != ')')
		return -1;
	for (i = n; i-- > 0;) {
		if (d[i] == ')')
			depth++;
		else if (d[i] == '(' && --depth == 0)
			break;
	}
	if (depth || i >= n)
		return -1;
	*open = (uint32_t)i;
	start = i + 1;
	for (i = start; i < n - 1; i++) {
		char ch = d[i];

		if (ch == '(' || ch == '[')
			depth++;
		else if ((ch == ')' || ch == ']') && depth)
			depth--;
		else if (!depth && ch == '<')
			angle++;
		else if (!depth && ch == '>' && angle)
			angle--;
		else if (!depth && !angle && ch == ',') {
			if (np == max)
				return -1;
			out[np++] = trim(d + start, i - start);
			start = i + 1;
		}
	}
	out[np] = trim(d + start, n - 1 - start);
	if (!np && (!out[0].n ||
		    (out[0].n == 4 && !memcmp(out[0].s, "void", 4))))
		return 0;
	if (np == max)
		return -1;
	return np + 1;
}

/* Drops trailing " const", " volatile", " restrict" qualifiers. */
static struct span strip_cv(struct span t)
{
	static const char *const q[] = { " const", " volatile", " restrict",
					 " __restrict" };
	size_t i, l;
	int again = 1;

	while (again) {
		again = 0;
		for (i = 0; i < sizeof(q) / sizeof(q[0]); i++) {
			l = strlen(q[i]);
			if (t.n > l && !memcmp(t.s + t.n - l, q[i], l)) {
				t.n -= (uint32_t)l;
				again = 1;
			}
		}
	}
	for (again = 1; again;) {
		again = 0;
		if (t.n > 6 && !memcmp(t.s, "const ", 6))
			t.s += 6, t.n -= 6, again = 1;
		if (t.n > 9 && !memcmp(t.s, "volatile ", 9))
			t.s += 9, t.n -= 9, again = 1;
	}
	return t;
}

static int is_pointer(struct span t)
{
	uint32_t i;

	t = strip_cv(t);
	if (t.n && (t.s[t.n - 1] == '*' || t.s[t.n - 1] == '&'))
		return 1;
	for (i = 0; i + 1 < t.n; i++)
		if (t.s[i] == '(' && (t.s[i + 1] == '*' || t.s[i + 1] == '&'))
			return 1;
	return 0;
}

struct scalar {
	const char *name;
	uint8_t size, v;
};

static const struct scalar scalars[] = {
	{ "bool", 1, LBT_KV_BOOL },
	{ "char", 1, LBT_KV_I64 },
	{ "signed char", 1, LBT_KV_I64 },
	{ "unsigned char", 1, LBT_KV_U64 },
	{ "short", 2, LBT_KV_I64 },
	{ "unsigned short", 2, LBT_KV_U64 },
	{ "int", 4, LBT_KV_I64 },
	{ "unsigned int", 4, LBT_KV_U64 },
	{ "long", 8, LBT_KV_I64 },
	{ "unsigned long", 8, LBT_KV_U64 },
	{ "long long", 8, LBT_KV_I64 },
	{ "unsigned long long", 8, LBT_KV_U64 },
	{ "wchar_t", 4, LBT_KV_I64 },
	{ "char16_t", 2, LBT_KV_U64 },
	{ "char32_t", 4, LBT_KV_U64 },
	{ "float", 4, LBT_KV_F32 },
	{ "double", 8, LBT_KV_F64 },
};

static uint64_t load(const uint8_t *p, uint32_t n)
{
	uint64_t v = 0;

	memcpy(&v, p, n > 8 ? 8 : n); /* little-endian, as the file */
	return v;
}

/* Sets a->v and a->x from the type (or the kind) and the bytes. */
static void classify(struct lbt_karg *a, const struct lbt_kargs *k)
{
	size_t i;

	if ((uint64_t)a->off + a->size > k->have || !a->size) {
		a->v = LBT_KV_CUT;
		return;
	}
	a->x = load(k->bytes + a->off, a->size);
	a->v = LBT_KV_WORDS;
	if (a->type) {
		struct span t = { a->type, a->type_len };

		if (is_pointer(t)) {
			if (a->size == 8)
				a->v = LBT_KV_HEX;
			return;
		}
		t = strip_cv(t);
		for (i = 0; i < sizeof(scalars) / sizeof(scalars[0]); i++) {
			const struct scalar *s = &scalars[i];

			if (strlen(s->name) != t.n || s->size != a->size ||
			    memcmp(s->name, t.s, t.n) != 0)
				continue;
			a->v = s->v;
			if (s->v == LBT_KV_I64 && s->size < 8) {
				unsigned sh = 64 - 8u * s->size;

				a->x = (uint64_t)((int64_t)(a->x << sh) >> sh);
			}
			return;
		}
		return;
	}
	if (a->size == 8 && !strcmp(a->kind, "global_buffer"))
		a->v = LBT_KV_HEX;
}

/* Parses "off:size:kind" entries of layout s into k->a[]. */
static void parse_layout(const char *s, struct lbt_kargs *k)
{
	while (*s) {
		struct lbt_karg *a;
		unsigned long off, size;
		char *e;
		size_t n;

		while (*s == ' ')
			s++;
		if (!*s)
			break;
		if (k->n == LBT_KARGS_MAX) {
			k->more = 1;
			break;
		}
		off = strtoul(s, &e, 10);
		if (e == s || *e != ':')
			break;
		s = e + 1;
		size = strtoul(s, &e, 10);
		if (e == s || *e != ':')
			break;
		s = e + 1;
		n = strcspn(s, " ");
		a = &k->a[k->n++];
		memset(a, 0, sizeof(*a));
		a->off = off > UINT32_MAX ? UINT32_MAX : (uint32_t)off;
		a->size = size > UINT32_MAX ? UINT32_MAX : (uint32_t)size;
		memcpy(a->kind, s, n < sizeof(a->kind) ? n : sizeof(a->kind) - 1);
		s += n;
	}
}

int lbt_kargs_of(const struct lbt_rec *r, struct lbt_kargs *k)
{
	const struct lb_trace_rec *x;
	struct span types[LBT_KARGS_MAX + 1];
	const char *layout;
	uint32_t sid, i, open = 0;
	int nt = -1;

	if (r->type == LB_REC_KARGS)
		x = r->raw;
	else if (r->type == LB_REC_CALL && r->has_kargs)
		x = &r->kargs;
	else
		return 0;
	memset(k, 0, offsetof(struct lbt_kargs, a));
	k->have = x->hdr.note > LB_KARGS_BYTES ? LB_KARGS_BYTES : x->hdr.note;
	memcpy(k->bytes, (const uint8_t *)x + 8, LB_KARGS_BYTES);
	k->cut = !!(x->hdr.flags & LB_KF_CUT);
	sid = (uint16_t)x->hdr.api | (uint32_t)(uint16_t)x->hdr.ret << 16;
	layout = sid ? lbt_string(r->file, sid) : NULL;
	if (layout)
		parse_layout(layout, k);
	if (!k->n) { /* no layout: the bytes as 8-byte words */
		k->untyped = 1;
		for (i = 0; i * 8 < k->have; i++) {
			k->a[i].off = i * 8;
			k->a[i].size = k->have - i * 8 < 8 ? k->have - i * 8 : 8;
			k->a[i].kind[0] = 0;
			k->a[i].type = NULL;
		}
		k->n = i;
	}
	k->name = r->type == LB_REC_CALL ? lbt_rec_kernel(r, 1) : NULL;
	if (k->name) {
		nt = split_params(k->name, &open, types, LBT_KARGS_MAX);
		k->prefix_len = nt >= 0 ? open : (uint32_t)strlen(k->name);
	}
	for (i = 0; i < k->n; i++) {
		if (nt > 0 && nt == (int)k->n && !k->more && !k->untyped) {
			k->a[i].type = types[i].s;
			k->a[i].type_len = types[i].n;
		}
		classify(&k->a[i], k);
	}
	return 1;
}

/* The shortest %g that reads back as the same value. */
static void put_real(struct lbt_out *o, double d, int is_float, int json)
{
	char buf[40];
	int p;

	if (!isfinite(d)) {
		lbt_puts(o, json ? "null" : isnan(d) ? "nan"
					     : d < 0 ? "-inf" : "inf");
		return;
	}
	for (p = is_float ? 6 : 15; p < (is_float ? 9 : 17); p++) {
		snprintf(buf, sizeof(buf), "%.*g", p, d);
		if (is_float ? strtof(buf, NULL) == (float)d
			     : strtod(buf, NULL) == d)
			break;
	}
	snprintf(buf, sizeof(buf), "%.*g", p, d);
	lbt_puts(o, buf);
}

/*
 * A struct's words (see the top of the file); JSON: an array's items.
 * o NULL: only counts them.  Returns how many.
 */
static int put_words(struct lbt_out *o, const struct lbt_kargs *k,
		     const struct lbt_karg *a, int json)
{
	uint32_t pos = 0;
	int n = 0;

	while (pos < a->size) {
		uint32_t rem = a->size - pos, at = a->off + pos;
		uint64_t w;

		if (n++ && o)
			lbt_puts(o, json ? "," : ", ");
		if (rem >= 8 && !(at % 8)) {
			w = load(k->bytes + at, 8);
			if (w >> 44 && !(w >> 48)) {
				pos += 8;
				if (!o)
					continue;
				if (json)
					lbt_putc(o, '"');
				lbt_put_hex(o, w);
				if (json)
					lbt_putc(o, '"');
				continue;
			}
		}
		if (rem >= 4) {
			int32_t v;

			memcpy(&v, k->bytes + at, 4);
			if (o)
				lbt_put_i64(o, v);
			pos += 4;
			continue;
		}
		if (o)
			lbt_put_u64(o, load(k->bytes + at, rem));
		pos += rem;
	}
	return n;
}

static void put_value(struct lbt_out *o, const struct lbt_kargs *k,
		      const struct lbt_karg *a, int json)
{
	struct lbt_karg part;
	float f;
	double d;
	uint32_t b;

	switch (a->v) {
	case LBT_KV_HEX:
		if (json)
			lbt_putc(o, '"');
		lbt_put_hex(o, a->x);
		if (json)
			lbt_putc(o, '"');
		break;
	case LBT_KV_I64:
		lbt_put_i64(o, (int64_t)a->x);
		break;
	case LBT_KV_U64:
		lbt_put_u64(o, a->x);
		break;
	case LBT_KV_BOOL:
		lbt_puts(o, a->x ? "true" : "false");
		break;
	case LBT_KV_F32:
		b = (uint32_t)a->x;
		memcpy(&f, &b, sizeof(f));
		put_real(o, (double)f, 1, json);
		break;
	case LBT_KV_F64:
		memcpy(&d, &a->x, sizeof(d));
		put_real(o, d, 0, json);
		break;
	case LBT_KV_WORDS:
		lbt_putc(o, json ? '[' : '{');
		put_words(o, k, a, json);
		lbt_putc(o, json ? ']' : '}');
		break;
	default:
		if (json || a->off >= k->have) {
			lbt_puts(o, json ? "null" : "...");
			break;
		}
		/* text: the words recorded of an argument cut short */
		part = *a;
		part.size = k->have - a->off;
		lbt_putc(o, '{');
		put_words(o, k, &part, 0);
		lbt_puts(o, ", ...}");
		break;
	}
}

void lbt_kargs_put_text(struct lbt_out *o, const struct lbt_kargs *k)
{
	uint32_t i;

	if (k->name)
		lbt_write(o, k->name, k->prefix_len);
	lbt_putc(o, '(');
	for (i = 0; i < k->n; i++) {
		const struct lbt_karg *a = &k->a[i];

		if (i)
			lbt_puts(o, ", ");
		if (a->type) {
			lbt_write(o, a->type, a->type_len);
			if (a->v != LBT_KV_WORDS &&
			    (a->v != LBT_KV_CUT || a->off >= k->have))
				lbt_putc(o, ' ');
		}
		/* an untyped single word needs no braces */
		if (!a->type && a->v == LBT_KV_WORDS &&
		    put_words(NULL, k, a, 0) == 1)
			put_words(o, k, a, 0);
		else
			put_value(o, k, a, 0);
	}
	if (k->more)
		lbt_puts(o, ", ...");
	lbt_putc(o, ')');
}

void lbt_kargs_put_json(struct lbt_out *o, const struct lbt_kargs *k)
{
	uint32_t i;

	lbt_putc(o, '[');
	for (i = 0; i < k->n; i++) {
		const struct lbt_karg *a = &k->a[i];

		if (i)
			lbt_putc(o, ',');
		lbt_printf(o, "{\"offset\":%u,\"size\":%u,\"kind\":", a->off,
			   a->size);
		lbt_put_json_str(o, a->kind[0] ? a->kind : "unknown");
		if (a->type) {
			char t[256];
			uint32_t n = a->type_len < sizeof(t) - 1
					 ? a->type_len
					 : (uint32_t)sizeof(t) - 1;

			memcpy(t, a->type, n);
			t[n] = 0;
			lbt_puts(o, ",\"type\":");
			lbt_put_json_str(o, t);
		}
		lbt_puts(o, ",\"value\":");
		put_value(o, k, a, 1);
		lbt_putc(o, '}');
	}
	lbt_putc(o, ']');
}
