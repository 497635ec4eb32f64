#!/bin/sh
# Replays tests/tools/read/corpus through the fuzz harness built with ASan and
# UBSan (no libFuzzer), plus deterministic variants of every file: any
# sanitizer report or crash fails.
BUILD=${BUILD:-build}
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	"$BUILD/fuzz/fuzz_replay" -m ${FUZZ_MUTATIONS:-150} tests/tools/read/corpus
