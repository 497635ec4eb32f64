/*
 * twins.c - `lbtrace ab` across vendors: a HIP trace against a CUDA trace
 * of the same program.  Functions are matched by the API table's twin
 * column (cuda_api.def's first column names each CUDA row's HIP twin:
 * cudaMalloc's and cuMemAlloc_v2's is hipMalloc), never by rules on
 * names; kernels are matched by their demangled names, as between two
 * runs of one vendor (ab.c already keys kernel rows so).  What finds no
 * counterpart is listed with the reason.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lbshim/api.h"
#include "read/reader.h"
#include "ab/ab_priv.h"

#define RT_BIT(rt) (1u << (rt))

const char *lbt_ab_runtimes(const struct ab_group *g)
{
	int hip = !!(g->runtimes & RT_BIT(LB_RT_HIP));
	int cuda = !!(g->runtimes & RT_BIT(LB_RT_CUDA));

	return hip && cuda ? "HIP+CUDA" : cuda ? "CUDA" : hip ? "HIP" : "?";
}

/* Is NAME one of the "+"-joined LIST (NULL: none)? */
static int in_list(const char *list, const char *name)
{
	size_t len = strlen(name);
	const char *p = list;

	while (p && *p) {
		if (!strncmp(p, name, len) && (p[len] == '+' || !p[len]))
			return 1;
		p = strchr(p, '+');
		p = p ? p + 1 : NULL;
	}
	return 0;
}

/* Adds NAME to the "+"-joined list *LIST unless it is there; 0 or -1. */
static int add_name(char **list, const char *name)
{
	char *n = NULL;

	if (in_list(*list, name))
		return 0;
	if (!*list)
		n = strdup(name);
	else if (asprintf(&n, "%s+%s", *list, name) < 0)
		n = NULL;
	if (!n)
		return -1;
	free(*list);
	*list = n;
	return 0;
}

/* The HIP row that API row R is counted in: its twin for a CUDA row
 * (-1: none), itself for a HIP row, -1 for an API this lbtrace does not
 * know. */
static int hip_id(const struct ab_row *r)
{
	if (r->api < 0)
		return -1;
	return LB_API_IS_CUDA(r->api) ? lb_api_hip_twin(r->api) : r->api;
}

/* Moves R's calls into T (both API rows); 0 or -1. */
static int merge(struct ab_row *t, struct ab_row *r)
{
	int k;

	for (k = 0; k < 2; k++) {
		lbs_add_all(&t->s[k], &r->s[k]);
		if (t->s[k].oom)
			return -1;
		if (r->side[k] && add_name(&t->side[k], r->side[k]))
			return -1;
	}
	return 0;
}

static void free_row(struct ab_row *r)
{
	int k;

	for (k = 0; k < 2; k++) {
		lbs_free(&r->s[k]);
		lbs_free(&r->run_total[k]);
		free(r->per_run[k]);
		free(r->side[k]);
	}
	free(r->name);
	free(r);
}

/* The row's name: what each side called, A's first. */
static int rename_row(struct ab_row *r)
{
	char *n;

	if (r->side[0] && r->side[1]) {
		if (asprintf(&n, "%s / %s", r->side[0], r->side[1]) < 0)
			return -1;
	} else if (r->side[0] || r->side[1]) {
		if (!(n = strdup(r->side[0] ? r->side[0] : r->side[1])))
			return -1;
	} else {
		return 0;
	}
	free(r->name);
	r->name = n;
	return 0;
}

int lbt_ab_match_twins(struct ab *ab)
{
	unsigned all = ab->g[0].runtimes | ab->g[1].runtimes;
	size_t i, j, n;
	int k, h;

	ab->cross = (all & RT_BIT(LB_RT_HIP)) && (all & RT_BIT(LB_RT_CUDA));
	if (!ab->cross)
		return 0;
	/* every API row says what each side called by it */
	for (i = 0; i < ab->nrows; i++)
		for (k = 0; k < 2; k++)
			if (ab->rows[i]->kind == ROW_API && ab->rows[i]->s[k].n &&
			    add_name(&ab->rows[i]->side[k], ab->rows[i]->name))
				return -1;
	/* CUDA rows into their HIP twin's row (made when no HIP call was
	 * seen, under the HIP name: a CUDA row of the same twin joins it) */
	n = ab->nrows;
	for (i = 0; i < n; i++) {
		struct ab_row *r = ab->rows[i], *t;

		if (r->kind != ROW_API || r->api < 0 ||
		    !LB_API_IS_CUDA(r->api) || (h = hip_id(r)) < 0)
			continue;
		t = lbt_ab_find_row(ab, ROW_API, lb_api_info[h].name);
		if (!t)
			return -1;
		t->api = h;
		if (merge(t, r))
			return -1;
		/* dead, freed below: find_row() matches no such kind, and
		 * appends, so the rows before i stay where they are */
		r->kind = ROW_NKINDS;
	}
	for (i = 0, j = 0; i < ab->nrows; i++) {
		if (ab->rows[i]->kind == ROW_NKINDS)
			free_row(ab->rows[i]);
		else
			ab->rows[j++] = ab->rows[i];
	}
	ab->nrows = j;
	memset(ab->api_row, 0, sizeof(ab->api_row));
	for (i = 0; i < ab->nrows; i++)
		if (ab->rows[i]->kind == ROW_API && rename_row(ab->rows[i]))
			return -1;
	return 0;
}

