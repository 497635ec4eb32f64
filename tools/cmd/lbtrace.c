/*
 * lbtrace.c - the command line: `lbtrace COMMAND [OPTIONS] [FILES]`.
 * Parses options, opens the traces, runs the command's format.
 *
 * Exit status: 0 success, 1 bad usage (one line, then the usage), 2 a
 * file that cannot be read or is not a valid trace (the others are still
 * shown).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "ab/ab.h"
#include "format/fmt.h"
#include "ab/runner.h"
#include "lbshim/version.h"
#include "read/paths.h"

struct cmd {
	const char *name;
	const char *usage;
};

static const struct cmd cmds[] = {
    {"print", "print [--json] [FILTERS] FILE...\n"
	      "    one line per record (--json: one JSON object per line)"},
    {"summary", "summary [--nsys] [FILTERS] FILE...\n"
		"    per API and per kernel: calls, errors, total, mean, "
		"p50, p99, max\n    (--nsys: in the columns of nsys stats' "
		"cuda_api_sum and, host side,\n    cuda_gpu_kern_sum)"},
    {"crash", "crash [--calls N] [--registrations] FILE...\n"
	      "    signal, address, thread, backtrace, calls in flight "
	      "and the last N (20)\n    calls of every thread "
	      "(--registrations: kernel registrations too)"},
    {"export", "export --format chrome [FILTERS] -o OUT.json FILE...\n"
	       "    a timeline for Perfetto or chrome://tracing\n"
	       "  export --svg OUT.svg [--window [START,]LEN] [FILTERS] "
	       "FILE...\n"
	       "    the timeline drawn: a panel per file, a lane per thread; "
	       "LEN ms (200)\n    from START ms of each trace (default: "
	       "its busiest thread's first launch)"},
};

/* Commands that parse their own options (tools/ab.c, tools/runner.c). */
static const struct {
	const char *name;
	const char *usage;
	int (*main)(int argc, char **argv);
} own_cmds[] = {
    {"ab", "ab [--json] [--svg FILE] A... --vs B...\n"
	   "    compare two groups of traces: medians, p99, B/A with a 95% "
	   "interval", lbt_cmd_ab},
    {"run", "run [-n N] [--ab A/B] [-o DIR] -- CMD...\n"
	    "    run CMD under the shim N times (alternating two policy sets "
	    "with --ab)", lbt_cmd_run},
};

#define NOWN (int)(sizeof(own_cmds) / sizeof(own_cmds[0]))

#define NCMDS (int)(sizeof(cmds) / sizeof(cmds[0]))

static const char filters[] =
    "filters:\n"
    "    --api GLOB      only calls of the APIs matching GLOB\n"
    "    --kernel GLOB   only launches of kernels matching GLOB\n"
    "    --tid N         only records of thread N\n"
    "    --errors        only failed calls (and crashes)\n"
    "    --last N        only the last N records that pass\n";

static const char files_note[] =
    "FILE: a trace, or a directory searched for *.lbt files\n";

static void usage(FILE *f, const struct cmd *c)
{
	int i;

	if (c) {
		fprintf(f, "usage: lbtrace %s\n", c->usage);
		fputs(files_note, f);
		if (strcmp(c->name, "crash") != 0)
			fputs(filters, f);
		return;
	}
	fputs("usage: lbtrace COMMAND [OPTIONS] FILE...\n"
	      "       lbtrace COMMAND --help\n"
	      "       lbtrace --version\ncommands:\n",
	      f);
	for (i = 0; i < NCMDS; i++)
		fprintf(f, "  %s\n", cmds[i].usage);
	for (i = 0; i < NOWN; i++)
		fprintf(f, "  %s\n", own_cmds[i].usage);
	fputs(filters, f);
	fputs(files_note, f);
	fputs("Several files (processes, ranks) are merged by wall time.\n"
	      "See lbtrace(1).\n",
	      f);
}

static int bad_usage(const struct cmd *c, const char *fmt, const char *arg)
{
	fputs("lbtrace: ", stderr);
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	usage(stderr, c);
	return 1;
}

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;

	if (!s || !*s || *s == '-')
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return errno || *end ? -1 : 0;
}

/*
 * --window [START,]LEN: milliseconds (decimals allowed) as ns; START >= 0,
 * 0 < LEN <= 1e9 ms.  0, or -1 when S does not parse.
 */
