/*
 * event.c - events: a recorded stream position plus the time the worker
 * reached it; hipStreamWaitEvent turns the position into a dependency.
 *
 * An event remembers only its latest record (like CUDA): every record bumps
 * a generation, and the record op of an older generation, when it runs,
 * leaves the timestamp alone.
 */
#include "he.h"

#include <stdlib.h>
#include <uthash.h>

struct he_event {
	void *key;
	UT_hash_handle hh;
	unsigned flags;
	int device;
	struct he_stream *s;	/* latest record's stream (ref held) */
	uint64_t seq;		/* ... and position in it */
	uint64_t gen;		/* records so far */
	uint64_t fired_gen;	/* generation whose op has run */
	uint64_t t_ns;
	int refs;		/* registry + pending record ops */
};

static struct he_event *he_events;

/* Under he_lock. */
hipError_t he_event_lookup(hipEvent_t h, struct he_event **out)
{
	struct he_event *ev = NULL;

	if (h)
		HASH_FIND_PTR(he_events, &h, ev);
	*out = ev;
	return ev ? hipSuccess : hipErrorInvalidHandle;
}

bool he_event_position(struct he_event *ev, struct he_stream **s,
		       uint64_t *seq)
{
	if (!ev->s)
		return false;
	*s = ev->s;
	*seq = ev->seq;
	return true;
}

/* Under he_lock. */
static void event_unref_locked(struct he_event *ev)
{
	if (--ev->refs)
		return;
	if (ev->s)
		he_stream_unref(ev->s);
	free(ev);
}

void he_event_ref(struct he_event *ev)
{
	pthread_mutex_lock(&he_lock);
	ev->refs++;
	pthread_mutex_unlock(&he_lock);
}

void he_event_unref(struct he_event *ev)
{
	pthread_mutex_lock(&he_lock);
	event_unref_locked(ev);
	pthread_mutex_unlock(&he_lock);
}

void he_event_fire(struct he_event *ev, uint64_t gen)
{
	uint64_t now = he_now_ns();

	pthread_mutex_lock(&he_lock);
	/* gen 0: a record node replayed from a graph. */
	if (gen == ev->gen || gen == 0) {
		ev->t_ns = now;
		ev->fired_gen = ev->gen;
	}
	pthread_mutex_unlock(&he_lock);
}

void he_events_reset(int dev)
{
	struct he_event *ev, *tmp;

	pthread_mutex_lock(&he_lock);
	HASH_ITER(hh, he_events, ev, tmp) {
		if (ev->device != dev)
			continue;
		HASH_DEL(he_events, ev);
		atomic_fetch_add(&he_events_destroyed, 1);
		event_unref_locked(ev);
	}
	pthread_mutex_unlock(&he_lock);
}

static hipError_t event_create(hipEvent_t *event, unsigned flags)
{
	struct he_event *ev;
	const unsigned known = hipEventDefault | hipEventBlockingSync |
			       hipEventDisableTiming | hipEventInterprocess |
			       hipEventReleaseToDevice |
			       hipEventReleaseToSystem;

	if (!event || (flags & ~known))
		return hipErrorInvalidValue;
	ev = calloc(1, sizeof(*ev));
	if (!ev)
		return hipErrorOutOfMemory;
	ev->key = ev;
	ev->flags = flags;
	ev->device = he_cur_dev();
	ev->refs = 1;
	pthread_mutex_lock(&he_lock);
	HASH_ADD_PTR(he_events, key, ev);
	pthread_mutex_unlock(&he_lock);
	atomic_fetch_add(&he_events_created, 1);
	*event = (hipEvent_t)ev;
	return hipSuccess;
}

HE_EXPORT hipError_t hipEventCreate(hipEvent_t *event)
{
	HE_ENTER("hipEventCreate");
	return he_ret(event_create(event, 0));
}

HE_EXPORT hipError_t hipEventCreateWithFlags(hipEvent_t *event,
					     unsigned flags)
{
	HE_ENTER("hipEventCreateWithFlags");
	return he_ret(event_create(event, flags));
}

HE_EXPORT hipError_t hipEventDestroy(hipEvent_t event)
{
	struct he_event *ev;
	hipError_t err;

	HE_ENTER("hipEventDestroy");
	pthread_mutex_lock(&he_lock);
	err = he_event_lookup(event, &ev);
	if (!err) {
		/* A pending record keeps its own reference. */
		HASH_DEL(he_events, ev);
		event_unref_locked(ev);
	}
	pthread_mutex_unlock(&he_lock);
	if (!err)
		atomic_fetch_add(&he_events_destroyed, 1);
	return he_ret(err);
}

