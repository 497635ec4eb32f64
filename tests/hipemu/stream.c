/*
 * stream.c - in-order queues run by one worker thread each, and the rules
 * that order them against each other.
 *
 * Every op records, when it is enqueued, the (stream, position) pairs it
 * must wait for: the legacy null stream's op waits for the tail of every
 * blocking stream of its device, an op on a blocking stream waits for the
 * null stream's tail, and hipStreamWaitEvent adds the event's position.
 * Capturing the dependencies at enqueue time, not at run time, is what
 * makes the order the program's order, as on a GPU.
 *
 * One lock (he_lock) and one condition (he_progress, broadcast whenever an
 * op completes) serve all streams: simple, obviously free of lock-order
 * problems, and fast enough for a test device.
 */
#include "he.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>

pthread_mutex_t he_lock = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t he_progress = PTHREAD_COND_INITIALIZER;

enum he_stream_type { HE_ST_USER, HE_ST_NULL, HE_ST_PT };

struct he_dep {
	struct he_stream *s;
	uint64_t seq;
};

struct he_op {
	struct he_op *next;
	uint64_t seq;
	int ndeps;
	struct he_dep *deps;
	struct he_work w;
};

struct he_stream {
	void *key;		/* == the struct, for the live registry */
	UT_hash_handle hh;
	enum he_stream_type type;
	int device;
	unsigned flags;
	int priority;
	uint64_t enq, done;	/* ops enqueued, ops completed */
	struct he_op *head, *tail;
	pthread_cond_t cv;	/* new work or dying, for the worker */
	bool dying;		/* no more work; worker exits when drained */
	bool self_exit;		/* destroyed from its own worker */
	int refs;
	pthread_t worker;
	struct he_capture *cap;
	struct he_stream *dev_next;
};

/* Per-thread default streams of one thread, by device. */
struct he_pts {
	struct he_stream *s[HE_MAX_DEVICES];
	uint64_t gen[HE_MAX_DEVICES];
};

static struct he_stream *he_live;		/* registry of user streams */
static struct he_stream *he_dev_streams[HE_MAX_DEVICES];
static struct he_stream *he_null[HE_MAX_DEVICES];
static uint64_t he_dev_gen[HE_MAX_DEVICES];	/* bumped by device reset */
static __thread struct he_pts *he_pts;
static __thread struct he_stream *he_self;	/* stream this worker runs */
static pthread_key_t he_pts_key;
static pthread_once_t he_pts_once = PTHREAD_ONCE_INIT;

static bool blocking(const struct he_stream *s)
{
	return s->type != HE_ST_NULL && !(s->flags & hipStreamNonBlocking);
}

bool he_stream_reached(struct he_stream *s, uint64_t seq)
{
	return s->done >= seq;
}

void he_stream_ref(struct he_stream *s)
{
	s->refs++;
}

void he_stream_unref(struct he_stream *s)
{
	if (--s->refs)
		return;
	pthread_cond_destroy(&s->cv);
	free(s);
}

int he_stream_device(struct he_stream *s)
{
	return s->device;
}

bool he_stream_is_null(struct he_stream *s)
{
	return s->type == HE_ST_NULL;
}

bool he_on_worker(void)
{
	return he_self != NULL;
}

struct he_capture *he_stream_capture(struct he_stream *s)
{
	return s->cap;
}

void he_stream_set_capture(struct he_stream *s, struct he_capture *c)
{
	s->cap = c;
}

static bool deps_met(const struct he_op *op)
{
	for (int i = 0; i < op->ndeps; i++)
		if (!he_stream_reached(op->deps[i].s, op->deps[i].seq))
			return false;
	return true;
}

