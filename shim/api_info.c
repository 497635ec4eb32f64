/*
 * api_info.c - the table of static facts about each wrapped API, expanded
 * from hip_api.def, with its roles (include/lbshim/roles.h): each role
 * argument's place in the row's struct lb_args_<name>, checked here when
 * this file compiles.  Shared by the shim and lbtrace.
 */
#include <stddef.h>
#include <string.h>
#include "lbshim/api.h"

/* ---- the ROLES column: "(ROLE, AROLE(param), ...)", or none ---- */

#define LB_HEAD_(x, ...) x
#define LB_TAIL_(x, ...) (__VA_ARGS__)
/* The row's call role: LB_ROLE_NONE without the column. */
#define LB_ROLE_0_() LB_ROLE_NONE
#define LB_ROLE_1_(R) LB_CAT(LB_ROLE_, LB_HEAD_ R)
#define LB_ROLE_OF_(...) \
	LB_CAT(LB_ROLE_, LB_CAT(LB_NARGS((__VA_ARGS__)), _))(__VA_ARGS__)
/*
 * F(NAME, role, check, param...) for each AROLE(param) of the column, the
 * AROLE expanded by its LB_RA_ macro (roles.h).  (LB_MAP's own LB_APPLY_
 * cannot be used again inside it: two of ours.)
 */
#define LB_AP1_(f, args) f args
#define LB_AP2_(f, args) f args
#define LB_RAPPLY__(F, NAME, t) LB_AP2_(F, (NAME, LB_UNPAREN t))
#define LB_RAPPLY_(d, e) \
	LB_AP1_(LB_RAPPLY__, (LB_UNPAREN d, LB_CAT(LB_RA_, e)))
#define LB_RMAP_0_(F, NAME, ...)
#define LB_RMAP_1_(F, NAME, R) LB_MAP(LB_RAPPLY_, (F, NAME), LB_TAIL_ R)
#define LB_ROLES_MAP(F, NAME, ...)                                    \
	LB_CAT(LB_RMAP_, LB_CAT(LB_NARGS((__VA_ARGS__)), _))(F, NAME, \
							    __VA_ARGS__)

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

const struct lb_api_info lb_api_info[LB_API_COUNT] = {
#include "lbshim/hip_api.def"
};
#undef LB_API
#undef LB_API_AS

/* ---- lb_arg_tab: where each role's parameter is ---- */

/* The parameter p of row NAME, as an expression of its type. */
#define LB_M_(NAME, p) (((struct lb_args_##NAME *)0)->p)
#define LB_OFF_(NAME, p) offsetof(struct lb_args_##NAME, p)
#define LB_IS_PTR_(x) (__builtin_classify_type(x) == 5)
#define LB_IS_INT_(x) \
	(__builtin_classify_type(x) == 1 || __builtin_classify_type(x) == 3)
#define LB_TYPE_IS_(x, T) __builtin_types_compatible_p(__typeof__(x), T)

/* Each check of roles.h: does parameter p fit it? */
#define LB_OK_P(NAME, p) (LB_IS_PTR_(LB_M_(NAME, p)) && \
			  sizeof(LB_M_(NAME, p)) == 8)
#define LB_OK_O8(NAME, p) (LB_OK_P(NAME, p) && sizeof(*LB_M_(NAME, p)) == 8)
#define LB_OK_O4(NAME, p) (LB_OK_P(NAME, p) && sizeof(*LB_M_(NAME, p)) == 4)
#define LB_OK_O12(NAME, p) \
	(LB_OK_P(NAME, p) && LB_TYPE_IS_(*LB_M_(NAME, p), dim3))
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

/* The width of the value read in each check's role (roles.h). */
#define LB_W_P(NAME, p) 8
#define LB_W_O8(NAME, p) 8
#define LB_W_O4(NAME, p) 8
#define LB_W_O12(NAME, p) 8
#define LB_W_Z(NAME, p) 8
#define LB_W_I4(NAME, p) 4
#define LB_W_I(NAME, p) sizeof(LB_M_(NAME, p))
#define LB_W_T(NAME, p, T) 8
#define LB_W_DIM(NAME, ...) 4
#define LB_WCODE_(w) ((w) == 8 ? 0 : (w) == 4 ? 1 : (w) == 2 ? 2 : 3)

/* A role's entry: (offset / 4 + 1) | width code << 6 (roles.h). */
#define LB_ENT_(NAME, R, CK, p, ...)                     \
	[R] = (uint8_t)((LB_OFF_(NAME, p) / 4 + 1) |        \
			LB_WCODE_(LB_W_##CK(NAME, p, ##__VA_ARGS__)) << 6),
#define LB_API(RET, NAME, P, A, SIDX, KIND, VER, FLAGS, TWIN, ...) \
	[LB_ID_##NAME] = { LB_ROLES_MAP(LB_ENT_, NAME, __VA_ARGS__) },

_Alignas(64) const uint8_t lb_arg_tab[LB_API_COUNT][64] = {
#include "lbshim/hip_api.def"
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
#undef LB_API

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
