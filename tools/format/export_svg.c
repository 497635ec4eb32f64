/*
 * export_svg.c - `lbtrace export --svg FILE`: the timeline drawn as a
 * picture, for people who would rather look than load a trace viewer
 * (Perfetto's UI needs the network; any browser opens an SVG).
 *
 * Each file is a panel, one above the other, all on one time axis: the
 * same window length, each from its own start, so that two runs (legacy
 * and stream0) compare at a glance.  A panel has a lane per thread, and
 * each call is a bar from its entry to its return, coloured by its kind
 * from the API table (launch, sync, copy/set, alloc/free, other), with
 * the kernel's name on launch bars and the wait on sync bars where they
 * fit.  Calls in flight when the trace ended are drawn as the Chrome
 * export draws them (lbt_shown_dur), with a dashed outline; a crash is a
 * red line on its thread's lane.
 *
 * Size stays bounded whatever the trace: bars narrower than a pixel (more
 * when many lanes share the budget) are merged into runs, drawn lighter
 * as dense as they were busy, so a lane holds at most about two elements
 * per merge width (MAX_ELEMS in all), and past a hard cap everything
 * merges.  Plain SVG 1.1 with presentation attributes (no CSS), so that
 * librsvg and ImageMagick render it as a browser does.
 */
#include <stdlib.h>
#include <string.h>
#include "lbshim/api.h"
#include "lbshim/names.h"
#include "format/fmt.h"

#define W 1400		     /* picture width */
#define LEFT 170	     /* lane names */
#define PW 1180		     /* plot width (W - LEFT - 50) */
#define LANE_H 18
#define LANE_GAP 4
#define PANEL_HEAD 36	     /* a panel's two heading lines */
#define PANEL_GAP 12
#define TOP 104		     /* title, legend, axis labels */
#define MAX_ELEMS 8000	     /* bars the merging aims at, in all */
#define HARD_ELEMS 24000     /* past this, every bar merges */
#define RUN_W 4		     /* a merged run ends at this many merge widths */
#define CHAR_W 6.0	     /* a 10 px sans-serif character, wide side */
#define DEF_LEN_NS 200000000 /* default window: 200 ms */

enum { K_LAUNCH, K_SYNC, K_COPY, K_MEM, K_OTHER, NK };

static const struct {
	const char *cls, *fill, *legend;
} kinds[NK] = {
    {"launch", "#4c78a8", "launch"},
    {"sync", "#d62728", "synchronize (a wait)"},
    {"copy", "#54a24b", "copy, set"},
    {"mem", "#f58518", "alloc, free"},
    {"other", "#9a9a9a", "other"},
};

/* One thread's lane, with the run of narrow bars not yet drawn. */
struct lane {
	int y;		  /* top; -1: not drawn (--tid) */
	double m0, m1;	  /* the run's extent, px */
	uint32_t mn;	  /* its calls, 0: none pending */
	int64_t mt0, mt1; /* its extent, ns */
	int64_t mk[NK];	  /* its time in calls per kind, ns */
	const struct lbt_rec *one; /* its call while it has one */
	struct lbt_rec keep;	   /* (that call, kept) */
};

struct panel {
	const struct lbt_file *f;
	int64_t ws;	/* window start, set ns */
	int64_t file0;	/* the file's start, set ns */
	int anchor;	/* thread the default window starts at, -1 */
	int y;		/* top of its heading */
	struct lane *lanes; /* by index in f->threads */
};

struct svg {
	struct lbt_out *o;
	const struct lbt_opts *opt;
	int np;
	struct panel *p;
	int64_t wl;  /* window length, ns */
	double mpx;  /* bars narrower than this (px) are merged */
	uint64_t nelem;
	int bottom; /* below the last lane */
};

/* S as XML character data: markup escaped, control characters and bytes
 * that are not UTF-8 (XML would reject the file) shown as '?'. */
