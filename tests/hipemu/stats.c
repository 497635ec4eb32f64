/*
 * stats.c - HIPEMU_STATS=FILE: at exit, a JSON summary of the calls hipemu
 * received and of the objects it holds, so that a test can see what got
 * past the shim.
 */
#include "he.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

atomic_ulong he_streams_created, he_streams_destroyed;
atomic_ulong he_events_created, he_events_destroyed;

static atomic_int he_stats_armed;

struct he_count_row {
	const char *name;
	unsigned long n;
};

struct he_count_vec {
	struct he_count_row *rows;
	size_t n, cap;
};

/* Two entry points may count under one name (the C++-mangled launches). */
static void collect(const char *name, unsigned long n, void *arg)
{
	struct he_count_vec *v = arg;

	for (size_t i = 0; i < v->n; i++) {
		if (!strcmp(v->rows[i].name, name)) {
			v->rows[i].n += n;
			return;
		}
	}
	if (v->n == v->cap) {
		size_t cap = v->cap ? v->cap * 2 : 64;
		struct he_count_row *r = realloc(v->rows, cap * sizeof(*r));

		if (!r)
			return;
		v->rows = r;
		v->cap = cap;
	}
	v->rows[v->n].name = name;
	v->rows[v->n].n = n;
	v->n++;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct he_count_row *)a)->name,
		      ((const struct he_count_row *)b)->name);
}

static void he_stats_write(void)
{
	struct he_count_vec v = { 0 };
	unsigned long bytes, live;
	FILE *f;

	if (!atomic_load(&he_stats_armed) || !he_cfg.stats_file)
		return;
	f = fopen(he_cfg.stats_file, "w");
	if (!f) {
		he_warn("HIPEMU_STATS=%s: cannot write", he_cfg.stats_file);
		return;
	}
	he_api_foreach(collect, &v);
	qsort(v.rows, v.n, sizeof(*v.rows), by_name);
	fputs("{\"calls\": {", f);
	for (size_t i = 0; i < v.n; i++)
		fprintf(f, "%s\"%s\": %lu", i ? ", " : "", v.rows[i].name,
			v.rows[i].n);
	free(v.rows);
	he_mem_stats(&bytes, &live);
	fprintf(f,
		"}, \"streams_created\": %lu, \"streams_destroyed\": %lu, "
		"\"events_created\": %lu, \"events_destroyed\": %lu, "
		"\"bytes_in_use\": %lu, \"allocs_live\": %lu}\n",
		atomic_load(&he_streams_created),
		atomic_load(&he_streams_destroyed),
		atomic_load(&he_events_created),
		atomic_load(&he_events_destroyed), bytes, live);
	fclose(f);
}

void he_stats_init(void)
{
	if (!he_cfg.stats_file || !*he_cfg.stats_file)
		return;
	atomic_store(&he_stats_armed, 1);
	/* atexit rather than a destructor: runs before the libraries that
	 * stdio and the twins need are torn down. */
	atexit(he_stats_write);
}
