#!/bin/sh
# 16 threads allocating and freeing under ThreadSanitizer: the shim (every
# policy) and the test program instrumented, on hipemu's TSan build.
# make check: 400 rounds per thread (every path of the 1500 of t_threads.sh,
# in a quarter of the time: 16 threads under TSan on 2 CPUs spend it in
# futex waits); make stress (REL_MODE=stress) the full 1500.
B=${PT_BUILD:-build}
D=$B/tests/policies/pool
TS=$B/pool-tsan
# the TSan shim (mk/pool.mk: mk/reliability.mk's build/tsan/liblbshim.so)
SHIM=${PT_TSAN_SHIM:-$B/tsan/liblbshim.so}
HE=$B/hipemu-tsan
if [ ! -e "$HE/libamdhip64.so.5" ]; then
	echo "hipemu's TSan build ($HE) is missing: skipped (an uninstrumented"
	echo "hipemu would report its own internals as races)"; exit 77
fi
TSANLIB=$(cc -print-file-name=libtsan.so.2)
T=$(mktemp -d "${TMPDIR:-/tmp}/pooltsan.XXXXXX")
trap 'rm -rf "$T"' EXIT
unset LBSHIM_LOG LBSHIM_POOL_CHUNK LBSHIM_POOL_MAX_BLOCK LBSHIM_POOL_LIMIT \
	LBSHIM_POOL_FREE HIPEMU_MEM_SIZE HIPEMU_FAIL
export LD_LIBRARY_PATH=$HE HIPEMU_KERNELS=$D/libpooltwins.so
if [ "${REL_MODE:-check}" = stress ]; then PT_ITERS=1500; else PT_ITERS=400; fi
export PT_ITERS
export TSAN_OPTIONS="halt_on_error=0 exitcode=66 report_signal_unsafe=0 $TSAN_OPTIONS"
for sc in "threads 16" "small threads 16 tolerate" "hazard nonblocking" \
	"fuzz 5 300"; do
	mem=
	case $sc in small*) mem=40M; sc=${sc#small } ;; esac
	HIPEMU_MEM_SIZE=$mem LD_PRELOAD="$TSANLIB $SHIM" \
		LBSHIM_POLICIES=pool "$TS/pool_test" $sc >"$T/out" 2>"$T/err"
	rc=$?
	cat "$T/out"
	if [ $rc != 0 ] || grep -q "WARNING: ThreadSanitizer" "$T/err"; then
		sed -n '1,80p' "$T/err"
		echo "FAIL: $sc under TSan (exit $rc)"; exit 1
	fi
done