static void put_xml(struct lbt_out *o, const char *s, size_t max)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = 0;

	while (*p && n++ < max) {
		int len = *p < 0x80 ? 1 : *p >= 0xc2 && *p <= 0xdf ? 2
				      : *p >= 0xe0 && *p <= 0xef ? 3
				      : *p >= 0xf0 && *p <= 0xf4 ? 4 : 0;
		int i, ok = len > 0;

		for (i = 1; ok && i < len; i++)
			ok = (p[i] & 0xc0) == 0x80;
		if (ok && len == 3)
			ok = !(p[0] == 0xe0 && p[1] < 0xa0) &&
			     !(p[0] == 0xed && p[1] >= 0xa0) &&
			     !(p[0] == 0xef && p[1] == 0xbf && p[2] >= 0xbe);
		if (ok && len == 4)
			ok = !(p[0] == 0xf0 && p[1] < 0x90) &&
			     !(p[0] == 0xf4 && p[1] >= 0x90);
		if (!ok || (*p < 0x20 && *p != '\t')) {
			lbt_putc(o, '?');
			p++;
			continue;
		}
		if (*p == '<')
			lbt_puts(o, "&lt;");
		else if (*p == '>')
			lbt_puts(o, "&gt;");
		else if (*p == '&')
			lbt_puts(o, "&amp;");
		else if (*p == '"')
			lbt_puts(o, "&quot;");
		else
			lbt_write(o, (const char *)p, len);
		p += len;
	}
	if (*p)
		lbt_puts(o, "...");
}

static void put_ms(struct lbt_out *o, int64_t ns)
{
	lbt_put_fixed(o, ns, 1000000, 3);
	lbt_puts(o, " ms");
}

/* NS shortly: "0.042 ms", "15.4 ms", "250 ms", "12.5 s". */
static void short_dur(char *b, size_t n, int64_t ns)
{
	double ms = (double)ns / 1e6;

	if (ms < 0.1)
		snprintf(b, n, "%.3f ms", ms);
	else if (ms < 100)
		snprintf(b, n, "%.3g ms", ms);
	else if (ms < 10000)
		snprintf(b, n, "%.0f ms", ms);
	else
		snprintf(b, n, "%.1f s", ms / 1e3);
}

/* Which of the picture's kinds call R is, by its API's kind and role. */
static int kind_of(const struct lbt_rec *r)
{
	switch (r->kind) {
	case LB_KIND_LAUNCH:
		return K_LAUNCH;
	case LB_KIND_SYNC: /* a query is an answer, not a wait */
		return lbt_api_is_query(r->api) ? K_OTHER : K_SYNC;
	case LB_KIND_COPY:
	case LB_KIND_SET:
		return K_COPY;
	case LB_KIND_ALLOC:
	case LB_KIND_FREE:
		return K_MEM;
	default:
		return K_OTHER;
	}
}

static double x_of(const struct svg *s, const struct panel *p, int64_t t)
{
	return LEFT + (double)(t - p->ws) * PW / (double)s->wl;
}

static const char *policies(uint32_t bits, char *b, size_t n)
{
	snprintf(b, n, "%s%s%s%s", bits & 1 ? ",trace" : "",
		 bits & 2 ? ",stream0" : "", bits & 4 ? ",pool" : "",
		 bits & 7 ? "" : ",none");
	return b + 1;
}

/*
 * The default window of each file: from the first launch of its busiest
 * thread (the most launches), where the work of interest starts; a file
 * without launches from its first record.  One unfiltered pass.
 */
static int anchors(struct svg *s, struct lbt_set *set)
{
	size_t np = s->np > 0 ? (size_t)s->np : 1;
	uint64_t **nl = calloc(np, sizeof(*nl));
	int64_t **first = calloc(np, sizeof(*first));
	const struct lbt_rec *r;
	int i, rc = -1;
	uint32_t t;

	if (!nl || !first)
		goto out;
	for (i = 0; i < s->np; i++) {
		uint32_t n = s->p[i].f->nthreads;

		nl[i] = calloc(n ? n : 1, sizeof(**nl));
		first[i] = calloc(n ? n : 1, sizeof(**first));
		if (!nl[i] || !first[i])
			goto out;
	}
	lbt_rewind(set, LBT_UNORDERED);
	while ((r = lbt_next(set))) {
		const struct lbt_file *f = r->file;
		uint32_t ti = (uint32_t)(r->thread - f->threads);

		if (r->type != LB_REC_CALL || r->kind != LB_KIND_LAUNCH ||
		    f->index >= s->np || ti >= f->nthreads)
			continue;
		if (!nl[f->index][ti]++ || r->t_ns < first[f->index][ti])
			first[f->index][ti] = r->t_ns;
	}
	for (i = 0; i < s->np; i++) {
		struct panel *p = &s->p[i];

		p->anchor = -1;
		for (t = 0; t < p->f->nthreads; t++)
			if (nl[i][t] && (p->anchor < 0 ||
					 nl[i][t] > nl[i][p->anchor]))
				p->anchor = (int)t;
		if (s->opt->win_start_set)
			p->ws = p->file0 + s->opt->win_start_ns;
		else if (p->anchor >= 0)
			p->ws = first[i][p->anchor];
		else
			p->ws = p->file0 + p->f->first_t_ns;
	}
	rc = 0;
out:
	for (i = 0; i < s->np; i++) {
		free(nl ? nl[i] : NULL);
		free(first ? first[i] : NULL);
	}
	free(nl);
	free(first);
	return rc;
}

