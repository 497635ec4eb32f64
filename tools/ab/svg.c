/*
 * svg.c - the A/B picture: a strip of per-run wall times (one dot per
 * run, a bar at the median), then for each API a pair of box plots (A
 * above B: whiskers p1..p99, box p25..p75, a thick median line, and dots
 * at 100 evenly spaced quantiles so the shape of the distribution shows)
 * on one logarithmic axis shared by all APIs, because call times span
 * nanoseconds to milliseconds.
 *
 * Only stdio and numbers: what is drawn is computed here from the
 * samples' nearest-rank quantiles.  Text is escaped for XML.
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>
#include "ab/svg.h"

#define W 1040		/* picture width */
#define LEFT 250	/* label column */
#define RIGHT 200	/* ratio column */
#define ROW_H 22	/* one group's strip */
#define PAIR_GAP 14	/* between APIs */
#define NDOTS 100	/* quantile dots per distribution */

static const char *const color[2] = { "#1f77b4", "#e6550d" };

static void xml_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default:
			/* control characters are not allowed in XML 1.0 */
			fputc((unsigned char)*s < 0x20 ? '?' : *s, f);
		}
	}
}

/* "12.3 us" style axis label of NS. */
static void fmt_ns(char *b, size_t n, double ns)
{
	if (ns < 1e3)
		snprintf(b, n, "%.0f ns", ns);
	else if (ns < 1e6)
		snprintf(b, n, "%.0f us", ns / 1e3);
	else if (ns < 1e9)
		snprintf(b, n, "%.0f ms", ns / 1e6);
	else
		snprintf(b, n, "%.0f s", ns / 1e9);
}

struct axis {
	double lo, hi;	/* values at the ends (log axis: log10 of ns) */
	int logx;
};

static double ax_x(const struct axis *a, double v)
{
	double t;

	if (a->logx)
		v = log10(v < 1 ? 1 : v);
	t = a->hi > a->lo ? (v - a->lo) / (a->hi - a->lo) : 0.5;
	if (t < 0)
		t = 0;
	if (t > 1)
		t = 1;
	return LEFT + t * (W - LEFT - RIGHT);
}

static double qv(const struct lbs_sample *s, double q)
{
	return (double)lbs_quantile(s, q);
}

/* Vertical grid lines with labels, from Y0 to Y1. */
static void grid(FILE *f, const struct axis *a, int y0, int y1)
{
	char b[32];
	double v, step;
	int e, i, n;

	if (a->logx) {
		for (e = (int)floor(a->lo); e <= (int)ceil(a->hi); e++) {
			double x;

			v = e;
			if (v < a->lo - 1e-9 || v > a->hi + 1e-9)
				continue;
			x = ax_x(a, pow(10, v));
			fmt_ns(b, sizeof(b), pow(10, v));
			fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" "
				"y2=\"%d\" stroke=\"#ddd\"/>\n", x, y0, x, y1);
			fprintf(f, "<text x=\"%.1f\" y=\"%d\" font-size=\"10\" "
				"text-anchor=\"middle\" fill=\"#666\">%s</text>\n",
				x, y1 + 12, b);
		}
		return;
	}
	step = pow(10, floor(log10((a->hi - a->lo) / 4 + 1e-300)));
	if ((a->hi - a->lo) / step > 8)
		step *= 2;
	n = (int)floor((a->hi - ceil(a->lo / step) * step) / step + 1e-9) + 1;
	for (i = 0; i < n && i < 64; i++) {
		double x;

		v = ceil(a->lo / step) * step + i * step;
		x = ax_x(a, v);

		snprintf(b, sizeof(b), "%.4g s", v / 1e9);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
			"stroke=\"#ddd\"/>\n", x, y0, x, y1);
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" font-size=\"10\" "
			"text-anchor=\"middle\" fill=\"#666\">%s</text>\n", x,
			y1 + 12, b);
	}
}

/* One group's box plot of S at row top Y. */
static void boxplot(FILE *f, const struct axis *a, const struct lbs_sample *s,
		    int y, int k)
{
	double x1 = ax_x(a, qv(s, 0.01)), x99 = ax_x(a, qv(s, 0.99));
	double x25 = ax_x(a, qv(s, 0.25)), x75 = ax_x(a, qv(s, 0.75));
	double xm = ax_x(a, qv(s, 0.5)), cy = y + ROW_H / 2.0;
	int i;

	if (!s->n)
		return;
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		"stroke=\"%s\"/>\n", x1, cy, x99, cy, color[k]);
	fprintf(f, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" "
		"fill=\"%s\" fill-opacity=\"0.25\" stroke=\"%s\"/>\n", x25,
		y + 4, x75 - x25 < 1 ? 1 : x75 - x25, ROW_H - 8, color[k],
		color[k]);
	for (i = 0; i < NDOTS; i++) {
		double x = ax_x(a, qv(s, (i + 0.5) / NDOTS));

		fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"1.5\" "
			"fill=\"%s\" fill-opacity=\"0.5\"/>\n", x,
			cy + ((i * 7) % 9 - 4), color[k]);
	}
	fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
		"stroke=\"%s\" stroke-width=\"3\"/>\n", xm, y + 2, xm,
		y + ROW_H - 2, color[k]);
}

