/*
 * check_hipemu.h - what check_twins.c gives the hipemu suite.
 */
#ifndef LB_EMU_CHECK_H
#define LB_EMU_CHECK_H

#include <stdatomic.h>
#include <stdint.h>
#include "lbshim/hip_decls.h"

#define LOG_MAX 64

/* k_log's record: ids in completion order, start and end times by id. */
extern atomic_int log_n;
extern int log_ids[LOG_MAX];
extern _Atomic uint64_t t_start[LOG_MAX], t_end[LOG_MAX];
/* Runs of k_noargs (a twin without hipemu_args_). */
extern atomic_int noargs_runs;
/* Host stubs of k_log, k_noargs, k_fill and k_missing (no twin). */
extern char stub_log, stub_noargs, stub_fill, stub_missing;

uint64_t now_ns(void);
/* Registers the stubs once, at first use (it initializes hipemu). */
void register_kernels(void);
/* k_log(id, ms, out): sleeps ms, logs id, stores id in *out if set. */
hipError_t klog(int id, int ms, int *out, hipStream_t s);
/* k_fill(p, n, v): p[i] += v for i < n. */
hipError_t kfill(int *p, int n, int v, hipStream_t s);

/*
 * check_profile.c: a function newer than ROCm 5.2 by name, NULL where the
 * profile does not export it (and asserts the profile's release agrees);
 * and the profile's tests.
 */
void *newer_fn(const char *name);
struct Suite;
void add_profile_tests(struct Suite *s);
/* check_cost.c: the cost model's tests (HIPEMU_COST_*). */
void add_cost_tests(struct Suite *s);
/* check_poison.c: what a free leaves (poison where touched, no second free). */
void add_poison_tests(struct Suite *s);

#endif