static void *worker_main(void *arg)
{
	struct he_stream *s = arg;

	he_self = s;
	pthread_mutex_lock(&he_lock);
	for (;;) {
		struct he_op *op;

		while (!s->head && !s->dying)
			pthread_cond_wait(&s->cv, &he_lock);
		op = s->head;
		if (!op)
			break;
		while (!deps_met(op))
			pthread_cond_wait(&he_progress, &he_lock);
		pthread_mutex_unlock(&he_lock);

		he_work_run(&op->w);

		pthread_mutex_lock(&he_lock);
		s->head = op->next;
		if (!s->head)
			s->tail = NULL;
		s->done = op->seq;
		for (int i = 0; i < op->ndeps; i++)
			he_stream_unref(op->deps[i].s);
		pthread_cond_broadcast(&he_progress);
		pthread_mutex_unlock(&he_lock);
		/* Outside the lock: releasing may drop an event reference. */
		he_work_release(&op->w);
		free(op->deps);
		free(op);
		pthread_mutex_lock(&he_lock);
	}
	if (s->self_exit)
		he_stream_unref(s);
	pthread_mutex_unlock(&he_lock);
	return NULL;
}

/* Under he_lock. Creates a stream and its worker, or returns NULL. */
static struct he_stream *stream_new(int dev, enum he_stream_type type,
				    unsigned flags, int prio)
{
	struct he_stream *s = calloc(1, sizeof(*s));
	sigset_t all, old;
	int rc;

	if (!s)
		return NULL;
	s->key = s;
	s->type = type;
	s->device = dev;
	s->flags = flags;
	s->priority = prio;
	s->refs = 1;
	pthread_cond_init(&s->cv, NULL);
	/*
	 * The worker must never take the program's asynchronous signals; a
	 * fault in a kernel twin, though, must reach the program's (and the
	 * shim's) handlers as a GPU fault reaches the runtime's, so the
	 * synchronous ones stay open.
	 */
	sigfillset(&all);
	sigdelset(&all, SIGSEGV);
	sigdelset(&all, SIGBUS);
	sigdelset(&all, SIGFPE);
	sigdelset(&all, SIGILL);
	sigdelset(&all, SIGABRT);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&s->worker, NULL, worker_main, s);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc) {
		pthread_cond_destroy(&s->cv);
		free(s);
		return NULL;
	}
	s->dev_next = he_dev_streams[dev];
	he_dev_streams[dev] = s;
	if (type == HE_ST_USER) {
		/* Stats count the program's streams, not hipemu's own. */
		HASH_ADD_PTR(he_live, key, s);
		atomic_fetch_add(&he_streams_created, 1);
	}
	return s;
}

/* Under he_lock: unlinks s; the caller then joins and unrefs it. */
static void stream_unlink(struct he_stream *s)
{
	struct he_stream **pp = &he_dev_streams[s->device];

	while (*pp && *pp != s)
		pp = &(*pp)->dev_next;
	if (*pp)
		*pp = s->dev_next;
	if (s->type == HE_ST_USER)
		HASH_DEL(he_live, s);
	if (he_null[s->device] == s)
		he_null[s->device] = NULL;
	s->dying = true;
	pthread_cond_signal(&s->cv);
}

/* Without he_lock: waits for the drained worker, drops the last ref. */
static void stream_finish(struct he_stream *s)
{
	enum he_stream_type type = s->type;

	/* Unlinked, so nobody else reaches s->cap; freeing it may drop
	 * event references, which takes he_lock. */
	if (s->cap) {
		he_capture_free(s->cap);
		s->cap = NULL;
	}
	if (pthread_equal(pthread_self(), s->worker)) {
		/* Destroyed from one of its own callbacks. */
		pthread_mutex_lock(&he_lock);
		s->self_exit = true;
		pthread_mutex_unlock(&he_lock);
		pthread_detach(s->worker);
	} else {
		pthread_join(s->worker, NULL);
		pthread_mutex_lock(&he_lock);
		he_stream_unref(s);
		pthread_mutex_unlock(&he_lock);
	}
	if (type == HE_ST_USER)
		atomic_fetch_add(&he_streams_destroyed, 1);
}

