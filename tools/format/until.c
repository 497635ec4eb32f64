/*
 * until.c - up to when a trace knows its process was alive: what the
 * calls still in flight are said to have waited for (lbtrace crash) and
 * how long they are drawn (lbtrace export, both formats).
 */
#include <stdio.h>
#include "lbshim/names.h"
#include "format/fmt.h"

void lbt_until(const struct lbt_file *f, const struct lbt_crash *cr,
	       struct lbt_until *u)
{
	const char *sn;
	int64_t hb;

	if (cr) {
		sn = lbt_signal_name(cr->signo);
		u->ns = lbt_ticks_to_ns(f, cr->t_ticks);
		snprintf(u->what, sizeof(u->what), "the %s",
			 sn ? sn : "signal");
		return;
	}
	if ((f->hdr.flags & LB_HDR_CLEAN_EXIT) && f->hdr.end_ticks) {
		u->ns = lbt_ticks_to_ns(f, f->hdr.end_ticks);
		snprintf(u->what, sizeof(u->what), "the exit");
		return;
	}
	u->ns = lbt_ticks_to_ns(f, f->hdr.start_ticks) + f->last_t_ns;
	snprintf(u->what, sizeof(u->what), "the trace's last record");
	if (f->hdr.alive_ticks) {
		hb = lbt_ticks_to_ns(f, f->hdr.alive_ticks);
		if (hb >= u->ns) {
			u->ns = hb;
			snprintf(u->what, sizeof(u->what),
				 "the writer's last heartbeat");
		}
	}
}

/*
 * A call still in flight when the trace ended (no return recorded: a
 * hang killed, a crash) is drawn up to the last moment the trace knows
 * the process was alive, as lbtrace crash counts its wait, so that a hang
 * shows as long as it was.
 */
int64_t lbt_shown_dur(const struct lbt_rec *r)
{
	const struct lbt_file *f = r->file;
	struct lbt_until u;

	if (!r->in_flight || r->raw->t1)
		return r->dur_ns;
	lbt_until(f, f->ncrashes ? &f->crashes[0] : NULL, &u);
	return u.ns > r->t_ns ? u.ns - r->t_ns : 0;
}
