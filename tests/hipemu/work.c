/*
 * work.c - the things a stream op does, run on the stream's worker, and
 * their deep copies for graphs.
 */
#include "he.h"

#include <stdlib.h>
#include <string.h>

static void run_set(struct he_work *w)
{
	char *d = w->set.dst;

	if (w->set.elsize == 1) {
		memset(d, (int)(w->set.value & 0xff), w->set.count);
		return;
	}
	for (size_t i = 0; i < w->set.count; i++) {
		if (w->set.elsize == 4) {
			uint32_t v = w->set.value;

			memcpy(d + 4 * i, &v, 4);
		} else {
			uint16_t v = (uint16_t)w->set.value;

			memcpy(d + 2 * i, &v, 2);
		}
	}
}

void he_work_run(struct he_work *w)
{
	switch (w->kind) {
	case HE_W_NOP:
		break;
	case HE_W_KERNEL:
		w->kern.fn(&w->kern.l, w->kern.args);
		break;
	case HE_W_COPY:
		for (size_t r = 0; r < w->copy.height; r++)
			memmove(w->copy.dst + r * w->copy.dpitch,
				w->copy.src + r * w->copy.spitch,
				w->copy.width);
		break;
	case HE_W_SET:
		run_set(w);
		break;
	case HE_W_HOSTFN:
		w->hostfn.fn(w->hostfn.ud);
		break;
	case HE_W_CALLBACK:
		/* Work before it on the stream cannot fail on hipemu. */
		w->cb.fn(w->cb.handle, hipSuccess, w->cb.ud);
		break;
	case HE_W_EVENT:
		he_event_fire(w->event.ev, w->event.gen);
		break;
	case HE_W_FREE:
		he_release(w->free.ptr, 1);
		break;
	case HE_W_GRAPH:
		for (int i = 0; i < w->graph.n; i++)
			he_work_run(&w->graph.nodes[i]);
		break;
	}
}

/* Points args[i] at the values in buf (laid out after the array). */
static void kern_fix_args(struct he_work *w)
{
	if (w->kern.nargs >= 0 && w->kern.buf) {
		void **a = w->kern.buf;
		const unsigned *sz = (const unsigned *)(a + w->kern.nargs);
		size_t hdr = (size_t)w->kern.nargs *
			     (sizeof(void *) + sizeof(unsigned));
		char *val = (char *)w->kern.buf + ((hdr + 15) & ~(size_t)15);
		size_t off = 0;

		for (int i = 0; i < w->kern.nargs; i++) {
			off = (off + 15) & ~(size_t)15;
			a[i] = val + off;
			off += sz[i];
		}
		w->kern.args = a;
	}
	if (w->kern.kbuf)
		w->kern.l.kernarg = w->kern.kbuf;
}

int he_work_clone(struct he_work *dst, const struct he_work *src)
{
	*dst = *src;
	switch (src->kind) {
	case HE_W_KERNEL:
		dst->kern.buf = NULL;
		dst->kern.kbuf = NULL;
		if (src->kern.buf) {
			dst->kern.buf = malloc(src->kern.bufsz);
			if (!dst->kern.buf)
				return -1;
			memcpy(dst->kern.buf, src->kern.buf, src->kern.bufsz);
		}
		if (src->kern.kbuf) {
			dst->kern.kbuf = malloc(src->kern.l.kernarg_size);
			if (!dst->kern.kbuf) {
				free(dst->kern.buf);
				return -1;
			}
			memcpy(dst->kern.kbuf, src->kern.kbuf,
			       src->kern.l.kernarg_size);
		}
		kern_fix_args(dst);
		break;
	case HE_W_EVENT:
		/* The clone holds its own reference (he_event_unref). */
		he_event_ref(dst->event.ev);
		break;
	case HE_W_GRAPH:
		dst->graph.nodes = calloc((size_t)src->graph.n + 1,
					  sizeof(*dst->graph.nodes));
		if (!dst->graph.nodes)
			return -1;
		for (int i = 0; i < src->graph.n; i++) {
			if (he_work_clone(&dst->graph.nodes[i],
					  &src->graph.nodes[i])) {
				dst->graph.n = i;
				he_work_release(dst);
				return -1;
			}
		}
		break;
	default:
		break;
	}
	return 0;
}

void he_work_release(struct he_work *w)
{
	switch (w->kind) {
	case HE_W_KERNEL:
		free(w->kern.buf);
		free(w->kern.kbuf);
		break;
	case HE_W_EVENT:
		he_event_unref(w->event.ev);
		break;
	case HE_W_GRAPH:
		for (int i = 0; i < w->graph.n; i++)
			he_work_release(&w->graph.nodes[i]);
		free(w->graph.nodes);
		break;
	default:
		break;
	}
	w->kind = HE_W_NOP;
}

/*
 * Builds a kernel work item owning a copy of the argument values, so that
 * the caller's args array may go away when the launch returns.  sizes is
 * the twin's zero-terminated hipemu_args_M, or NULL: then the work uses the
 * caller's args directly and the launcher must wait for it to run.
 */
int he_work_kernel(struct he_work *w, hipemu_twin_fn fn,
		   const hipemu_launch *l, void **args, const unsigned *sizes)
{
	size_t n = 0, vals = 0;

	memset(w, 0, sizeof(*w));
	w->kind = HE_W_KERNEL;
	w->kern.fn = fn;
	w->kern.l = *l;
	w->kern.nargs = -1;
	w->kern.args = args;
	if (l->kernarg && l->kernarg_size) {
		w->kern.kbuf = malloc(l->kernarg_size);
		if (!w->kern.kbuf)
			return -1;
		memcpy(w->kern.kbuf, l->kernarg, l->kernarg_size);
		w->kern.l.kernarg = w->kern.kbuf;
	}
	if (!sizes || (!args && !w->kern.kbuf))
		return 0;
	while (sizes[n]) {
		vals = ((vals + 15) & ~(size_t)15) + sizes[n];
		n++;
	}
	w->kern.bufsz = n * (sizeof(void *) + sizeof(unsigned)) + vals + 16;
	w->kern.buf = calloc(1, w->kern.bufsz);
	if (!w->kern.buf) {
		free(w->kern.kbuf);
		return -1;
	}
	w->kern.nargs = (int)n;
	memcpy((void **)w->kern.buf + n, sizes, n * sizeof(unsigned));
	kern_fix_args(w);
	if (args) {
		for (size_t i = 0; i < n; i++)
			memcpy(w->kern.args[i], args[i], sizes[i]);
	} else {
		/* Split the packed "extra" buffer by natural alignment. */
		size_t off = 0;

		for (size_t i = 0; i < n; i++) {
			size_t al = sizes[i] >= 8 ? 8 : sizes[i];

			while (al & (al - 1))
				al &= al - 1;
			off = (off + al - 1) & ~(al - 1);
			if (off + sizes[i] <= l->kernarg_size)
				memcpy(w->kern.args[i], w->kern.kbuf + off,
				       sizes[i]);
			off += sizes[i];
		}
	}
	return 0;
}
