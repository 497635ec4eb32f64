/*
 * runtime.h - the runtime a trace's calls went to, as the commands that
 * describe a file (summary, crash) show it.
 */
#ifndef LBTRACE_RUNTIME_H
#define LBTRACE_RUNTIME_H

#include "format/out.h"
#include "read/reader.h"

/*
 * Writes "  runtime: HIP 6.2.41134 (60241134), /opt/rocm/lib/
 * libamdhip64.so.6" and a newline for F, a file of format version 2;
 * nothing for a version 1 file, which does not say.  An unknown version
 * or library is said to be unknown.
 */
void lbt_put_runtime(struct lbt_out *o, const struct lbt_file *f);

#endif
