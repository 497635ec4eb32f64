/*
 * summary.h - the raw pass of `lbtrace summary` (summary.c), which the
 * command runner (run.c) takes when no filter or --last asks for decoded
 * records.
 */
#ifndef LBTRACE_SUMMARY_H
#define LBTRACE_SUMMARY_H

#include "read/reader.h"

/*
 * Feeds every record of SET to the summary state ST (from
 * lbt_fmt_summary.begin) straight from the file, as .record would see
 * them one by one.  Returns 0.
 */
int lbt_summary_raw(void *st, struct lbt_set *set);

#endif
