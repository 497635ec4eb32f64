/*
 * graph.c - stream capture into graphs and their replay.
 *
 * A captured graph is the sequence of work items the stream would have
 * run, in order: hipemu records one stream's capture as a chain, which is
 * what a single-stream capture is on a GPU too.  Cross-stream forks inside
 * a capture (event waits between capturing streams) are not modelled.
 */
#include "he.h"

#include <stdlib.h>
#include <string.h>

#define HE_GRAPH_MAGIC 0x6870617247484500ull
#define HE_EXEC_MAGIC 0x6365786547484500ull

struct he_graph {
	uint64_t magic;
	struct he_work *nodes;
	int n, cap;
};

struct he_exec {
	uint64_t magic;
	struct he_work *nodes;
	int n;
};

struct he_capture {
	struct he_graph *g;
	hipStreamCaptureMode mode;
	bool invalid;
	unsigned long long id;
};

static atomic_ullong he_capture_ids;

static struct he_graph *graph_new(void)
{
	struct he_graph *g = calloc(1, sizeof(*g));

	if (g)
		g->magic = HE_GRAPH_MAGIC;
	return g;
}

static void graph_free(struct he_graph *g)
{
	for (int i = 0; i < g->n; i++)
		he_work_release(&g->nodes[i]);
	free(g->nodes);
	g->magic = 0;
	free(g);
}

struct he_capture *he_capture_new(hipStreamCaptureMode mode)
{
	struct he_capture *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->g = graph_new();
	if (!c->g) {
		free(c);
		return NULL;
	}
	c->mode = mode;
	c->id = atomic_fetch_add(&he_capture_ids, 1) + 1;
	return c;
}

hipError_t he_capture_add(struct he_capture *c, struct he_work *w)
{
	struct he_graph *g = c->g;

	if (c->invalid)
		return hipErrorStreamCaptureInvalidated;
	if (g->n == g->cap) {
		int cap = g->cap ? g->cap * 2 : 16;
		struct he_work *nv = realloc(g->nodes, (size_t)cap * sizeof(*nv));

		if (!nv)
			return hipErrorOutOfMemory;
		g->nodes = nv;
		g->cap = cap;
	}
	g->nodes[g->n++] = *w;
	return hipSuccess;
}

bool he_capture_global(struct he_capture *c)
{
	return c->mode == hipStreamCaptureModeGlobal;
}

void he_capture_invalidate(struct he_capture *c)
{
	c->invalid = true;
}

bool he_capture_valid(struct he_capture *c)
{
	return !c->invalid;
}

unsigned long long he_capture_id(struct he_capture *c)
{
	return c->id;
}

void he_capture_free(struct he_capture *c)
{
	graph_free(c->g);
	free(c);
}

hipGraph_t he_capture_end(struct he_capture *c)
{
	struct he_graph *g = c->g;

	if (c->invalid) {
		graph_free(g);
		g = NULL;
	}
	free(c);
	return (hipGraph_t)g;
}

HE_EXPORT hipError_t hipStreamBeginCapture(hipStream_t stream,
					   hipStreamCaptureMode mode)
{
	struct he_stream *s;
	struct he_capture *c;
	hipError_t err;

	HE_ENTER("hipStreamBeginCapture");
	if (mode != hipStreamCaptureModeGlobal &&
	    mode != hipStreamCaptureModeThreadLocal &&
	    mode != hipStreamCaptureModeRelaxed)
		return he_ret(hipErrorInvalidValue);
	err = he_stream_get(stream, &s);
	if (err)
		return he_ret(err);
	/* The legacy stream cannot be captured. */
	if (he_stream_is_null(s))
		return he_ret(hipErrorStreamCaptureUnsupported);
	c = he_capture_new(mode);
	if (!c)
		return he_ret(hipErrorOutOfMemory);
	pthread_mutex_lock(&he_lock);
	if (he_stream_capture(s))
		err = hipErrorIllegalState;
	else
		he_stream_set_capture(s, c);
	pthread_mutex_unlock(&he_lock);
	if (err)
		he_capture_free(c);
	return he_ret(err);
}

HE_EXPORT hipError_t hipStreamEndCapture(hipStream_t stream,
					 hipGraph_t *pGraph)
{
	struct he_stream *s;
	struct he_capture *c;
	hipGraph_t g;
	hipError_t err;

	HE_ENTER("hipStreamEndCapture");
	if (!pGraph)
		return he_ret(hipErrorInvalidValue);
	err = he_stream_get(stream, &s);
	if (err)
		return he_ret(err);
	pthread_mutex_lock(&he_lock);
	c = he_stream_capture(s);
	he_stream_set_capture(s, NULL);
	pthread_mutex_unlock(&he_lock);
	if (!c)
		return he_ret(hipErrorIllegalState);
	g = he_capture_end(c);
	*pGraph = g;
	return g ? hipSuccess : he_ret(hipErrorStreamCaptureInvalidated);
}

