/*
 * elfdyn.h - questions about a loaded object, answered from its dynamic
 * section alone: no dlopen, no dlsym, nothing that changes the dynamic
 * linker's state or dlerror().
 */
#ifndef LB_ELFDYN_H
#define LB_ELFDYN_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <link.h>

/*
 * Does the object loaded at base with dynamic section dyn define the
 * function name in its dynamic symbol table (any version)?  Returns 1 or 0.
 */
int lb_elf_defines(ElfW(Addr) base, const ElfW(Dyn) *dyn, const char *name);

/*
 * The address a d_ptr entry p of the dynamic section of the object loaded
 * at base points to, whether glibc relocated it in place or not.
 */
const void *lb_elf_ptr(ElfW(Addr) base, ElfW(Addr) p);

/* The object's dynamic section, from its program headers, or NULL. */
const ElfW(Dyn) *lb_elf_dynamic(const struct dl_phdr_info *info);

/*
 * Does the object have a DT_RUNPATH or DT_RPATH, or DF_1_NODEFLIB: does
 * its own search path take part when it dlopen()s a bare name?
 */
int lb_elf_has_search_path(const ElfW(Dyn) *dyn);

#endif
