/*
 * roles_gen.h - the expansion of hip_api.def's ROLES column (roles.h):
 * each row's call role, and its row of lb_arg_tab as an initializer.
 * shim/api_info.c makes the table of them; a file whose reads of roles
 * are all of rows known when it compiles (a switch over the rows, each
 * case the row's own) makes a static copy of its own, which its reads
 * then fold into constant offsets (policies/trace/trace_args.c).
 */
#ifndef LB_ROLES_GEN_H
#define LB_ROLES_GEN_H

#include <stddef.h>
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

/* The parameter p of row NAME, as an expression of its type. */
#define LB_M_(NAME, p) (((struct lb_args_##NAME *)0)->p)
#define LB_OFF_(NAME, p) offsetof(struct lb_args_##NAME, p)

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

/* Row NAME's entries of lb_arg_tab, its ROLES column being the rest. */
#define LB_ARG_ROW(NAME, ...) { LB_ROLES_MAP(LB_ENT_, NAME, __VA_ARGS__) }

#endif
