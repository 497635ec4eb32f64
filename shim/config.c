/*
 * config.c - the environment, read once at first use.
 *
 * secure_getenv(): a setuid or setgid program reads no configuration, so
 * every policy stays off and the shim writes nothing.  A value that does
 * not parse gets one warning naming the variable, the value and what is
 * accepted; the setting keeps its default.  Nothing here ever exits.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdio.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "shim.h"
#include "config.h"

static char lb_listed[3]; /* trace, stream0, pool */
static const char *const lb_policy_names[] = { "trace", "stream0", "pool" };

const char *lb_getenv(const char *name)
{
	return secure_getenv(name);
}

/* Shows a value in a warning: at most 64 bytes, non-printables as '?'. */
static const char *lb_show(const char *v, char *buf, size_t n)
{
	size_t i;

	for (i = 0; v[i] && i + 1 < n && i < 64; i++)
		buf[i] = isprint((unsigned char)v[i]) ? v[i] : '?';
	buf[i] = 0;
	if (v[i] && i >= 64 && i + 4 < n)
		memcpy(buf + i, "...", 4);
	return buf;
}

int lb_parse_size(const char *s, uint64_t *out)
{
	unsigned long long v;
	unsigned shift = 0;
	char *end;

	if (!s || !*s || !isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -1;
	switch (*end) {
	case 'k': case 'K': shift = 10; end++; break;
	case 'm': case 'M': shift = 20; end++; break;
	case 'g': case 'G': shift = 30; end++; break;
	case 't': case 'T': shift = 40; end++; break;
	default: break;
	}
	if (shift && (*end == 'i' || *end == 'I'))
		end++;
	if (shift && (*end == 'b' || *end == 'B'))
		end++;
	if (*end)
		return -1;
	if (shift && v > (UINT64_MAX >> shift))
		return -1;
	*out = (uint64_t)v << shift;
	return 0;
}

int lb_env_size(const char *name, uint64_t *out)
{
	const char *v = lb_getenv(name);
	uint64_t x;
	char buf[80];

	if (!v)
		return 0;
	if (lb_parse_size(v, &x)) {
		lb_log(LB_LOG_WARN,
		       "%s=\"%s\": not a size (accepted: a number of bytes "
		       "with an optional K, M, G or T suffix); keeping the "
		       "default",
		       name, lb_show(v, buf, sizeof(buf)));
		return 0;
	}
	*out = x;
	return 1;
}

int lb_env_choice(const char *name, const char *const *choices, int dflt)
{
	const char *v = lb_getenv(name);
	char list[256] = "", buf[80];
	int i;

	if (!v)
		return dflt;
	for (i = 0; choices[i]; i++)
		if (!strcmp(v, choices[i]))
			return i;
	for (i = 0; choices[i]; i++) {
		if (i)
			strncat(list, ", ", sizeof(list) - strlen(list) - 1);
		strncat(list, choices[i], sizeof(list) - strlen(list) - 1);
	}
	lb_log(LB_LOG_WARN, "%s=\"%s\": not one of %s; keeping \"%s\"", name,
	       lb_show(v, buf, sizeof(buf)), list, choices[dflt]);
	return dflt;
}

/* LBSHIM_POLICIES: comma list of names, or "all" / "none". */
static void lb_parse_policies(void)
{
	const char *v = lb_getenv("LBSHIM_POLICIES");
	const char *p, *q;
	char buf[80];
	unsigned i;

	if (!v)
		return;
	for (p = v; *p; p = *q ? q + 1 : q) {
		size_t n;
		int ok = 0;

		q = strchr(p, ',');
		if (!q)
			q = p + strlen(p);
		n = q - p;
		while (n && isspace((unsigned char)*p))
			p++, n--;
		while (n && isspace((unsigned char)p[n - 1]))
			n--;
		if (!n)
			continue;
		if (n == 3 && !strncmp(p, "all", 3)) {
			memset(lb_listed, 1, sizeof(lb_listed));
			ok = 1;
		} else if (n == 4 && !strncmp(p, "none", 4)) {
			ok = 1;
		}
		for (i = 0; !ok && i < sizeof(lb_listed); i++) {
			if (strlen(lb_policy_names[i]) == n &&
			    !strncmp(p, lb_policy_names[i], n)) {
				lb_listed[i] = 1;
				ok = 1;
			}
		}
		if (!ok) {
			snprintf(buf, sizeof(buf), "%.*s", (int)(n > 40 ? 40 : n),
				 p);
			lb_log(LB_LOG_WARN,
			       "LBSHIM_POLICIES: unknown policy \"%s\" "
			       "(accepted: trace, stream0, pool, all, none); "
			       "ignored",
			       lb_show(buf, buf, sizeof(buf)));
		}
	}
}

int lb_config_lists(const char *policy)
{
	unsigned i;

	for (i = 0; i < sizeof(lb_listed); i++)
		if (!strcmp(policy, lb_policy_names[i]))
			return lb_listed[i];
	return 0;
}

void lb_config_read(struct lb_config *cfg)
{
	static const char *const levels[] = { "error", "warn", "info",
					      "debug", NULL };

	memset(lb_listed, 0, sizeof(lb_listed));
	lb_log_level = lb_env_choice("LBSHIM_LOG", levels, LB_LOG_WARN);
	lb_parse_policies();
	cfg->hip_library = lb_getenv("LBSHIM_HIP_LIBRARY");
	if (cfg->hip_library && !*cfg->hip_library) {
		lb_log(LB_LOG_WARN,
		       "LBSHIM_HIP_LIBRARY is empty (accepted: a path or "
		       "library name); finding the runtime as usual");
		cfg->hip_library = NULL;
	}
	/* read where a CUDA library is found (resolve_cuda.c); said here */
	if (lb_getenv("LBSHIM_CUDA_LIBRARY") && !*lb_getenv("LBSHIM_CUDA_LIBRARY"))
		lb_log(LB_LOG_WARN, "LBSHIM_CUDA_LIBRARY is empty (accepted: a "
		       "path or library name); finding the runtime as usual");
	if (lb_getenv("LBSHIM_CUDA_DRIVER") && !*lb_getenv("LBSHIM_CUDA_DRIVER"))
		lb_log(LB_LOG_WARN, "LBSHIM_CUDA_DRIVER is empty (accepted: a "
		       "path or library name); finding the driver as usual");
}
