/*
 * api_info.c - the table of static facts about each wrapped API, expanded
 * from hip_api.def, with its roles (include/lbshim/roles.h): each role
 * argument's place in the row's struct lb_args_<name>, checked here when
 * this file compiles.  Shared by the shim and lbtrace.
 */
#include <stddef.h>
#include <string.h>
#include "lbshim/api.h"
#include "lbshim/roles_gen.h"

/* ---- lb_api_info ---- */

#define LB_VERSTR_(v) "hip_" v
/* TWIN is "()" or "(name)": the twin's id, or -1. */
#define LB_TWIN_ID_0() -1
#define LB_TWIN_ID_1(t) LB_ID_##t
#define LB_TWIN_ID_(TWIN) LB_CAT(LB_TWIN_ID_, LB_NARGS(TWIN)) TWIN
/* LB_API_AS rows are named lb_cxx_<HIP name>: the trace shows the HIP name. */
#define LB_API_AS(SYM, RET, NAME, P, A, SIDX, KIND, VER, FLAGS, TWIN, ...) \
	[LB_ID_##NAME] = { #NAME + sizeof("lb_cxx_") - 1, SYM,            \
			   LB_VERSTR_(VER), SIDX, LB_KIND_##KIND, FLAGS,    \
			   LB_NARGS(A), LB_ROLE_OF_(__VA_ARGS__),           \
			   LB_TWIN_ID_(TWIN) },
#define LB_API(RET, NAME, P, A, SIDX, KIND, VER, FLAGS, TWIN, ...)         \
	[LB_ID_##NAME] = { #NAME, #NAME, LB_VERSTR_(VER), SIDX,             \
			   LB_KIND_##KIND, FLAGS, LB_NARGS(A),              \
			   LB_ROLE_OF_(__VA_ARGS__), LB_TWIN_ID_(TWIN) },

/* A CUDA row's version node is NVIDIA's, as it is ("" for the driver). */
#define LB_API_CU(HIP, RET, NAME, P, A, SIDX, KIND, VER, FLAGS, TWIN, ...) \
	[LB_ID_##NAME] = { #NAME, #NAME, VER, SIDX, LB_KIND_##KIND, FLAGS, \
			   LB_NARGS(A), LB_ROLE_OF_(__VA_ARGS__),          \
			   LB_TWIN_ID_(TWIN) },

const struct lb_api_info lb_api_info[LB_API_COUNT] = {
#include "lbshim/hip_api.def"
#include "lbshim/cuda_api.def"
};
#undef LB_API_CU
#undef LB_API
#undef LB_API_AS

/* ---- lb_arg_tab: where each role's parameter is ---- */

#define LB_IS_PTR_(x) (__builtin_classify_type(x) == 5)
#define LB_IS_INT_(x) \
	(__builtin_classify_type(x) == 1 || __builtin_classify_type(x) == 3)
#define LB_TYPE_IS_(x, T) __builtin_types_compatible_p(__typeof__(x), T)

/* Each check of roles.h: does parameter p fit it? */
/* (or CUDA's CUdeviceptr, an 8-byte integer: cuda_decls.h) */
#define LB_OK_P(NAME, p) ((LB_IS_PTR_(LB_M_(NAME, p)) || \
			   LB_IS_INT_(LB_M_(NAME, p))) && \
			  sizeof(LB_M_(NAME, p)) == 8)
#define LB_OK_PTR_(NAME, p) (LB_IS_PTR_(LB_M_(NAME, p)) && \
			     sizeof(LB_M_(NAME, p)) == 8)
#define LB_OK_O8(NAME, p) \
	(LB_OK_PTR_(NAME, p) && sizeof(*LB_M_(NAME, p)) == 8)
#define LB_OK_O4(NAME, p) \
	(LB_OK_PTR_(NAME, p) && sizeof(*LB_M_(NAME, p)) == 4)
#define LB_OK_O12(NAME, p) \
	(LB_OK_PTR_(NAME, p) && LB_TYPE_IS_(*LB_M_(NAME, p), dim3))