static void pts_destroy(void *arg)
{
	struct he_pts *p = arg;

	for (int d = 0; d < HE_MAX_DEVICES; d++) {
		struct he_stream *s;

		pthread_mutex_lock(&he_lock);
		s = p->s[d];
		if (s && p->gen[d] == he_dev_gen[d])
			stream_unlink(s);
		else
			s = NULL;
		pthread_mutex_unlock(&he_lock);
		if (s)
			stream_finish(s);
	}
	free(p);
}

static void pts_key_init(void)
{
	pthread_key_create(&he_pts_key, pts_destroy);
}

/* Under he_lock. */
static struct he_stream *per_thread(int dev)
{
	if (!he_pts) {
		pthread_once(&he_pts_once, pts_key_init);
		he_pts = calloc(1, sizeof(*he_pts));
		if (!he_pts)
			return NULL;
		pthread_setspecific(he_pts_key, he_pts);
	}
	if (!he_pts->s[dev] || he_pts->gen[dev] != he_dev_gen[dev]) {
		he_pts->s[dev] = stream_new(dev, HE_ST_PT, 0, 0);
		he_pts->gen[dev] = he_dev_gen[dev];
	}
	return he_pts->s[dev];
}

hipError_t he_stream_get(hipStream_t h, struct he_stream **out)
{
	struct he_stream *s = NULL;
	int dev = he_cur_dev();
	hipError_t err = hipSuccess;

	pthread_mutex_lock(&he_lock);
	if (h == NULL || h == hipStreamLegacy) {
		if (!he_null[dev])
			he_null[dev] = stream_new(dev, HE_ST_NULL, 0, 0);
		s = he_null[dev];
		if (!s)
			err = hipErrorOutOfMemory;
	} else if (h == hipStreamPerThread) {
		s = per_thread(dev);
		if (!s)
			err = hipErrorOutOfMemory;
	} else {
		HASH_FIND_PTR(he_live, &h, s);
		if (!s)
			err = hipErrorInvalidHandle;
	}
	pthread_mutex_unlock(&he_lock);
	*out = s;
	return err;
}

/* Under he_lock: capture rule for work put on the null stream. */
static hipError_t null_capture_rule(struct he_stream *s, unsigned flags)
{
	hipError_t err = hipSuccess;

	for (struct he_stream *t = he_dev_streams[s->device]; t;
	     t = t->dev_next) {
		if (t->cap && blocking(t)) {
			he_capture_invalidate(t->cap);
			err = (flags & HE_ENQ_SYNC) ?
				      hipErrorStreamCaptureUnsupported :
				      hipErrorStreamCaptureImplicit;
		}
	}
	return err;
}

static int add_dep(struct he_op *op, int cap, struct he_stream *t,
		   uint64_t seq)
{
	if (he_stream_reached(t, seq) || op->ndeps == cap)
		return 0;
	op->deps[op->ndeps].s = t;
	op->deps[op->ndeps].seq = seq;
	op->ndeps++;
	he_stream_ref(t);
	return 0;
}

hipError_t he_enqueue(struct he_stream *s, struct he_work *w,
		      struct he_event *ev, unsigned flags, uint64_t *seq)
{
	struct he_op *op;
	hipError_t err;
	int cap = 2;