/* Dots for the runs' wall times. */
static void wall_strip(FILE *f, const struct axis *a,
		       const struct lbs_sample *s, int y, int k)
{
	double cy = y + ROW_H / 2.0, xm;
	size_t i;

	if (!s->n)
		return;
	for (i = 0; i < s->n; i++)
		fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" "
			"fill=\"%s\" fill-opacity=\"0.6\"/>\n",
			ax_x(a, (double)s->v[i]), cy, color[k]);
	xm = ax_x(a, qv(s, 0.5));
	fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
		"stroke=\"%s\" stroke-width=\"3\"/>\n", xm, y + 2, xm,
		y + ROW_H - 2, color[k]);
}

/* A ratio with 2 decimals, 3 below 0.1 (as in the table). */
static void put_ratio(FILE *f, double r)
{
	if (isinf(r))
		fputs("inf", f);
	else
		fprintf(f, r >= 100 ? "%.0f" : r >= 0.095 ? "%.2f" : "%.3f", r);
}

static void ratio_label(FILE *f, const struct lbs_ratio *r, int y)
{
	fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"12\" "
		"font-weight=\"%s\">B/A ", W - RIGHT + 20, y,
		r->method && r->excludes1 ? "bold" : "normal");
	put_ratio(f, r->ratio);
	if (r->method) {
		fputs(" [", f);
		put_ratio(f, r->lo);
		fputs(", ", f);
		put_ratio(f, r->hi);
		fputs("]", f);
	}
	fputs("</text>\n", f);
}

static void labels(FILE *f, const char *const label[2], int y)
{
	int k;

	for (k = 0; k < 2; k++) {
		fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"11\" "
			"text-anchor=\"end\" fill=\"%s\">", LEFT - 8,
			y + k * ROW_H + ROW_H / 2 + 4, color[k]);
		xml_text(f, label[k]);
		fputs("</text>\n", f);
	}
}

int lbt_svg_ab(FILE *f, const struct lbt_svg_ab *p)
{
	struct axis wa = { 0, 1, 0 }, la = { 0, 1, 1 };
	double lo = INFINITY, hi = -INFINITY, v;
	int h, y, i, k, yd;
	char name[64];

	for (k = 0; k < 2; k++) {
		if (!p->wall[k]->n)
			continue;
		v = (double)p->wall[k]->v[0];
		lo = v < lo ? v : lo;
		v = (double)p->wall[k]->v[p->wall[k]->n - 1];
		hi = v > hi ? v : hi;
	}
	if (lo <= hi) {
		double pad = (hi - lo) * 0.1 + 1e6;

		wa.lo = lo - pad < 0 ? 0 : lo - pad;
		wa.hi = hi + pad;
	}
	lo = INFINITY;
	hi = -INFINITY;
	for (i = 0; i < p->nd; i++) {
		for (k = 0; k < 2; k++) {
			const struct lbs_sample *s = p->d[i].s[k];

			if (!s->n)
				continue;
			v = log10(qv(s, 0.01) < 1 ? 1 : qv(s, 0.01));
			lo = v < lo ? v : lo;
			v = log10(qv(s, 1.0) < 1 ? 1 : qv(s, 1.0));
			hi = v > hi ? v : hi;
		}
	}
	if (lo <= hi) {
		la.lo = floor(lo);
		la.hi = ceil(hi) > la.lo ? ceil(hi) : la.lo + 1;
	}
	yd = 60 + 2 * ROW_H + 50;
	h = yd + 30 + p->nd * (2 * ROW_H + PAIR_GAP) + 40;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
		"width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"font-family=\"sans-serif\">\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
		W, h, W, h);
	fputs("<text x=\"10\" y=\"20\" font-size=\"15\" font-weight=\"bold\">"
	      "lbtrace ab: ", f);
	xml_text(f, p->label[0]);
	fputs(" vs ", f);
	xml_text(f, p->label[1]);
	fputs("</text>\n", f);
	fprintf(f, "<text x=\"10\" y=\"38\" font-size=\"11\" fill=\"#444\">"
		"dots: runs (wall time) or 100 quantiles (calls); box p25-p75, "
		"whiskers p1-p99, thick line: median; bold ratio: its 95%% "
		"interval excludes 1</text>\n");
	/* wall time per run */
	y = 60;
	fprintf(f, "<text x=\"10\" y=\"%d\" font-size=\"12\" "
		"font-weight=\"bold\">wall time per run</text>\n", y + 16);
	grid(f, &wa, y, y + 2 * ROW_H);
	labels(f, p->label, y);
	for (k = 0; k < 2; k++)
		wall_strip(f, &wa, p->wall[k], y + k * ROW_H, k);
	/* distributions */
	fprintf(f, "<text x=\"10\" y=\"%d\" font-size=\"12\" "
		"font-weight=\"bold\">call durations (log scale)</text>\n",
		yd);
	y = yd + 12;
	grid(f, &la, y, y + p->nd * (2 * ROW_H + PAIR_GAP));
	for (i = 0; i < p->nd; i++) {
		const struct lbt_svg_dist *d = &p->d[i];
		int yy = y + i * (2 * ROW_H + PAIR_GAP);

		snprintf(name, sizeof(name), "%s", d->name);
		fprintf(f, "<text x=\"10\" y=\"%d\" font-size=\"12\">", yy + ROW_H + 4);
		xml_text(f, name);
		fputs("</text>\n", f);
		labels(f, p->label, yy);
		for (k = 0; k < 2; k++)
			boxplot(f, &la, d->s[k], yy + k * ROW_H, k);
		ratio_label(f, &d->r, yy + ROW_H + 4);
	}
	fputs("</svg>\n", f);
	return ferror(f) ? -1 : 0;
}
