#!/bin/sh
# The summary's quantiles are within 1% of the exact ones (sketch_test.c).
BUILD=${BUILD:-build}
"$BUILD/tests/tools/lbtrace/sketch_test"