	*seq = 0;
	pthread_mutex_lock(&he_lock);
	if (s->cap) {
		if (flags & HE_ENQ_SYNC) {
			he_capture_invalidate(s->cap);
			err = hipErrorStreamCaptureUnsupported;
		} else {
			err = he_capture_add(s->cap, w);
		}
		pthread_mutex_unlock(&he_lock);
		return err;
	}
	if (s->type == HE_ST_NULL) {
		err = null_capture_rule(s, flags);
		if (err) {
			pthread_mutex_unlock(&he_lock);
			return err;
		}
		for (struct he_stream *t = he_dev_streams[s->device]; t;
		     t = t->dev_next)
			cap++;
	}
	op = calloc(1, sizeof(*op));
	if (op)
		op->deps = calloc((size_t)cap, sizeof(*op->deps));
	if (!op || !op->deps) {
		pthread_mutex_unlock(&he_lock);
		free(op);
		return hipErrorOutOfMemory;
	}
	if (s->type == HE_ST_NULL) {
		for (struct he_stream *t = he_dev_streams[s->device]; t;
		     t = t->dev_next)
			if (t != s && blocking(t))
				add_dep(op, cap, t, t->enq);
	} else if (blocking(s) && he_null[s->device]) {
		struct he_stream *n = he_null[s->device];

		add_dep(op, cap, n, n->enq);
	}
	if (ev) {
		struct he_stream *es;
		uint64_t eseq;

		if (he_event_position(ev, &es, &eseq) && es != s)
			add_dep(op, cap, es, eseq);
	}
	op->w = *w;
	op->seq = ++s->enq;
	if (s->tail)
		s->tail->next = op;
	else
		s->head = op;
	s->tail = op;
	*seq = op->seq;
	pthread_cond_signal(&s->cv);
	pthread_mutex_unlock(&he_lock);
	return hipSuccess;
}

void he_stream_wait(struct he_stream *s, uint64_t seq)
{
	/* A worker waiting for its own stream would wait forever. */
	if (s == he_self)
		return;
	pthread_mutex_lock(&he_lock);
	while (!he_stream_reached(s, seq))
		pthread_cond_wait(&he_progress, &he_lock);
	pthread_mutex_unlock(&he_lock);
}

void he_sync_device(int dev)
{
	struct he_dep *snap = NULL;
	size_t n = 0, cap = 0;

	pthread_mutex_lock(&he_lock);
	for (int d = 0; d < he_cfg.ndevices; d++) {
		if (dev >= 0 && d != dev)
			continue;
		for (struct he_stream *t = he_dev_streams[d]; t;
		     t = t->dev_next) {
			if (t == he_self || he_stream_reached(t, t->enq))
				continue;
			if (n == cap) {
				size_t nc = cap ? cap * 2 : 16;
				struct he_dep *ns =
					realloc(snap, nc * sizeof(*ns));

				if (!ns)
					break;
				snap = ns;
				cap = nc;
			}
			snap[n].s = t;
			snap[n].seq = t->enq;
			he_stream_ref(t);
			n++;
		}
	}
	for (size_t i = 0; i < n; i++) {
		while (!he_stream_reached(snap[i].s, snap[i].seq))
			pthread_cond_wait(&he_progress, &he_lock);
		he_stream_unref(snap[i].s);
	}
	pthread_mutex_unlock(&he_lock);
	free(snap);
}

hipError_t he_capture_check_sync(int dev)
{
	hipError_t err = hipSuccess;

	pthread_mutex_lock(&he_lock);
	for (struct he_stream *t = he_dev_streams[dev]; t; t = t->dev_next) {
		if (t->cap && he_capture_global(t->cap)) {
			he_capture_invalidate(t->cap);
			err = hipErrorStreamCaptureUnsupported;
		}
	}
	pthread_mutex_unlock(&he_lock);
	return err;
}

void he_streams_reset(int dev)
{
	struct he_stream *list[256];
	int n;

	he_sync_device(dev);
	pthread_mutex_lock(&he_lock);
	he_dev_gen[dev]++;
	pthread_mutex_unlock(&he_lock);
	do {
		n = 0;
		pthread_mutex_lock(&he_lock);
		while (he_dev_streams[dev] && n < 256) {
			list[n] = he_dev_streams[dev];
			stream_unlink(list[n]);
			n++;
		}
		pthread_mutex_unlock(&he_lock);
		for (int i = 0; i < n; i++)
			stream_finish(list[i]);
	} while (n == 256);
}

/* ---- the HIP stream API ---- */

