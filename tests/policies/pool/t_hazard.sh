#!/bin/sh
# A kernel reads a block for 200 ms; the block is freed, the size allocated
# again and overwritten on a racing stream: the kernel's sum must hold, for
# kernels on a non-blocking, a blocking, the null, the per-thread and a
# destroyed stream.  The control run shows the check catches a clobber.
. "$(dirname "$0")/lib.sh"
run control pool "$P" control
for k in nonblocking blocking null perthread; do
	run "h-$k" pool "$P" hazard $k
done
run h-destroy pool "$P" hazard nonblocking destroy
