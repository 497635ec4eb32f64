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
 * A CUDA library the shim found no copy of at its start, seen later:
 * fn, a function of row api, came from it (dlsym(handle, ...) of the
 * program or of cudart).  If that row's library (the runtime or the
 * driver) has no handle yet, the library defining fn becomes it and
 * every empty row of it is filled.  Returns the real function of api
 * afterwards (NULL if still none).  Safe from any thread, any number of
 * times; errno and dlerror() left as they were.
 */
void *lb_cu_adopt(int api, const void *fn);

#endif