static hipError_t stream_create(hipStream_t *stream, unsigned flags,
				int prio)
{
	struct he_stream *s;
	int dev = he_cur_dev();

	if (!stream || (flags & ~(unsigned)hipStreamNonBlocking))
		return hipErrorInvalidValue;
	/* HIP's priorities: -1 high, 0 normal, 1 low; others are clamped. */
	prio = prio < -1 ? -1 : prio > 1 ? 1 : prio;
	pthread_mutex_lock(&he_lock);
	s = stream_new(dev, HE_ST_USER, flags, prio);
	pthread_mutex_unlock(&he_lock);
	if (!s)
		return hipErrorOutOfMemory;
	/* after the stream exists, no lock held: a reset may take it
	 * before the caller has it (HIPEMU_COST_STREAM_NS) */
	he_cost(he_cfg.cost_stream_ns);
	*stream = (hipStream_t)s;
	return hipSuccess;
}

HE_EXPORT hipError_t hipStreamCreate(hipStream_t *stream)
{
	HE_ENTER("hipStreamCreate");
	return he_ret(stream_create(stream, 0, 0));
}

HE_EXPORT hipError_t hipStreamCreateWithFlags(hipStream_t *stream,
					      unsigned int flags)
{
	HE_ENTER("hipStreamCreateWithFlags");
	return he_ret(stream_create(stream, flags, 0));
}

HE_EXPORT hipError_t hipStreamCreateWithPriority(hipStream_t *stream,
						 unsigned int flags,
						 int priority)
{
	HE_ENTER("hipStreamCreateWithPriority");
	return he_ret(stream_create(stream, flags, priority));
}

HE_EXPORT hipError_t hipDeviceGetStreamPriorityRange(int *leastPriority,
						     int *greatestPriority)
{
	HE_ENTER("hipDeviceGetStreamPriorityRange");
	if (leastPriority)
		*leastPriority = 1;
	if (greatestPriority)
		*greatestPriority = -1;
	return hipSuccess;
}

HE_EXPORT hipError_t hipStreamDestroy(hipStream_t stream)
{
	struct he_stream *s = NULL;

	HE_ENTER("hipStreamDestroy");
	if (stream == NULL || stream == hipStreamLegacy ||
	    stream == hipStreamPerThread)
		return he_ret(hipErrorInvalidHandle);
	pthread_mutex_lock(&he_lock);
	HASH_FIND_PTR(he_live, &stream, s);
	if (s)
		stream_unlink(s);
	pthread_mutex_unlock(&he_lock);
	if (!s)
		return he_ret(hipErrorInvalidHandle);
	/* Pending work still runs: joining the worker waits for it. */
	stream_finish(s);
	return hipSuccess;
}

/*
 * Under he_lock: the null stream s and every blocking stream of its device
 * have done all they were given, and no stream of the device is capturing
 * (a capture takes the slow path and its rules).  Then a sync of s
 * has nothing to wait for, and needs no marker: the worker's round trip
 * (tens of us on a busy machine) is what a GPU's idle sync does not cost.
 */
static bool null_idle(struct he_stream *s)
{
	if (!he_stream_reached(s, s->enq))
		return false;
	for (struct he_stream *t = he_dev_streams[s->device]; t;
	     t = t->dev_next)
		if (t->cap || (t != s && blocking(t) &&
				!he_stream_reached(t, t->enq)))
			return false;
	return true;
}

static hipError_t stream_sync(hipStream_t stream, bool spt)
{
	bool idle = false;

	struct he_stream *s;
	struct he_work w = { .kind = HE_W_NOP };
	uint64_t seq;
	hipError_t err;

	if (spt && stream == NULL)
		stream = hipStreamPerThread;
	err = he_stream_get(stream, &s);
	if (err)
		return err;
	pthread_mutex_lock(&he_lock);
	if (s->cap) {
		he_capture_invalidate(s->cap);
		err = hipErrorStreamCaptureUnsupported;
	}
	seq = s->enq;
	if (!err && s->type == HE_ST_NULL)
		idle = null_idle(s);
	pthread_mutex_unlock(&he_lock);
	if (err)
		return err;
	if (s->type == HE_ST_NULL && !idle) {
		/* Legacy: syncing the null stream waits for every blocking
		 * stream's prior work, as a null-stream marker does. */
		err = he_capture_check_sync(s->device);
		if (!err)
			err = he_enqueue(s, &w, NULL, HE_ENQ_SYNC, &seq);
		if (err)
			return err;
	}
	he_stream_wait(s, seq);
	he_cost(he_cfg.cost_sync_ns);
	return hipSuccess;
}

