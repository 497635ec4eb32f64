/*
 * svg.h - the picture of an A/B comparison (`lbtrace ab --svg FILE`):
 * per-run wall times of both groups, then the duration distributions of
 * the APIs that changed most, on one logarithmic time axis.  Plain SVG 1.1
 * written with stdio: no plotting library, opens in any browser.
 */
#ifndef LBTRACE_SVG_H
#define LBTRACE_SVG_H

#include <stdio.h>
#include "ab/stats.h"

/* One distribution pair to draw: group A's and group B's values. */
struct lbt_svg_dist {
	const char *name;
	const struct lbs_sample *s[2];	/* finished samples, ns */
	struct lbs_ratio r;		/* ratio of medians and interval */
};

struct lbt_svg_ab {
	const char *label[2];		/* legends of the groups */
	const struct lbs_sample *wall[2]; /* one value per run, ns */
	const struct lbt_svg_dist *d;
	int nd;
};

/*
 * Writes the picture P to F.  Returns 0, or -1 when a write failed
 * (errno set by stdio).
 */
int lbt_svg_ab(FILE *f, const struct lbt_svg_ab *p);

#endif
