/*
 * kreg_plan.h - the making of a kernel's plan (kreg_plan.c) for the
 * registry (kreg.c): how a launch's arguments are copied, which words may
 * hold pointers, and the layout as text for lbtrace.
 */
#ifndef LB_KREG_PLAN_H
#define LB_KREG_PLAN_H

#include "kreg.h"
#include "lbshim/codeobj.h"

/* Layout text kept (lbtrace reads 4096). */
#define LB_KP_MAX_TEXT 4000u

/* The plan of kernel k (its explicit arguments), or NULL when out of
 * memory; freed with free() (name and target are the caller's). */
struct lb_kplan *lb_kp_make(const struct lb_co_kernel *k);

#endif