hipError_t he_event_record(hipEvent_t event, hipStream_t stream)
{
	struct he_stream *s;
	struct he_event *ev;
	struct he_work w = { .kind = HE_W_EVENT };
	uint64_t seq, gen;
	hipError_t err;

	err = he_stream_get(stream, &s);
	if (err)
		return err;
	pthread_mutex_lock(&he_lock);
	err = he_event_lookup(event, &ev);
	if (!err) {
		ev->refs++;
		gen = ++ev->gen;
		/* Captured: the graph node records (with gen 0) at replay. */
		w.event.gen = he_stream_capture(s) ? 0 : gen;
	}
	pthread_mutex_unlock(&he_lock);
	if (err)
		return err;
	w.event.ev = ev;
	err = he_enqueue(s, &w, NULL, 0, &seq);
	pthread_mutex_lock(&he_lock);
	if (err) {
		event_unref_locked(ev);
	} else if (seq && ev->gen == gen) {
		if (ev->s)
			he_stream_unref(ev->s);
		he_stream_ref(s);
		ev->s = s;
		ev->seq = seq;
	}
	pthread_mutex_unlock(&he_lock);
	he_cost(he_cfg.cost_record_ns);
	return err;
}

HE_EXPORT hipError_t hipEventRecord(hipEvent_t event, hipStream_t stream)
{
	HE_ENTER("hipEventRecord");
	return he_ret(he_event_record(event, stream));
}

HE_EXPORT hipError_t hipEventRecord_spt(hipEvent_t event, hipStream_t stream)
{
	HE_ENTER("hipEventRecord_spt");
	return he_ret(he_event_record(event, stream ? stream :
						      hipStreamPerThread));
}

HE_EXPORT hipError_t hipEventQuery(hipEvent_t event)
{
	struct he_event *ev;
	hipError_t err;

	HE_ENTER("hipEventQuery");
	pthread_mutex_lock(&he_lock);
	err = he_event_lookup(event, &ev);
	if (!err && ev->s && !he_stream_reached(ev->s, ev->seq))
		err = hipErrorNotReady;
	pthread_mutex_unlock(&he_lock);
	he_cost(he_cfg.cost_query_ns);
	return he_ret(err);
}

HE_EXPORT hipError_t hipEventSynchronize(hipEvent_t event)
{
	struct he_event *ev;
	struct he_stream *s = NULL;
	uint64_t seq = 0;
	hipError_t err;

	HE_ENTER("hipEventSynchronize");
	pthread_mutex_lock(&he_lock);
	err = he_event_lookup(event, &ev);
	if (!err && ev->s) {
		s = ev->s;
		seq = ev->seq;
		he_stream_ref(s);
	}
	pthread_mutex_unlock(&he_lock);
	if (s) {
		he_stream_wait(s, seq);
		pthread_mutex_lock(&he_lock);
		he_stream_unref(s);
		pthread_mutex_unlock(&he_lock);
		he_cost(he_cfg.cost_sync_ns);
	}
	return he_ret(err);
}

HE_EXPORT hipError_t hipEventElapsedTime(float *ms, hipEvent_t start,
					 hipEvent_t stop)
{
	struct he_event *a, *b;
	hipError_t err;

	HE_ENTER("hipEventElapsedTime");
	if (!ms)
		return he_ret(hipErrorInvalidValue);
	pthread_mutex_lock(&he_lock);
	err = he_event_lookup(start, &a);
	if (!err)
		err = he_event_lookup(stop, &b);
	if (err)
		goto out;
	if ((a->flags | b->flags) & hipEventDisableTiming || !a->gen ||
	    !b->gen) {
		err = hipErrorInvalidHandle;
		goto out;
	}
	if (a->fired_gen != a->gen || b->fired_gen != b->gen) {
		err = hipErrorNotReady;
		goto out;
	}
	*ms = (float)((double)((int64_t)(b->t_ns - a->t_ns)) / 1e6);
out:
	pthread_mutex_unlock(&he_lock);
	return he_ret(err);
}

static hipError_t stream_wait_event(hipStream_t stream, hipEvent_t event,
				    unsigned int flags)
{
	struct he_stream *s;
	struct he_event *ev;
	struct he_work w = { .kind = HE_W_NOP };
	uint64_t seq;
	hipError_t err;
	bool capturing = false;

	if (flags)
		return hipErrorInvalidValue;
	err = he_stream_get(stream, &s);
	if (err)
		return err;
	pthread_mutex_lock(&he_lock);
	err = he_event_lookup(event, &ev);
	if (!err) {
		ev->refs++;
		capturing = he_stream_capture(s) != NULL;
	}
	pthread_mutex_unlock(&he_lock);
	if (err)
		return err;
	/*
	 * While capturing, a wait joins work of the same capture: the graph
	 * is a sequence, so the wait is already satisfied by its order.
	 */
	if (!capturing)
		err = he_enqueue(s, &w, ev, 0, &seq);
	he_event_unref(ev);
	return err;
}

HE_EXPORT hipError_t hipStreamWaitEvent(hipStream_t stream, hipEvent_t event,
					unsigned int flags)
{
	HE_ENTER("hipStreamWaitEvent");
	return he_ret(stream_wait_event(stream, event, flags));
}

HE_EXPORT hipError_t hipStreamWaitEvent_spt(hipStream_t stream,
					    hipEvent_t event,
					    unsigned int flags)
{
	HE_ENTER("hipStreamWaitEvent_spt");
	return he_ret(stream_wait_event(stream ? stream : hipStreamPerThread,
					event, flags));
}