/*
 * The merge width: 1 px, or wider when the calls in the windows would
 * make more than MAX_ELEMS bars.  A lane draws at most about 2 elements
 * per merge width (a bar at least that wide, or a run and what ends it)
 * and at most one per call, so the width is the least, in steps of 10%,
 * that keeps the sum over lanes of min(calls, 2 * PW / width) in budget.
 */
static int merge_width(struct svg *s, struct lbt_set *set)
{
	size_t np = s->np > 0 ? (size_t)s->np : 1;
	uint64_t **n = calloc(np, sizeof(*n)), sum;
	const struct lbt_rec *r;
	int i, rc = -1;
	uint32_t t;

	for (i = 0; n && i < s->np; i++)
		if (!(n[i] = calloc(s->p[i].f->nthreads ? s->p[i].f->nthreads
							 : 1,
				    sizeof(**n))))
			goto out;
	if (!n)
		goto out;
	lbt_rewind(set, LBT_UNORDERED);
	while ((r = lbt_next(set))) {
		const struct panel *p;
		uint32_t ti = (uint32_t)(r->thread - r->file->threads);

		if (r->type != LB_REC_CALL || r->file->index >= s->np ||
		    ti >= r->file->nthreads)
			continue;
		p = &s->p[r->file->index];
		if (r->t_ns <= p->ws + s->wl &&
		    r->t_ns + lbt_shown_dur(r) >= p->ws)
			n[r->file->index][ti]++;
	}
	for (s->mpx = 1;; s->mpx *= 1.1) {
		double cap = 2.0 * PW / s->mpx + 2;

		sum = 0;
		for (i = 0; i < s->np; i++)
			for (t = 0; t < s->p[i].f->nthreads; t++)
				if (s->p[i].lanes[t].y >= 0)
					sum += n[i][t] < cap ? n[i][t]
							     : (uint64_t)cap;
		if (sum <= MAX_ELEMS || s->mpx > PW)
			break;
	}
	rc = 0;
out:
	for (i = 0; n && i < s->np; i++)
		free(n[i]);
	free(n);
	return rc;
}

/* Time grid and its labels (ms from each panel's window start). */
static void axis(struct svg *s)
{
	static const int mult[] = {1, 2, 5};
	double len_ms = (double)s->wl / 1e6, step = 1e-6;
	int i, k;

	for (k = 0; len_ms / (step * mult[k % 3]) > 10; k++)
		if (k % 3 == 2)
			step *= 10;
	step *= mult[k % 3];
	for (i = 0; i * step <= len_ms * (1 + 1e-9) && i <= 20; i++) {
		double x = LEFT + i * step / len_ms * PW;

		lbt_printf(s->o,
			   "<line x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%d\" "
			   "stroke=\"#ccc\"/>\n",
			   x, TOP, x, s->bottom);
		for (k = 0; k < 2; k++)
			lbt_printf(s->o,
				   "<text x=\"%.2f\" y=\"%d\" font-size=\"10\" "
				   "text-anchor=\"middle\" fill=\"#555\">%.6g"
				   "</text>\n",
				   x, k ? s->bottom + 13 : TOP - 5, i * step);
	}
	lbt_printf(s->o,
		   "<text x=\"%d\" y=\"%d\" font-size=\"10\" "
		   "text-anchor=\"end\" fill=\"#555\">ms from the window's "
		   "start</text>\n",
		   LEFT - 8, TOP - 5);
	lbt_printf(s->o,
		   "<text x=\"%d\" y=\"%d\" font-size=\"10\" "
		   "text-anchor=\"end\" fill=\"#555\">ms</text>\n",
		   LEFT - 8, s->bottom + 13);
}