static hipError_t capture_status(hipStream_t stream,
				 hipStreamCaptureStatus *status,
				 unsigned long long *id)
{
	struct he_stream *s;
	struct he_capture *c;
	hipError_t err;

	if (!status)
		return hipErrorInvalidValue;
	err = he_stream_get(stream, &s);
	if (err)
		return err;
	pthread_mutex_lock(&he_lock);
	c = he_stream_capture(s);
	if (!c)
		*status = hipStreamCaptureStatusNone;
	else if (!he_capture_valid(c))
		*status = hipStreamCaptureStatusInvalidated;
	else
		*status = hipStreamCaptureStatusActive;
	if (id && c)
		*id = he_capture_id(c);
	pthread_mutex_unlock(&he_lock);
	return hipSuccess;
}

HE_EXPORT hipError_t hipStreamIsCapturing(hipStream_t stream,
					  hipStreamCaptureStatus *pCaptureStatus)
{
	HE_ENTER("hipStreamIsCapturing");
	return he_ret(capture_status(stream, pCaptureStatus, NULL));
}

HE_EXPORT hipError_t hipStreamGetCaptureInfo(hipStream_t stream,
					     hipStreamCaptureStatus *pCaptureStatus,
					     unsigned long long *pId)
{
	HE_ENTER("hipStreamGetCaptureInfo");
	return he_ret(capture_status(stream, pCaptureStatus, pId));
}

HE_EXPORT hipError_t hipGraphCreate(hipGraph_t *pGraph, unsigned int flags)
{
	struct he_graph *g;

	HE_ENTER("hipGraphCreate");
	if (!pGraph || flags)
		return he_ret(hipErrorInvalidValue);
	g = graph_new();
	if (!g)
		return he_ret(hipErrorOutOfMemory);
	*pGraph = (hipGraph_t)g;
	return hipSuccess;
}

HE_EXPORT hipError_t hipGraphDestroy(hipGraph_t graph)
{
	struct he_graph *g = (struct he_graph *)graph;

	HE_ENTER("hipGraphDestroy");
	if (!g || g->magic != HE_GRAPH_MAGIC)
		return he_ret(hipErrorInvalidValue);
	graph_free(g);
	return hipSuccess;
}

/* Deep copy of n nodes; NULL when out of memory. */
static struct he_work *clone_nodes(const struct he_work *src, int n)
{
	struct he_work *v = calloc((size_t)n + 1, sizeof(*v));

	if (!v)
		return NULL;
	for (int i = 0; i < n; i++) {
		if (he_work_clone(&v[i], &src[i])) {
			while (i--)
				he_work_release(&v[i]);
			free(v);
			return NULL;
		}
	}
	return v;
}

HE_EXPORT hipError_t hipGraphInstantiate(hipGraphExec_t *pGraphExec,
					 hipGraph_t graph,
					 hipGraphNode_t *pErrorNode,
					 char *pLogBuffer, size_t bufferSize)
{
	struct he_graph *g = (struct he_graph *)graph;
	struct he_exec *e;

	HE_ENTER("hipGraphInstantiate");
	if (pErrorNode)
		*pErrorNode = NULL;
	if (pLogBuffer && bufferSize)
		pLogBuffer[0] = 0;
	if (!pGraphExec || !g || g->magic != HE_GRAPH_MAGIC)
		return he_ret(hipErrorInvalidValue);
	e = calloc(1, sizeof(*e));
	if (!e)
		return he_ret(hipErrorOutOfMemory);
	e->nodes = clone_nodes(g->nodes, g->n);
	if (!e->nodes) {
		free(e);
		return he_ret(hipErrorOutOfMemory);
	}
	e->magic = HE_EXEC_MAGIC;
	e->n = g->n;
	*pGraphExec = (hipGraphExec_t)e;
	return hipSuccess;
}

HE_EXPORT hipError_t hipGraphExecDestroy(hipGraphExec_t graphExec)
{
	struct he_exec *e = (struct he_exec *)graphExec;

	HE_ENTER("hipGraphExecDestroy");
	if (!e || e->magic != HE_EXEC_MAGIC)
		return he_ret(hipErrorInvalidValue);
	for (int i = 0; i < e->n; i++)
		he_work_release(&e->nodes[i]);
	free(e->nodes);
	e->magic = 0;
	free(e);
	return hipSuccess;
}

HE_EXPORT hipError_t hipGraphLaunch(hipGraphExec_t graphExec,
				    hipStream_t stream)
{
	struct he_exec *e = (struct he_exec *)graphExec;
	struct he_stream *s;
	struct he_work w = { .kind = HE_W_GRAPH };
	uint64_t seq;
	hipError_t err;

	HE_ENTER("hipGraphLaunch");
	if (!e || e->magic != HE_EXEC_MAGIC)
		return he_ret(hipErrorInvalidValue);
	err = he_stream_get(stream, &s);
	if (err)
		return he_ret(err);
	/* Each launch owns its copy, so the exec may be destroyed now. */
	w.graph.nodes = clone_nodes(e->nodes, e->n);
	if (!w.graph.nodes)
		return he_ret(hipErrorOutOfMemory);
	w.graph.n = e->n;
	he_cost(he_cfg.cost_launch_ns);
	err = he_enqueue(s, &w, NULL, 0, &seq);
	if (err)
		he_work_release(&w);
	return he_ret(err);
}