static int parse_window(const char *s, struct lbt_opts *opt)
{
	const char *comma = s ? strchr(s, ',') : NULL;
	double v[2] = {0, 0};
	char *end;
	int i, n = comma ? 2 : 1;

	for (i = 0; i < n; i++) {
		const char *p = i == 0 ? s : comma + 1;

		if (!p || !*p || *p == ',' || *p == ' ')
			return -1;
		errno = 0;
		v[i] = strtod(p, &end);
		if (errno || end == p || !isfinite(v[i]) || v[i] < 0 ||
		    v[i] > 1e9 || (i == 0 && n == 2 ? end != comma : *end))
			return -1;
	}
	if (v[n - 1] <= 0 || v[n - 1] * 1e6 < 1)
		return -1;
	opt->win_len_ns = (int64_t)(v[n - 1] * 1e6 + 0.5);
	if (n == 2) {
		opt->win_start_set = 1;
		opt->win_start_ns = (int64_t)(v[0] * 1e6 + 0.5);
	}
	return 0;
}

struct args {
	struct lbt_opts opt;
	int json, help, nsys;
	const char *format, *out, *svg;
	int window;
	int nfiles;
	char **files;
};

/* Option ARGV[*I] for command C; may take the next word.  0 or exit 1. */
static int option(const struct cmd *c, struct args *a, int argc, char **argv,
		  int *i)
{
	const char *o = argv[*i], *val = NULL, *eq = strchr(o, '=');
	char name[32];
	uint64_t n;
	int is_print = !strcmp(c->name, "print");
	int is_crash = !strcmp(c->name, "crash");
	int is_export = !strcmp(c->name, "export");
	int is_summary = !strcmp(c->name, "summary");
	size_t len = eq ? (size_t)(eq - o) : strlen(o);

	if (len >= sizeof(name))
		return bad_usage(c, "unknown option %s", o);
	memcpy(name, o, len);
	name[len] = 0;
#define TAKES(opt)                                                          \
	(!strcmp(name, opt)                                                 \
	     ? (val = eq ? eq + 1 : (*i + 1 < argc ? argv[++*i] : NULL), 1) \
	     : 0)
	if (!strcmp(name, "--help") || !strcmp(name, "-h")) {
		a->help = 1;
	} else if (is_print && !strcmp(name, "--json") && !eq) {
		a->json = 1;
	} else if (is_summary && !strcmp(name, "--nsys") && !eq) {
		a->nsys = 1;
	} else if (!is_crash && !strcmp(name, "--errors") && !eq) {
		a->opt.errors = 1;
	} else if (!is_crash && (TAKES("--api") || TAKES("--kernel"))) {
		if (!val)
			return bad_usage(c, "%s needs a pattern", name);
		if (name[2] == 'a')
			a->opt.api_glob = val;
		else
			a->opt.kernel_glob = val;
	} else if (!is_crash && TAKES("--tid")) {
		if (parse_u64(val, &n) || n > UINT32_MAX)
			return bad_usage(c, "--tid needs a thread id, not '%s'",
					 val ? val : "");
		a->opt.tid_set = 1;
		a->opt.tid = (uint32_t)n;
	} else if (!is_crash && TAKES("--last")) {
		if (parse_u64(val, &n) || !n)
			return bad_usage(c,
					 "--last needs a count > 0, not '%s'",
					 val ? val : "");
		a->opt.last = n;
	} else if (is_crash && TAKES("--calls")) {
		if (parse_u64(val, &n) || !n || n > 1000000)
			return bad_usage(c,
					 "--calls needs a count 1..1000000, "
					 "not '%s'",
					 val ? val : "");
		a->opt.crash_calls = n;
	} else if (is_crash && !strcmp(name, "--registrations") && !eq) {
		a->opt.registrations = 1;
	} else if (is_export && TAKES("--format")) {
		if (!val || strcmp(val, "chrome") != 0)
			return bad_usage(c,
					 "unknown export format '%s' "
					 "(known: chrome)",
					 val ? val : "");
		a->format = val;
	} else if (is_export && (TAKES("-o") || TAKES("--output"))) {
		if (!val)
			return bad_usage(c, "%s needs a file name", name);
		a->out = val;
	} else if (is_export && TAKES("--svg")) {
		if (!val || !*val)
			return bad_usage(c, "%s needs a file name", name);
		a->svg = val;
	} else if (is_export && TAKES("--window")) {
		if (parse_window(val, &a->opt))
			return bad_usage(c,
					 "--window needs [START,]LEN in ms "
					 "(START >= 0, 0 < LEN <= 1e9), "
					 "not '%s'",
					 val ? val : "");
		a->window = 1;
	} else {
		return bad_usage(c, "unknown option %s", o);
	}
#undef TAKES
	return 0;
}

