/*
 * api_info.c - the table of static facts about each wrapped API, expanded
 * from hip_api.def.  Shared by the shim and lbtrace.
 */
#include <string.h>
#include "lbshim/api.h"

#define LB_VERSTR_(v) "hip_" v
/* TWIN is "()" or "(name)": the twin's id, or -1. */
#define LB_TWIN_ID_0() -1
#define LB_TWIN_ID_1(t) LB_ID_##t
#define LB_TWIN_ID_(TWIN) LB_CAT(LB_TWIN_ID_, LB_NARGS(TWIN)) TWIN
/* LB_API_AS rows are named lb_cxx_<HIP name>: the trace shows the HIP name. */
#define LB_API_AS(SYM, RET, NAME, P, A, SIDX, KIND, VER, FLAGS, TWIN)   \
	[LB_ID_##NAME] = { #NAME + sizeof("lb_cxx_") - 1, SYM,         \
			   LB_VERSTR_(VER), SIDX, LB_KIND_##KIND, FLAGS, \
			   LB_NARGS(A), LB_TWIN_ID_(TWIN) },
#define LB_API(RET, NAME, P, A, SIDX, KIND, VER, FLAGS, TWIN)         \
	[LB_ID_##NAME] = { #NAME, #NAME, LB_VERSTR_(VER), SIDX,      \
			   LB_KIND_##KIND, FLAGS, LB_NARGS(A),         \
			   LB_TWIN_ID_(TWIN) },

const struct lb_api_info lb_api_info[LB_API_COUNT] = {
#include "lbshim/hip_api.def"
};
#undef LB_API
#undef LB_API_AS

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