static void legend(struct svg *s, int y)
{
	int i, x = 10;

	for (i = 0; i < NK; i++) {
		lbt_printf(s->o,
			   "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"10\" "
			   "fill=\"%s\"/><text x=\"%d\" y=\"%d\" "
			   "font-size=\"11\">%s</text>\n",
			   x, y - 9, kinds[i].fill, x + 18, y, kinds[i].legend);
		x += 36 + (int)(strlen(kinds[i].legend) * 7);
	}
	lbt_printf(s->o,
		   "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"10\" "
		   "fill=\"#4c78a8\" fill-opacity=\"0.45\"/><text x=\"%d\" "
		   "y=\"%d\" font-size=\"11\">calls narrower than %.3g px, "
		   "merged (shade: time in calls)</text>\n",
		   x, y - 9, x + 18, y, s->mpx);
	x += 420;
	lbt_printf(s->o,
		   "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"10\" "
		   "fill=\"#d62728\" fill-opacity=\"0.5\" stroke=\"#000\" "
		   "stroke-dasharray=\"3,2\"/><text x=\"%d\" y=\"%d\" "
		   "font-size=\"11\">in flight, no return</text>\n",
		   x, y - 9, x + 18, y);
	x += 180;
	lbt_printf(s->o,
		   "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
		   "stroke=\"#b00\" stroke-width=\"2\"/><text x=\"%d\" "
		   "y=\"%d\" font-size=\"11\">crash</text>\n",
		   x + 7, y - 11, x + 7, y + 2, x + 18, y);
}

/* A panel's heading and its lanes' names and backgrounds. */
static void panel_head(struct svg *s, struct panel *p)
{
	const struct lbt_file *f = p->f;
	struct lbt_out *o = s->o;
	const char *path = f->path;
	char pb[32];
	uint32_t t;

	lbt_printf(o, "<g class=\"panel\" data-file=\"");
	put_xml(o, path, 4096);
	lbt_printf(o, "\" data-x0=\"%d\" data-px-per-ms=\"%.9g\">\n", LEFT,
		   PW / ((double)s->wl / 1e6));
	if (strlen(path) > 90)
		path += strlen(path) - 87;
	lbt_printf(o, "<text x=\"10\" y=\"%d\" font-size=\"13\" "
		      "font-weight=\"bold\">%s", p->y + 14,
		   path == f->path ? "" : "...");
	put_xml(o, path, 90);
	lbt_printf(o, " (policies: %s, pid %u)</text>\n",
		   policies(f->hdr.policies, pb, sizeof(pb)), f->hdr.pid);
	lbt_printf(o, "<text x=\"10\" y=\"%d\" font-size=\"11\" "
		      "fill=\"#444\">",
		   p->y + 29);
	put_xml(o, f->hdr.cmdline[0] ? f->hdr.cmdline : "?", 110);
	lbt_puts(o, " - window from ");
	put_ms(o, p->ws - p->file0);
	lbt_puts(o, " of the trace");
	if (!s->opt->win_start_set && p->anchor >= 0) {
		lbt_puts(o, ", the first launch of its busiest thread, ");
		put_xml(o, lbt_thread_name(f, &f->threads[p->anchor]), 64);
	}
	lbt_puts(o, "</text>\n");
	for (t = 0; t < f->nthreads; t++) {
		const struct lbt_thread *th = &f->threads[t];
		int y = p->lanes[t].y;

		if (y < 0)
			continue;
		lbt_printf(o,
			   "<rect class=\"lane\" x=\"%d\" y=\"%d\" "
			   "width=\"%d\" height=\"%d\" fill=\"#f2f2f2\"/>\n"
			   "<text class=\"lane-name\" x=\"%d\" y=\"%d\" "
			   "font-size=\"11\" text-anchor=\"end\">",
			   LEFT, y, PW, LANE_H, LEFT - 8, y + 13);
		put_xml(o, lbt_thread_name(f, th), 64);
		lbt_printf(o, " <tspan fill=\"#888\" font-size=\"9\">%u"
			      "</tspan></text>\n",
			   th->tid);
	}
	lbt_puts(o, "</g>\n");
}

