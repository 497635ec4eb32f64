/*
 * demangle.c - a kernel's name as a person reads it, for the shim's
 * messages at exit (stream0's hazard line), as lbtrace shows it.
 *
 * The shim is plain C and must not bring libstdc++ into a process that
 * has none, so it uses libstdc++'s __cxa_demangle only when the process
 * already has that library: in the global scope (dlsym(RTLD_DEFAULT): a
 * hipcc program links it), else loaded RTLD_LOCAL (dlopen RTLD_NOLOAD
 * never loads: PyTorch's libraries and ROCm's runtime, a C++ library,
 * bring it in that way).  Without it, a small reader of the common forms
 * gives the function's (qualified) name without its parameters; anything
 * it does not know stays mangled.  Called at exit, never on a hot path:
 * the demangler allocates.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include "shim.h"

typedef char *(*lb_cxa_demangle_fn)(const char *, char *, size_t *, int *);

/* libstdc++'s demangler if the process already has it, else NULL. */
static lb_cxa_demangle_fn find_cxa_demangle(void)
{
	void *f = dlsym(RTLD_DEFAULT, "__cxa_demangle");
	void *h;

	if (f)
		return (lb_cxa_demangle_fn)f;
	h = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL | RTLD_NOLOAD);
	if (!h)
		return NULL;
	f = dlsym(h, "__cxa_demangle");
	/* the process keeps its own reference: f stays valid */
	dlclose(h);
	return (lb_cxa_demangle_fn)f;
}

/*
 * One <source-name> (<length><identifier>) at *p, appended to out[*o..n);
 * returns 0 and advances *p, or -1 when it is not one or does not fit.
 */
static int source_name(const char **p, char *out, size_t n, size_t *o)
{
	const char *s = *p;
	size_t len = 0;

	if (*s < '1' || *s > '9')
		return -1;
	while (*s >= '0' && *s <= '9') {
		len = len * 10 + (size_t)(*s++ - '0');
		if (len > 4096)
			return -1;
	}
	if (strnlen(s, len) < len || *o + len >= n)
		return -1;
	memcpy(out + *o, s, len);
	*o += len;
	out[*o] = 0;
	*p = s + len;
	return 0;
}

/*
 * The name part of an Itanium-mangled function name: "_Z8hzk_fillPiii"
 * gives "hzk_fill", "_ZN2ns4scanEPfi" "ns::scan", "_ZL4stepv" "step".
 * Returns 0, or -1 for a form it does not read (templates, operators,
 * substitutions, local names), leaving out[] unspecified.
 */
static int lb_demangle_name(const char *m, char *out, size_t n)
{
	const char *p = m + 2;
	size_t o = 0;

	if (n < 2 || strncmp(m, "_Z", 2) != 0)
		return -1;
	out[0] = 0;
	if (*p == 'L')
		p++; /* internal linkage */
	if (*p != 'N')
		/* a template's arguments follow its name: not read here */
		return source_name(&p, out, n, &o) < 0 || *p == 'I' ? -1 : 0;
	p++;
	while (*p == 'r' || *p == 'V' || *p == 'K')
		p++; /* a member function's cv-qualifiers */
	for (;;) {
		if (source_name(&p, out, n, &o) < 0)
			return -1;
		if (*p == 'E')
			return 0;
		if (o + 2 >= n)
			return -1;
		out[o++] = ':';
		out[o++] = ':';
		out[o] = 0;
	}
}

const char *lb_demangle(const char *name, char *buf, size_t n)
{
	lb_cxa_demangle_fn cxa;
	char *d;
	int status = -1;

	if (!name || !n || strncmp(name, "_Z", 2) != 0)
		return name;
	cxa = find_cxa_demangle();
	if (cxa) {
		d = cxa(name, NULL, NULL, &status);
		if (d && !status) {
			strncpy(buf, d, n - 1);
			buf[n - 1] = 0;
			free(d);
			return buf;
		}
		free(d);
	}
	return lb_demangle_name(name, buf, n) ? name : buf;
}

const char *lb_demangle_plain(const char *name, char *buf, size_t n)
{
	if (!name || !n || lb_demangle_name(name, buf, n))
		return name;
	return buf;
}
