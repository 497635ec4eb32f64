/*
 * rt_hip.h - the HIP side of the seam at compile time: what generic code
 * over the API table (hip_api.def) must name of HIP's own types, given
 * here so that the policies name none (rt.h says why there is a seam).
 *
 * LB_RT_BYVAL(X): the structures the table's rows take by value, each
 * as X(HIP's type, the name of its neutral twin in rt.h, whose layout
 * rt_hip.c asserts equal).  A generic printer defines, per pair, a
 * function that takes HIP's type and hands the neutral twin on.
 */
#ifndef LB_RT_HIP_H
#define LB_RT_HIP_H

#include "rt.h"

#define LB_RT_BYVAL(X)                 \
	X(hipPitchedPtr, lb_pitched)   \
	X(hipExtent, lb_extent)        \
	X(hipMemLocation, lb_memloc)

#endif
