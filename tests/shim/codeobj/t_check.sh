#!/bin/sh
# t_check.sh - the reader's Check suites (check_codeobj.c,
# check_codeobj_meta.c) over the fixtures of mk/codeobj.mk.
B=${BUILD:-build}/codeobj
CO_DIR=$B CK_DEFAULT_TIMEOUT=120 exec "$B/check_codeobj"
