#!/bin/sh
# The output writers print --json and the others use (numbers, hex, JSON
# strings) against plain references (out_test.c).
BUILD=${BUILD:-build}
"$BUILD/tests/tools/lbtrace/out_test"
