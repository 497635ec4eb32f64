/*
 * runner.h - `lbtrace run [-n N] [--ab A/B] [-o DIR] -- CMD...`: runs a
 * command under the shim N times (or alternating two policy sets) with
 * traces laid out per arm and run, then compares them (lbtrace(1),
 * section run).  (The file is not run.c: that name holds the record loop
 * shared by lbtrace's other commands.)
 */
#ifndef LBTRACE_RUNNER_H
#define LBTRACE_RUNNER_H

/*
 * Runs the run command; ARGV[0] is the command name ("run").  The
 * command's output goes where lbtrace's goes; progress on stderr; the ab
 * table on stdout.  Returns the exit status: 0 every run succeeded, 1 bad
 * usage, 2 the shim or the output directory cannot be had (or a trace is
 * unreadable), 3 some run failed (after the others ran), 130 interrupted.
 */
int lbt_cmd_run(int argc, char **argv);

#endif