static void *svg_begin(struct lbt_set *set, struct lbt_out *o,
		       const struct lbt_opts *opt)
{
	struct svg *s = calloc(1, sizeof(*s));
	int i, y = TOP + 6;
	uint32_t t;
	char b[48];

	if (!s)
		return NULL;
	s->o = o;
	s->opt = opt;
	s->wl = opt->win_len_ns > 0 ? opt->win_len_ns : DEF_LEN_NS;
	s->np = lbt_set_nfiles(set);
	if (s->np < 0)
		s->np = 0;
	s->p = calloc(s->np ? (size_t)s->np : 1, sizeof(*s->p));
	if (!s->p)
		goto oom;
	for (i = 0; i < s->np; i++) {
		struct panel *p = &s->p[i];

		p->f = lbt_set_file(set, i);
		p->file0 = lbt_ticks_to_ns(p->f, p->f->hdr.start_ticks);
		p->lanes = calloc(p->f->nthreads ? p->f->nthreads : 1,
				  sizeof(*p->lanes));
		if (!p->lanes)
			goto oom;
		p->y = y;
		y += PANEL_HEAD;
		for (t = 0; t < p->f->nthreads; t++) {
			if (opt->tid_set && p->f->threads[t].tid != opt->tid) {
				p->lanes[t].y = -1;
				continue;
			}
			p->lanes[t].y = y;
			y += LANE_H + LANE_GAP;
		}
		y += PANEL_GAP;
	}
	s->bottom = y - PANEL_GAP + 4;
	if (anchors(s, set) || merge_width(s, set))
		goto oom;
	lbt_printf(o,
		   "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		   "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
		   "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		   "font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">"
		   "\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
		   W, s->bottom + 40, W, s->bottom + 40);
	lbt_printf(o, "<text x=\"10\" y=\"22\" font-size=\"16\" "
		      "font-weight=\"bold\">lbtrace timeline: %d trace%s, "
		      "one lane per thread, each call a bar from entry to "
		      "return</text>\n",
		   s->np, s->np == 1 ? "" : "s");
	short_dur(b, sizeof(b), s->wl);
	lbt_printf(o, "<text x=\"10\" y=\"42\" font-size=\"11\" "
		      "fill=\"#444\">every panel shows %s", b);
	lbt_puts(o, " on the same scale, from its own window start; hover "
		    "a bar for its call</text>\n");
	legend(s, 68);
	for (i = 0; i < s->np; i++)
		panel_head(s, &s->p[i]);
	axis(s);
	return s;
oom:
	for (i = 0; s->p && i < s->np; i++)
		free(s->p[i].lanes);
	free(s->p);
	free(s);
	return NULL;
}

/* The lane of thread TH of panel P, or NULL. */
static struct lane *lane_of(struct panel *p, const struct lbt_thread *th)
{
	uint32_t ti = (uint32_t)(th - p->f->threads);

	if (ti >= p->f->nthreads || p->lanes[ti].y < 0)
		return NULL;
	return &p->lanes[ti];
}

/* The label of a bar W px wide, or NULL when none fits. */
static const char *label(const struct lbt_rec *r, int k, double w, char *b,
			 size_t n)
{
	const char *kn = k == K_LAUNCH ? lbt_rec_kernel(r, 1) : NULL;
	char ms[48];

	if (w < 24)
		return NULL;
	if (kn) {
		lbt_kernel_short(kn, b, n);
		if (!b[0])
			snprintf(b, n, "%s", kn);
	} else if (k == K_SYNC || r->in_flight) {
		short_dur(ms, sizeof(ms), lbt_shown_dur(r));
		snprintf(b, n, "%s %s%s", r->api_name, ms,
			 r->in_flight ? " in flight" : "");
		if (strlen(b) * CHAR_W + 4 > w)
			snprintf(b, n, "%s%s", ms,
				 r->in_flight ? " in flight" : "");
	} else {
		snprintf(b, n, "%s", r->api_name);
	}
	return strlen(b) * CHAR_W + 4 <= w ? b : NULL;
}