/* Has HIP row H a CUDA twin in the table? */
static int has_cuda_twin(int h)
{
	int c;

	for (c = LB_API_HIP_COUNT; c < LB_API_COUNT; c++)
		if (lb_api_hip_twin(c) == h)
			return 1;
	return 0;
}

/*
 * Why row R, called on side K alone, has no counterpart on the other
 * side O, as a phrase.  BUF holds it when it names a function.
 */
static const char *why(const struct ab *ab, const struct ab_row *r, int k,
		       char *buf, size_t len)
{
	const char *other = ab->g[!k].label;
	int h = hip_id(r);

	if (r->kind == ROW_KERNEL) {
		snprintf(buf, len, "no kernel of this name launched in %s",
			 other);
		return buf;
	}
	if (r->api < 0)
		return "not in this lbtrace's API table";
	if (LB_API_IS_CUDA(r->api) && h < 0)
		return "no HIP twin in lbshim's API table";
	/* the HIP function called, or CUDA ones merged into its row */
	if (in_list(r->side[k], lb_api_info[h].name)) {
		if (!has_cuda_twin(h))
			return "no CUDA twin in lbshim's API table";
		snprintf(buf, len, "none of its CUDA twins called in %s",
			 other);
		return buf;
	}
	snprintf(buf, len, "its HIP twin %s not called in %s",
		 lb_api_info[h].name, other);
	return buf;
}

/* Row R, called on side K alone, as a JSON object. */
static void put_json(const struct ab *ab, const struct ab_row *r, int k)
{
	char buf[160];

	printf("{\"kind\":\"%s\",\"name\":",
	       r->kind == ROW_KERNEL ? "kernel" : "api");
	lbt_ab_json_str(r->name);
	printf(",\"only_in\":\"%s\",\"why\":", ab->g[k].label);
	lbt_ab_json_str(why(ab, r, k, buf, sizeof(buf)));
	putchar('}');
}

void lbt_ab_print_unmatched(const struct ab *ab, int json)
{
	size_t i, nm = 0, nu = 0;
	char buf[160];
	int first = 1, k;

	if (!ab->cross)
		return;
	for (i = 0; i < ab->nrows; i++) {
		const struct ab_row *r = ab->rows[i];

		if (r->kind == ROW_THREAD)
			continue;
		if (r->s[0].n && r->s[1].n)
			nm++;
		else
			nu++;
	}
	if (!json) {
		printf("\nacross vendors: A is %s, B is %s; functions matched "
		       "by their twins in lbshim's API table, kernels by "
		       "name: %zu matched, %zu not%s\n",
		       lbt_ab_runtimes(&ab->g[0]), lbt_ab_runtimes(&ab->g[1]),
		       nm, nu, nu ? ":" : "");
	} else {
		printf("[");
	}
	/* A's alone, then B's */
	for (k = 0; k < 2; k++) {
		for (i = 0; i < ab->nrows; i++) {
			const struct ab_row *r = ab->rows[i];

			if (r->kind == ROW_THREAD || !r->s[k].n || r->s[!k].n)
				continue;
			if (json) {
				printf("%s", first ? "" : ",");
				put_json(ab, r, k);
				first = 0;
				continue;
			}
			printf("  only in %s (%s): %s%s: %s\n",
			       ab->g[k].label, lbt_ab_runtimes(&ab->g[k]),
			       r->kind == ROW_KERNEL ? "kernel " : "",
			       r->name, why(ab, r, k, buf, sizeof(buf)));
		}
	}
	if (json)
		printf("]");
}
