#!/bin/sh
# While another thread captures a stream (global mode), a block read by a
# kernel on the null stream or hipStreamPerThread, queued before or during
# the capture, is not handed out again until the kernel is done, and the
# capture stays valid (also a blocking stream's, which a record on the
# legacy stream would invalidate).
. "$(dirname "$0")/lib.sh"
for k in null perthread; do
	for w in before during; do
		run "cap-$k-$w" pool "$P" caphazard $k $w
	done
done
for w in before during; do
	run "cap-blocking-$w" pool "$P" caphazard perthread $w blocking
done
