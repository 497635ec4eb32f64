# t_cuda_streams.sh - streams, events, callbacks and the legacy default
# stream's rules through the CUDA face (streams.cu checks the orderings
# and results); the calls are the legacy entry points, none per-thread.
. tests/hipemu/cuda/lib.sh
HIPEMU_STATS=$TMP/stats on_face "$T/streams" >"$TMP/out" 2>&1 ||
	fail "streams: $(cat "$TMP/out")"
names "$TMP/stats" | grep -E '_pt(sz|ds)$' >"$TMP/pt" || true
[ ! -s "$TMP/pt" ] || fail "per-thread entry points: $(cat "$TMP/pt")"
expect_eq "launches" "$(calls "$TMP/stats" __cudaLaunchKernel)" 12
expect_eq "callbacks" "$(calls "$TMP/stats" cudaStreamAddCallback)" 2
expect_eq "host functions" "$(calls "$TMP/stats" cudaLaunchHostFunc)" 1
expect_eq "records" "$(calls "$TMP/stats" cudaEventRecord)" 1
for k in streams_created:3 streams_destroyed:3 events_created:2 \
	events_destroyed:2; do
	expect_eq "${k%:*}" "$(calls "$TMP/stats" ${k%:*})" ${k#*:}
done
exit 0