/* One call as its own bar, from X0 to X1 (px). */
static void bar(struct svg *s, const struct panel *p, const struct lane *l,
		const struct lbt_rec *r, double x0, double x1)
{
	struct lbt_out *o = s->o;
	int k = kind_of(r), tall = k == K_SYNC;
	const char *kn = lbt_rec_kernel(r, 1);
	char b[128];
	const char *lb;

	if (x1 - x0 < 1)
		x1 = x0 + 1; /* seen, whatever its length */
	lbt_printf(o,
		   "<rect class=\"%s%s\" x=\"%.2f\" y=\"%d\" width=\"%.2f\" "
		   "height=\"%d\" fill=\"%s\"",
		   kinds[k].cls, r->in_flight ? " inflight" : "", x0,
		   l->y + (tall ? 1 : 3), x1 - x0, tall ? LANE_H - 2 : LANE_H - 6,
		   kinds[k].fill);
	if (r->in_flight)
		lbt_puts(o, " fill-opacity=\"0.5\" stroke=\"#000\" "
			    "stroke-dasharray=\"3,2\"");
	lbt_puts(o, "><title>");
	put_xml(o, r->api_name, 128);
	if (kn) {
		lbt_putc(o, ' ');
		put_xml(o, kn, 200);
	}
	lbt_puts(o, ", ");
	if (r->in_flight) {
		put_ms(o, lbt_shown_dur(r));
		lbt_puts(o, " in flight, no return recorded");
	} else {
		put_ms(o, r->dur_ns);
	}
	lbt_puts(o, ", at ");
	put_ms(o, r->t_ns - p->file0);
	lbt_puts(o, "</title></rect>\n");
	s->nelem++;
	lb = label(r, k, x1 - x0, b, sizeof(b));
	if (lb) {
		lbt_printf(o,
			   "<text x=\"%.2f\" y=\"%d\" font-size=\"10\" "
			   "fill=\"%s\">",
			   x0 + 2, l->y + 13, r->in_flight ? "#222" : "white");
		put_xml(o, lb, sizeof(b));
		lbt_puts(o, "</text>\n");
		s->nelem++;
	}
}

/* Draws the lane's pending run of narrow calls, if any. */
static void flush(struct svg *s, const struct panel *p, struct lane *l)
{
	struct lbt_out *o = s->o;
	int64_t busy = 0, span = l->mt1 - l->mt0;
	double w = l->m1 - l->m0, shade;
	int k, best = K_OTHER;

	if (!l->mn)
		return;
	if (l->mn == 1) {
		bar(s, p, l, l->one, l->m0, l->m1);
		l->mn = 0;
		return;
	}
	for (k = 0; k < NK; k++) {
		busy += l->mk[k];
		if (l->mk[k] > l->mk[best] || (best == K_OTHER && l->mk[k]))
			best = k;
	}
	shade = span > 0 ? 0.3 + 0.7 * (double)busy / (double)span : 1;
	if (shade > 1)
		shade = 1;
	lbt_printf(o,
		   "<rect class=\"%s merged\" x=\"%.2f\" y=\"%d\" "
		   "width=\"%.2f\" height=\"%d\" fill=\"%s\" "
		   "fill-opacity=\"%.2f\"><title>%u calls merged (each "
		   "narrower than %.3g px): ",
		   kinds[best].cls, l->m0, l->y + 3, w < 1 ? 1 : w, LANE_H - 6,
		   kinds[best].fill, shade, l->mn, s->mpx);
	put_ms(o, busy);
	lbt_puts(o, " in calls over ");
	put_ms(o, span);
	lbt_printf(o, ", most in %s, from ", kinds[best].cls);
	put_ms(o, l->mt0 - p->file0);
	lbt_puts(o, "</title></rect>\n");
	s->nelem++;
	l->mn = 0;
}

