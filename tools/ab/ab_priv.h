/*
 * ab_priv.h - what ab.c (reading and comparing the groups) shares with
 * ab_print.c (the table, the JSON and the picture).
 */
#ifndef LBTRACE_AB_PRIV_H
#define LBTRACE_AB_PRIV_H

#include <stdint.h>
#include "lbshim/api.h"
#include "ab/stats.h"

enum { ROW_API, ROW_KERNEL, ROW_THREAD, ROW_NKINDS };

struct ab_file {
	char *path;
	char *key;		/* run key before the header is read */
};

struct ab_run {
	char *key;
	uint64_t run_id;
	uint64_t start_ns, end_ns; /* CLOCK_REALTIME */
	char *dir;		/* directory of its first file */
	int nfiles, crashed, unfinished;
};

struct ab_group {
	const char *label;
	struct ab_file *files;
	size_t nfiles, cap;
	struct ab_run *runs;
	uint32_t nruns;
	uint64_t ncalls;
	struct lbs_sample wall;	/* one value per run */
	unsigned runtimes;	/* 1 << enum lb_trace_runtime of its files */
};

struct ab_row {
	int kind;
	char *name;
	int api;		/* API rows: current id, or -1 unknown */
	/* across vendors (twins.c): the names each side called, "+" between
	 * several ("cudaMalloc+cuMemAlloc_v2"), NULL for none; name is then
	 * "A's / B's" where both called */
	char *side[2];
	struct lbs_sample s[2];
	uint64_t *per_run[2];	/* threads: sync ns per run */
	uint32_t per_run_len[2];
	struct lbs_sample run_total[2]; /* per_run as a sample */
	struct lbs_ratio r;
	double change;
};

struct ab {
	struct ab_group g[2];
	struct ab_row **rows;
	size_t nrows, cap;
	struct ab_row *api_row[LB_API_COUNT]; /* row of each API, or NULL */
	int by_runs;
	int cross;		/* HIP against CUDA: rows matched by twin */
	int json;
	const char *svg;
	int status;
};

/* The arguments of each group, as given. */
struct ab_args {
	char **v[2];
	int n[2];
};

/* Median of S (0 when empty). */
static inline int64_t ab_med(const struct lbs_sample *s)
{
	return lbs_quantile(s, 0.5);
}

/* Row KIND named NAME, made if new; NULL when out of memory (ab.c). */
struct ab_row *lbt_ab_find_row(struct ab *ab, int kind, const char *name);

/*
 * Across vendors (twins.c): when the groups' files hold both HIP and CUDA
 * runtimes, sets ab->cross and merges every CUDA API row into the row of
 * its HIP twin (cuda_api.def's first column: cudaMalloc and
 * cuMemAlloc_v2 into hipMalloc), naming each row by what each side
 * called.  Before the samples are finished.  0, or -1 out of memory.
 */
int lbt_ab_match_twins(struct ab *ab);

/* "HIP", "CUDA", "HIP+CUDA": the runtimes of group G. */
const char *lbt_ab_runtimes(const struct ab_group *g);

/* Prints what could not be matched across vendors (text or JSON array
 * of objects); nothing when the comparison is not across vendors. */
void lbt_ab_print_unmatched(const struct ab *ab, int json);

/* Prints the comparison as tables on stdout. */
void lbt_ab_print_text(const struct ab *ab, const struct lbs_ratio *wall,
		   const struct ab_args *args);

/* Prints S on stdout as a JSON string, quotes and control bytes
 * escaped (ab_print.c; twins.c's unmatched rows use it too). */
void lbt_ab_json_str(const char *s);

/* Prints the comparison as one JSON document on stdout. */
void lbt_ab_print_json(const struct ab *ab, const struct lbs_ratio *wall,
		   const struct ab_args *args);

/* Draws the wall times and the top APIs' distributions into PATH.
 * Returns 0, or 2 after a message when the file cannot be written. */
int lbt_ab_write_svg(const struct ab *ab, const char *path);

#endif
