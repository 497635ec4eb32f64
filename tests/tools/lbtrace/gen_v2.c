/*
 * gen_v2.c - gen_trace's traces in format version 2 (lbshim-trace(5)):
 * a trace built as version 1 is moved past a name table of its own and
 * given a runtime.  Test code.
 *
 *   gen_trace v2basic OUT   basic, HIP 5.2.21153 from a ROCm path
 *   gen_trace v2cuda OUT    basic, said to be CUDA's, version and
 *                           library not known
 *   gen_trace cudanames OUT a CUDA program's calls: runtime and driver
 *                           rows that failed and that succeeded, a copy
 *   gen_trace v2long OUT    basic under a table of 400 long names
 *                           before the real ones (about 30 KB: version
 *                           1's 6656 bytes could not have held it), its
 *                           calls' ids moved past them, and two calls of
 *                           long-named APIs this lbtrace does not know
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lbshim/api.h"
#include "gen_trace.h"

#define LONG_NAMES 400

/* Adds SHIFT to the API id of every call record of the blocks at B. */
static void shift_calls(uint8_t *b, size_t len, uint32_t bs, int shift)
{
	size_t off, s;

	for (off = 0; off + bs <= len; off += bs) {
		for (s = 1; s < bs / 64; s++) {
			struct lb_trace_rec *r = (void *)(b + off + s * 64);

			if (r->hdr.type == LB_REC_CALL)
				r->hdr.api = (uint16_t)(r->hdr.api + shift);
		}
	}
}

/*
 * G, a whole version 1 trace, becomes version 2: the names LIST (N of
 * them) in a table after the fixed header, runtime RT with version VER
 * (0: not known) from library LIB; the calls' ids moved by SHIFT.
 */
static void to_v2(struct gen *g, const char *const *list, int n,
		  unsigned rt, int ver, const char *lib, int shift)
{
	size_t len = 1, hsize, o = 0;
	uint8_t *nb;
	struct lb_trace_header *h;
	int i;

	for (i = 0; i < n; i++)
		len += strlen(list[i]) + 1;
	hsize = (LB_TRACE_HEADER_SIZE + len + LB_TRACE_PAGE - 1) /
		LB_TRACE_PAGE * LB_TRACE_PAGE;
	nb = calloc(1, hsize + g->size - LB_TRACE_HEADER_SIZE);
	if (!nb) {
		perror("gen_trace");
		exit(1);
	}
	memcpy(nb, g->buf, LB_TRACE_HEADER_SIZE);
	memcpy(nb + hsize, g->buf + LB_TRACE_HEADER_SIZE,
	       g->size - LB_TRACE_HEADER_SIZE);
	h = (struct lb_trace_header *)nb;
	memset(h->api_names, 0, sizeof(h->api_names));
	for (i = 0; i < n; i++) {
		memcpy(nb + LB_TRACE_HEADER_SIZE + o, list[i],
		       strlen(list[i]) + 1);
		o += strlen(list[i]) + 1;
	}
	h->version = LB_TRACE_VERSION;
	h->header_size = (uint32_t)hsize;
	h->names_off = LB_TRACE_HEADER_SIZE;
	h->names_len = (uint32_t)len;
	h->api_count = (uint32_t)n;
	h->runtime = rt;
	h->runtime_version = ver;
	if (ver > 0)
		h->flags |= LB_HDR_RT_VERSION;
	snprintf(h->runtime_lib, sizeof(h->runtime_lib), "%s", lib);
	shift_calls(nb + hsize, g->size - LB_TRACE_HEADER_SIZE, h->block_size,
		    shift);
	free(g->buf);
	g->buf = nb;
	g->size = g->cap = hsize + g->size - LB_TRACE_HEADER_SIZE;
	g->h = h;
}

int gen_v2(struct gen *g, const char *kind)
{
	static char longs[LONG_NAMES][80];
	const char *list[LONG_NAMES + LB_API_COUNT];
	int i, m;

	for (i = 0; i < LB_API_COUNT; i++)
		list[i] = lb_api_info[i].name;
	/*
	 * The v2 kinds other than cudanames name HIP's rows only, as
	 * lbshim wrote them before the CUDA rows joined the table (a
	 * reader maps ids by name; test_v2.sh's byte offsets are theirs).
	 */
	if (!strcmp(kind, "v2basic")) {
		write_basic(g);
		to_v2(g, list, LB_API_HIP_COUNT, LB_RT_HIP, 50221153,
		      "/opt/rocm-5.2.3/lib/libamdhip64.so.5", 0);
	} else if (!strcmp(kind, "v2cuda")) {
		write_basic(g);
		to_v2(g, list, LB_API_HIP_COUNT, LB_RT_CUDA, 0, "", 0);
	} else if (!strcmp(kind, "cudanames")) {
		m = thread(g, 7100, "main");
		/* 2: cudaErrorMemoryAllocation, CUDA_ERROR_OUT_OF_MEMORY */
		call(g, m, LB_ID_cudaMalloc, 2, 700, 0, 0, 0, 1ull << 40, 0,
		     LB_POOL_OFF, 0);
		call(g, m, LB_ID_cuMemAlloc_v2, 2, 700, 0, 0, 0, 1ull << 40, 0,
		     LB_POOL_OFF, 0);
		call(g, m, LB_ID_cudaMalloc, 0, 900, 0, 0, P(1), 4096, 0,
		     LB_POOL_OFF, 0);
		call(g, m, LB_ID_cudaMemcpy, 0, 2000, 0, 0, P(1), 0x10000000,
		     4096, 1, 0);
		call(g, m, LB_ID_cudaStreamSynchronize, 0, 300, 0, 0, 0, 0, 0,
		     0, 0);
		/* 201: cudaErrorDeviceUninitialized, CUDA_ERROR_INVALID_CONTEXT */
		call(g, m, LB_ID_cuCtxSynchronize, 201, 300, 0, 0, 0, 0, 0, 0,
		     0);
		to_v2(g, list, LB_API_COUNT, LB_RT_CUDA, 13000,
		      "/usr/local/cuda/lib64/libcudart.so.13", 0);
	} else if (!strcmp(kind, "v2long")) {
		write_basic(g);
		m = thread(g, 9999, "longnames");
		call(g, m, LB_ID_hipMalloc, 0, 100, 0, 0, 0, 0, 0, 0, 0);
		/* two ids among the long names: moved to 5 and 399 below */
		call(g, m, 5 - LONG_NAMES, 0, 100, 0, 0, 0, 0, 0, 0, 0);
		call(g, m, LONG_NAMES - 1 - LONG_NAMES, 0, 100, 0, 0, 0, 0,
		     0, 0, 0);
		for (i = 0; i < LONG_NAMES; i++) {
			snprintf(longs[i], sizeof(longs[i]),
				 "cudaAVeryLongFunctionNameThatNoRuntimeHas_"
				 "number_%04d_of_the_table",
				 i);
			list[i] = longs[i];
		}
		for (i = 0; i < LB_API_HIP_COUNT; i++)
			list[LONG_NAMES + i] = lb_api_info[i].name;
		to_v2(g, list, LONG_NAMES + LB_API_HIP_COUNT, LB_RT_HIP,
		      60241134,
		      "/opt/rocm/lib/libamdhip64.so.6", LONG_NAMES);
	} else {
		return -1;
	}
	return 0;
}
