/*
 * ab.h - `lbtrace ab A... --vs B...`: compares two groups of traces per
 * API, per kernel, per thread's synchronization time and per run's wall
 * time (lbtrace(1), section ab).
 */
#ifndef LBTRACE_AB_H
#define LBTRACE_AB_H

#include <stdio.h>

/*
 * Runs the ab command; ARGV[0] is the command name ("ab").  Prints the
 * table (or JSON) on stdout and messages on stderr.  Returns the exit
 * status: 0 ok, 1 bad usage (after one line and the usage on stderr), 2 a
 * trace that cannot be read or is invalid (the comparison of the rest is
 * still printed), or a group without any trace.
 */
int lbt_cmd_ab(int argc, char **argv);

/* Prints ab's usage to F. */
void lbt_ab_usage(FILE *f);

#endif
