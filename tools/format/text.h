/*
 * text.h - pieces of the text format (fmt_text.c) that the crash report
 * reuses, so a call reads the same in both.
 */
#ifndef LBTRACE_TEXT_H
#define LBTRACE_TEXT_H

#include "format/fmt.h"

/* "   1.234567890 pid:N tid:N " */
void lbt_text_prefix(struct lbt_out *o, const struct lbt_rec *r);

/* "hipMemcpy(dst=..., ...) ret=0 (hipSuccess) +1.000 us" */
void lbt_text_call(struct lbt_out *o, const struct lbt_rec *r);

/* "hipMemcpy(dst=..., ...)": the call and its arguments alone. */
void lbt_text_call_head(struct lbt_out *o, const struct lbt_rec *r);

/* A record of another type (crash, lost, ...), without a newline. */
void lbt_text_other(struct lbt_out *o, const struct lbt_rec *r);

/* "*** SIGSEGV (SEGV_MAPERR) at address 0x10, 3 frames" */
void lbt_text_crash(struct lbt_out *o, const struct lbt_crash *c);

/* "#0   0x401234 main+0x12" */
void lbt_text_frame(struct lbt_out *o, const struct lbt_frame *f);

#endif
