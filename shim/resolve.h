/* resolve.h - resolution entry points used by init.c. */
#ifndef LB_RESOLVE_H
#define LB_RESOLVE_H

/*
 * Fills lb_real for every row; libpath is LBSHIM_HIP_LIBRARY or NULL.
 * Returns the number of functions found (0: one warning was printed).
 */
int lb_resolve_all(const char *libpath);

/* At LBSHIM_LOG=debug, says where each family of functions came from. */
void lb_resolve_report(void);

/*
 * resolve_cuda.c.  lb_cu_present: has the process loaded a CUDA runtime
 * or driver (1, else 0)?  lb_cu_find_loaded: the same among the loaded
 * objects only.  lb_cu_resolve: fills lb_real's CUDA rows from them;
 * serve: the policies are to see CUDA's calls (lb_cu_served).  Returns
 * the number of functions found.  lb_cu_file: the runtime's path (the
 * driver's where there is none), "" before.  lb_cu_sym: a function of
 * either by name, or NULL; errno and dlerror() left as they were.
 */
int lb_cu_present(void);
int lb_cu_find_loaded(void);
int lb_cu_resolve(int serve);
const char *lb_cu_file(void);
void *lb_cu_sym(const char *sym);

/*
 * The driver loaded after start-up (a shared cudart dlopens it when it
 * starts): lb_cu_driver_late fills the driver's empty rows from it once
 * it is among the loaded objects; returns 1 when the driver is known (now
 * or before), 0 before lb_init has finished or while none is loaded.
 * lb_cu_late_row: the same, then row api's real function or NULL.  Both
 * keep errno; neither is for a hot path (a walk of the loaded objects
 * whenever some were loaded since the last).
 */
int lb_cu_driver_late(void);
void *lb_cu_late_row(int api);

#endif
