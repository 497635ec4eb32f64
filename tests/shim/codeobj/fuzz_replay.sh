#!/bin/sh
# fuzz_replay.sh - replays tests/shim/codeobj/corpus through the reader's
# fuzz harness built with ASan and UBSan (no libFuzzer), plus
# deterministic variants of every file (bytes flipped, cut short): any
# sanitizer report or crash fails.  allocator_may_return_null: see
# fuzz-codeobj in mk/codeobj.mk.
BUILD=${BUILD:-build}
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:allocator_may_return_null=1 \
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	"$BUILD/codeobj/fuzz_replay" -m ${FUZZ_MUTATIONS:-300} \
	tests/shim/codeobj/corpus