static int parse(const struct cmd *c, struct args *a, int argc, char **argv)
{
	int i, rest = 0;

	a->files = calloc(argc + 1, sizeof(*a->files));
	if (!a->files) {
		fputs("lbtrace: out of memory\n", stderr);
		return 2;
	}
	for (i = 2; i < argc; i++) {
		if (!rest && !strcmp(argv[i], "--")) {
			rest = 1;
		} else if (!rest && argv[i][0] == '-' && argv[i][1]) {
			if (option(c, a, argc, argv, &i))
				return 1;
			if (a->help)
				return 0;
		} else {
			a->files[a->nfiles++] = argv[i];
		}
	}
	if (!strcmp(c->name, "export") && !a->format && !a->svg)
		return bad_usage(c, "%s",
				 "export needs --format chrome or --svg FILE");
	if (a->svg && (a->format || a->out))
		return bad_usage(c, "%s",
				 "export: --svg FILE is its own output; give "
				 "it without --format and -o");
	if (a->window && !a->svg)
		return bad_usage(c, "%s", "export: --window is for --svg");
	if (!a->nfiles)
		return bad_usage(c, "%s: no trace file given", c->name);
	return 0;
}

static int color_wanted(void)
{
	const char *nc = getenv("NO_COLOR");

	return isatty(1) && !(nc && *nc);
}

static int run(const struct cmd *c, struct args *a)
{
	const struct lbt_fmt *fmt;
	struct lbt_set *set = lbt_set_new(stderr);
	struct lbt_out *o = malloc(sizeof(*o));
	FILE *out = stdout;
	struct lbt_paths ps = { 0 };
	size_t j;
	int i, r, bad = 0, rc;

	if (!set || !o) {
		fputs("lbtrace: out of memory\n", stderr);
		free(o);
		lbt_set_free(set);
		return 2;
	}
	/* statistics read each record once: the scan rides along */
	lbt_set_lazy(set, !strcmp(c->name, "summary") && !a->opt.last);
	/*
	 * Every file that can be read is read, each that cannot is named
	 * (lbtrace crash rank*.lbt with one bad rank still shows the
	 * others), and the status says that some were not.
	 */
	for (i = 0; i < a->nfiles; i++) {
		r = lbt_paths_add(&ps, a->files[i], stderr);
		if (r < 0) {
			rc = 2;
			goto out;
		}
		bad |= r;
	}
	for (j = 0; j < ps.n; j++)
		bad |= lbt_set_add(set, ps.v[j].path) != 0;
	if (!lbt_set_nfiles(set)) {
		rc = 2; /* nothing to show; what was wrong is said */
		goto out;
	}
	if (!strcmp(c->name, "print"))
		fmt = a->json ? &lbt_fmt_json : &lbt_fmt_text;
	else if (!strcmp(c->name, "summary"))
		fmt = a->nsys ? &lbt_fmt_nsys : &lbt_fmt_summary;
	else if (!strcmp(c->name, "crash"))
		fmt = &lbt_fmt_crash;
	else
		fmt = a->svg ? &lbt_fmt_svg : &lbt_fmt_chrome;
	if (a->svg)
		a->out = a->svg;
	if (a->out && strcmp(a->out, "-") != 0) {
		out = fopen(a->out, "w");
		if (!out) {
			fprintf(stderr, "lbtrace: %s: %s\n", a->out,
				strerror(errno));
			rc = 2;
			goto out;
		}
	}
	lbt_out_init(o, out,
		     fmt == &lbt_fmt_text || fmt == &lbt_fmt_crash
			 ? (out == stdout && color_wanted())
			 : 0);
	a->opt.color = o->color;
	rc = lbt_run_fmt(fmt, set, o, &a->opt);
	if (out != stdout && fclose(out) && !rc)
		rc = 2;
	if (o->error)
		fprintf(stderr, "lbtrace: %s: write error\n",
			a->out ? a->out : "standard output");
	if (!rc && (bad || lbt_set_corrupt(set)))
		rc = 2;
out:
	free(o);
	lbt_set_free(set);
	lbt_paths_free(&ps);
	return rc;
}

int main(int argc, char **argv)
{
	struct args a = {0};
	const struct cmd *c = NULL;
	int i, rc;

	if (argc < 2)
		return bad_usage(NULL, "%s", "no command given");
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout, NULL);
		return 0;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		/* the shim's version too: both are built from one tree */
		printf("lbtrace %s\n", LB_VERSION);
		return fflush(stdout) || ferror(stdout) ? 2 : 0;
	}
	for (i = 0; i < NOWN; i++)
		if (!strcmp(argv[1], own_cmds[i].name))
			return own_cmds[i].main(argc - 1, argv + 1);
	for (i = 0; i < NCMDS; i++)
		if (!strcmp(argv[1], cmds[i].name))
			c = &cmds[i];
	if (!c)
		return bad_usage(NULL, "unknown command '%s'", argv[1]);
	rc = parse(c, &a, argc, argv);
	if (!rc && a.help) {
		usage(stdout, c);
	} else if (!rc) {
		rc = run(c, &a);
	}
	free(a.files);
	return rc;
}
