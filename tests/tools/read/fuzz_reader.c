/*
 * fuzz_reader.c - libFuzzer harness: the input is one trace file; it is
 * opened as a set (alone, and twice to exercise the merge), and every
 * format runs over it, with and without filters.  Output goes to
 * /dev/null: only crashes, hangs, leaks and sanitizer reports count.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "format/fmt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct lbt_out out;

static void run_all(struct lbt_set *set, FILE *sink)
{
	static const struct lbt_fmt *const fmts[] = {
	    &lbt_fmt_text,  &lbt_fmt_json,   &lbt_fmt_summary,
	    &lbt_fmt_crash, &lbt_fmt_chrome, &lbt_fmt_svg,
	};
	struct lbt_opts plain = {0};
	struct lbt_opts filt = {
	    .kernel_glob = "*a*", .last = 3, .errors = 1, .crash_calls = 2};
	struct lbt_opts tid = {.tid_set = 1, .tid = 4242, .api_glob = "hip*"};
	size_t i;

	for (i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++) {
		lbt_out_init(&out, sink, (int)(i & 1));
		lbt_run_fmt(fmts[i], set, &out, &plain);
		lbt_run_fmt(fmts[i], set, &out, &filt);
		lbt_run_fmt(fmts[i], set, &out, &tid);
	}
	/* internal records too */
	lbt_show_internal(set, 1);
	lbt_out_init(&out, sink, 0);
	lbt_run_fmt(&lbt_fmt_text, set, &out, &plain);
	lbt_show_internal(set, 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *sink;
	struct lbt_set *set;

	if (!sink)
		sink = fopen("/dev/null", "w");
	if (!sink)
		return 0;
	set = lbt_set_new(NULL);
	if (!set)
		return 0;
	if (!lbt_set_add_mem(set, "fuzz", data, size)) {
		run_all(set, sink);
		/* the same file again: a merge of two processes */
		if (!lbt_set_add_mem(set, "fuzz2", data, size))
			run_all(set, sink);
	}
	lbt_set_free(set);
	/* a lazy set: the scan rides along the summary's pass; a pass left
	 * halfway, then others */
	set = lbt_set_new(NULL);
	if (!set)
		return 0;
	lbt_set_lazy(set, 1);
	if (!lbt_set_add_mem(set, "lazy", data, size)) {
		struct lbt_opts plain = {0};
		int i;

		lbt_rewind(set, LBT_UNORDERED);
		for (i = 0; i < 5 && lbt_next(set); i++)
			;
		lbt_out_init(&out, sink, 0);
		lbt_run_fmt(&lbt_fmt_summary, set, &out, &plain);
		lbt_run_fmt(&lbt_fmt_json, set, &out, &plain);
	}
	lbt_set_free(set);
	return 0;
}
