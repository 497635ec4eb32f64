/*
 * api.h - what hip_api.def expands to for the shim, its policies and
 * lbtrace: API ids, names, kinds, per-API argument structs, and the call
 * context that policies see.
 */
#ifndef LB_API_H
#define LB_API_H

#include <stdint.h>
#include "lbshim/hip_decls.h"
#include "lbshim/cuda_decls.h"
#include "lbshim/pp.h"
#include "lbshim/roles.h"

/*
 * Row flags (FLAGS column of hip_api.def).  A row with LB_F_NULLSYNC, or a
 * synchronous _spt row, names in its TWIN column the Async row that does
 * the same work on a stream it takes last; stream0 calls that twin on the
 * thread's own stream and waits for it (lb_api_info.twin is its id).
 */
#define LB_F_OPT 0x1u	   /* not in ROCm 5.2: wrapped when present */
#define LB_F_SPT 0x2u	   /* per-thread default stream variant */
#define LB_F_NULLSYNC 0x4u /* synchronous, implicitly on the null stream */
#define LB_F_INDIRECT 0x8u /* its streams are in a parameter block or the
			    * <<<>>> configuration, not a parameter */
#define LB_F_PROCADDR 0x10u /* hands out entry points (hipGetProcAddress) */

/* Kinds of call (sixth column). */
enum lb_kind {
	LB_KIND_LAUNCH,
	LB_KIND_SYNC,
	LB_KIND_ALLOC,
	LB_KIND_FREE,
	LB_KIND_COPY,
	LB_KIND_SET,
	LB_KIND_EVENT,
	LB_KIND_STREAM,
	LB_KIND_DEVICE,
	LB_KIND_REG,
	LB_KIND_OTHER,
	LB_KIND_COUNT
};

/*
 * API ids: LB_ID_<name>, dense from 0, in table order: HIP's rows
 * (hip_api.def), then CUDA's (cuda_api.def) from LB_API_HIP_COUNT on.
 */
enum lb_api_id {
#define LB_API(RET, NAME, P, A, SIDX, KIND, VER, FLAGS, TWIN, ...) \
	LB_ID_##NAME,
#include "lbshim/hip_api.def"
	LB_API_HIP_COUNT,
	LB_API_CU_BEFORE_ = LB_API_HIP_COUNT - 1,
#include "lbshim/cuda_api.def"
#undef LB_API
	LB_API_COUNT
};

/* Is row api one of CUDA's (cuda_api.def)? */
#define LB_API_IS_CUDA(api) ((api) >= LB_API_HIP_COUNT)

/*
 * struct lb_args_<name>: the call's arguments by name, so that a policy
 * can read and change them (stream0 rewrites the stream field).
 */
#define LB_FIELD_(d, p) p;
#define LB_API(RET, NAME, P, A, SIDX, KIND, VER, FLAGS, TWIN, ...) \
	struct lb_args_##NAME {                                     \
		LB_MAP_N(LB_NARGS(A), LB_FIELD_, 0, P)              \
	};
#include "lbshim/hip_api.def"
#include "lbshim/cuda_api.def"
#undef LB_API

/* Static facts about one API, indexed by id. */
struct lb_api_info {
	const char *name;   /* HIP's name ("hipMalloc") */
	const char *symbol; /* exported symbol, mangled where the runtime is */
	const char *version; /* "hip_4.2" */
	int8_t stream_idx;
	uint8_t kind;
	uint8_t flags;
	uint8_t nargs;
	uint8_t role; /* enum lb_role (ROLES column) */
	int16_t twin; /* id of the row's Async twin (TWIN column), or -1 */
};

extern const struct lb_api_info lb_api_info[LB_API_COUNT];

/* Returns the id of HIP name or symbol NAME, or -1. */
int lb_api_lookup(const char *name);

/*
 * The id of the HIP twin of CUDA row api (cuda_api.def's first column),
 * or -1: none, or api is no CUDA row.
 */
int lb_api_hip_twin(int api);

/* Name of a kind ("launch"), or "?" for an out-of-range value. */
const char *lb_kind_name(unsigned kind);

#endif