HE_EXPORT hipError_t hipStreamSynchronize(hipStream_t stream)
{
	HE_ENTER("hipStreamSynchronize");
	return he_ret(stream_sync(stream, false));
}

HE_EXPORT hipError_t hipStreamSynchronize_spt(hipStream_t stream)
{
	HE_ENTER("hipStreamSynchronize_spt");
	return he_ret(stream_sync(stream, true));
}

static hipError_t stream_query(hipStream_t stream, bool spt)
{
	struct he_stream *s;
	hipError_t err;

	if (spt && stream == NULL)
		stream = hipStreamPerThread;
	err = he_stream_get(stream, &s);
	if (err)
		return err;
	pthread_mutex_lock(&he_lock);
	if (s->cap) {
		he_capture_invalidate(s->cap);
		err = hipErrorStreamCaptureUnsupported;
	} else if (!he_stream_reached(s, s->enq)) {
		err = hipErrorNotReady;
	}
	pthread_mutex_unlock(&he_lock);
	he_cost(he_cfg.cost_query_ns);
	return err;
}

HE_EXPORT hipError_t hipStreamQuery(hipStream_t stream)
{
	hipError_t err;

	HE_ENTER("hipStreamQuery");
	/*
	 * hipErrorNotReady is recorded like any value (HIP_RETURN); only
	 * 7.x's sticky error leaves it out (he_ret, profile.c).
	 */
	err = stream_query(stream, false);
	return he_ret(err);
}

HE_EXPORT hipError_t hipStreamQuery_spt(hipStream_t stream)
{
	hipError_t err;

	HE_ENTER("hipStreamQuery_spt");
	err = stream_query(stream, true);
	return he_ret(err);
}

static hipError_t stream_flags(hipStream_t stream, unsigned *flags,
			       int *prio, bool spt)
{
	struct he_stream *s;
	hipError_t err;

	if ((flags == NULL && prio == NULL))
		return hipErrorInvalidValue;
	if (spt && stream == NULL)
		stream = hipStreamPerThread;
	err = he_stream_get(stream, &s);
	if (err)
		return err;
	if (flags)
		*flags = s->flags;
	if (prio)
		*prio = s->priority;
	return hipSuccess;
}

HE_EXPORT hipError_t hipStreamGetFlags(hipStream_t stream,
				       unsigned int *flags)
{
	HE_ENTER("hipStreamGetFlags");
	return he_ret(flags ? stream_flags(stream, flags, NULL, false) :
			      hipErrorInvalidValue);
}

HE_EXPORT hipError_t hipStreamGetFlags_spt(hipStream_t stream,
					   unsigned int *flags)
{
	HE_ENTER("hipStreamGetFlags_spt");
	return he_ret(flags ? stream_flags(stream, flags, NULL, true) :
			      hipErrorInvalidValue);
}

HE_EXPORT hipError_t hipStreamGetPriority(hipStream_t stream, int *priority)
{
	HE_ENTER("hipStreamGetPriority");
	return he_ret(priority ? stream_flags(stream, NULL, priority, false) :
				 hipErrorInvalidValue);
}

HE_EXPORT hipError_t hipStreamGetPriority_spt(hipStream_t stream,
					      int *priority)
{
	HE_ENTER("hipStreamGetPriority_spt");
	return he_ret(priority ? stream_flags(stream, NULL, priority, true) :
				 hipErrorInvalidValue);
}
