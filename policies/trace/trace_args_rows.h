/*
 * trace_args_rows.h - the cases of one of trace_args.c's switches over the
 * rows: for each row with roles, its id, and LB_FILL_FN(r, c, id, role)
 * when its kind passes LB_FILL_OK(kind); then nothing.  No include guard:
 * included once per switch, LB_FILL_OK and LB_FILL_FN defined before (and
 * undefined here).
 */
#define LB_FILL_CASE_0(NAME, KIND, ...)
#define LB_FILL_CASE_1(NAME, KIND, R)                                      \
	case LB_ID_##NAME:                                                 \
		if (LB_FILL_OK(LB_KIND_##KIND))                            \
			LB_FILL_FN(r, c, LB_ID_##NAME, LB_ROLE_OF_(R));    \
		return;
#define LB_API(RET, NAME, P, A, SIDX, KIND, VER, FLAGS, TWIN, ...) \
	LB_CAT(LB_FILL_CASE_, LB_NARGS((__VA_ARGS__)))(NAME, KIND, __VA_ARGS__)
#include "lbshim/hip_api.def"
#include "lbshim/cuda_api.def"
#undef LB_API
#undef LB_FILL_CASE_0
#undef LB_FILL_CASE_1
#undef LB_FILL_OK
#undef LB_FILL_FN
	default:
		return;