#define LB_OK_Z(NAME, p) LB_TYPE_IS_(LB_M_(NAME, p), size_t)
#define LB_OK_I4(NAME, p) \
	(LB_IS_INT_(LB_M_(NAME, p)) && sizeof(LB_M_(NAME, p)) == 4)
#define LB_OK_I(NAME, p)                                               \
	(LB_IS_INT_(LB_M_(NAME, p)) &&                                 \
	 (sizeof(LB_M_(NAME, p)) == 1 || sizeof(LB_M_(NAME, p)) == 2 || \
	  sizeof(LB_M_(NAME, p)) == 4 || sizeof(LB_M_(NAME, p)) == 8))
#define LB_OK_T(NAME, p, T) LB_TYPE_IS_(LB_M_(NAME, p), T)
/* DIM: a dim3, or x, y and z as consecutive 4-byte integers */
#define LB_OK_DIM1_(NAME, p) LB_TYPE_IS_(LB_M_(NAME, p), dim3)
#define LB_OK_DIM3_(NAME, x, y, z)                          \
	(LB_OK_I4(NAME, x) && LB_OK_I4(NAME, y) && LB_OK_I4(NAME, z) && \
	 LB_OFF_(NAME, y) == LB_OFF_(NAME, x) + 4 &&                 \
	 LB_OFF_(NAME, z) == LB_OFF_(NAME, x) + 8)
#define LB_OK_DIM(NAME, ...) \
	LB_CAT(LB_OK_DIM, LB_CAT(LB_NARGS((__VA_ARGS__)), _))(NAME, __VA_ARGS__)

#define LB_API(RET, NAME, P, A, SIDX, KIND, VER, FLAGS, TWIN, ...) \
	[LB_ID_##NAME] = LB_ARG_ROW(NAME, __VA_ARGS__),

_Alignas(64) const uint8_t lb_arg_tab[LB_API_COUNT][64] = {
#include "lbshim/hip_api.def"
#include "lbshim/cuda_api.def"
};
#undef LB_API

/*
 * Every entry checked: the parameter is of the role's type, at an offset
 * the entry can hold.  A row whose role names a parameter it lacks does
 * not compile (offsetof).
 */
#define LB_CHECK_(NAME, R, CK, p, ...)                                   \
	_Static_assert(LB_OK_##CK(NAME, p, ##__VA_ARGS__),               \
		       "hip_api.def: " #NAME ": " #p " is no " #R);      \
	_Static_assert(LB_OFF_(NAME, p) % 4 == 0 &&                      \
			       LB_OFF_(NAME, p) / 4 + 1 < 64,            \
		       "hip_api.def: " #NAME ": " #p ": offset");
#define LB_API(RET, NAME, P, A, SIDX, KIND, VER, FLAGS, TWIN, ...) \
	LB_ROLES_MAP(LB_CHECK_, NAME, __VA_ARGS__)
#include "lbshim/hip_api.def"
#include "lbshim/cuda_api.def"
#undef LB_API

/* cuda_api.def's first column, by name: "none" or a HIP row. */
static const char *const lb_cu_twin[LB_API_COUNT] = {
#define LB_API(...)
#define LB_API_CU(HIP, RET, NAME, ...) [LB_ID_##NAME] = #HIP,
#include "lbshim/cuda_api.def"
#undef LB_API_CU
#undef LB_API
};

int lb_api_hip_twin(int api)
{
	int t;

	if (api < LB_API_HIP_COUNT || api >= LB_API_COUNT)
		return -1;
	t = lb_api_lookup(lb_cu_twin[api]);
	return t >= 0 && t < LB_API_HIP_COUNT ? t : -1;
}

int lb_api_lookup(const char *name)
{
	int i;

	if (!name)
		return -1;
	for (i = 0; i < LB_API_COUNT; i++)
		if (!strcmp(lb_api_info[i].name, name) ||
		    !strcmp(lb_api_info[i].symbol, name))
			return i;
	return -1;
}

const char *lb_kind_name(unsigned kind)
{
	static const char *const names[LB_KIND_COUNT] = {
		"launch", "sync",  "alloc",  "free",   "copy",	"set",
		"event",  "stream", "device", "registration", "other",
	};

	return kind < LB_KIND_COUNT ? names[kind] : "?";
}
