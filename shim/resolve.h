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

#endif