static void call(struct svg *s, struct panel *p, struct lane *l,
		 const struct lbt_rec *r)
{
	int64_t t0 = r->t_ns, t1 = t0 + lbt_shown_dur(r);
	int64_t we = p->ws + s->wl;
	int forced = s->nelem >= HARD_ELEMS;
	double x0, x1;

	if (t1 < p->ws || t0 > we)
		return;
	x0 = x_of(s, p, t0 < p->ws ? p->ws : t0);
	x1 = x_of(s, p, t1 > we ? we : t1);
	if (!forced && (x1 - x0 >= s->mpx || r->in_flight)) {
		flush(s, p, l);
		bar(s, p, l, r, x0, x1);
		return;
	}
	/* a gap, or a run grown wide enough to keep its own shade: end it */
	if (l->mn && (x0 > l->m1 + s->mpx ||
		      (!forced && x1 > l->m0 + RUN_W * s->mpx)))
		flush(s, p, l);
	if (!l->mn) {
		memset(l->mk, 0, sizeof(l->mk));
		l->m0 = x0;
		l->m1 = x1;
		l->mt0 = t0 < p->ws ? p->ws : t0;
		l->mt1 = l->mt0;
		lbt_rec_keep(&l->keep, r);
		l->one = &l->keep;
	}
	if (x1 > l->m1)
		l->m1 = x1;
	if ((t1 > we ? we : t1) > l->mt1)
		l->mt1 = t1 > we ? we : t1;
	l->mk[kind_of(r)] += t1 - t0;
	l->mn++;
}

/* A crash: a red line across its thread's lane, named by its signal. */
static void crash_mark(struct svg *s, struct panel *p, const struct lbt_rec *r)
{
	const struct lbt_file *f = p->f;
	const struct lane *l = NULL;
	const char *sn = lbt_signal_name(r->ret);
	uint32_t t;
	double x;

	for (t = 0; r->crash && t < f->nthreads; t++)
		if (f->threads[t].tid == r->crash->tid && p->lanes[t].y >= 0)
			l = &p->lanes[t];
	if (!l)
		l = lane_of(p, r->thread);
	if (!l || r->t_ns < p->ws || r->t_ns > p->ws + s->wl)
		return;
	x = x_of(s, p, r->t_ns);
	lbt_printf(s->o,
		   "<line class=\"crash\" x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" "
		   "y2=\"%d\" stroke=\"#b00\" stroke-width=\"2\"><title>%s"
		   "</title></line>\n<text x=\"%.2f\" y=\"%d\" font-size=\"10\" "
		   "font-weight=\"bold\" fill=\"#b00\">%s</text>\n",
		   x, l->y - 2, x, l->y + LANE_H + 2, sn ? sn : "crash", x + 3,
		   l->y + 13, sn ? sn : "crash");
	s->nelem += 2;
}

static void svg_record(void *st, const struct lbt_rec *r)
{
	struct svg *s = st;
	struct panel *p;
	struct lane *l;

	if (r->file->index < 0 || r->file->index >= s->np)
		return;
	p = &s->p[r->file->index];
	if (r->type == LB_REC_CRASH) {
		crash_mark(s, p, r);
		return;
	}
	if (r->type != LB_REC_CALL || !(l = lane_of(p, r->thread)))
		return;
	call(s, p, l, r);
}

static int svg_end(void *st)
{
	struct svg *s = st;
	int i;
	uint32_t t;

	for (i = 0; i < s->np; i++) {
		for (t = 0; t < s->p[i].f->nthreads; t++)
			if (s->p[i].lanes[t].y >= 0)
				flush(s, &s->p[i], &s->p[i].lanes[t]);
		free(s->p[i].lanes);
	}
	lbt_printf(s->o,
		   "<text x=\"10\" y=\"%d\" font-size=\"10\" fill=\"#666\">"
		   "lbtrace export --svg: host calls only (a launch's bar is "
		   "its launch call, not the kernel); a sync's bar is its "
		   "wait.</text>\n</svg>\n",
		   s->bottom + 32);
	free(s->p);
	free(s);
	return 0;
}

const struct lbt_fmt lbt_fmt_svg = {
    .name = "svg",
    .mode = LBT_UNORDERED,
    .filtered = 1,
    .begin = svg_begin,
    .record = svg_record,
    .end = svg_end,
};
