/* check_codeobj.h - what the code-object reader's Check suites share. */
#ifndef CHECK_CODEOBJ_H
#define CHECK_CODEOBJ_H

#include <check.h>
#include <stddef.h>
#include "lbshim/codeobj.h"

Suite *co_suite_files(void);
Suite *co_suite_meta(void);

/* n bytes of p copied to the very end of a mapping (next page unmapped). */
unsigned char *co_place(const void *p, size_t n, void **base, size_t *len);
void co_unplace(void *base, size_t len);

#endif
