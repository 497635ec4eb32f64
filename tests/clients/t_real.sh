# t_real.sh - each client on Debian's real ROCm 5.2 runtime (no device
# here: every library meets the runtime's errors): exit status, output and
# errors are the same with and without the shim, under every policy set.
. tests/clients/lib.sh
for c in $CLIENTS; do
	run "$TMP/$c.plain" "$c"
	grep -q "^hipMalloc 0$" "$TMP/$c.plain.out" &&
		echo "note: $c: the real runtime has a device here"
	for p in $POLICY_SETS; do
		run_shim "$TMP/$c.$p" "$c" "$p"
		same "$c, real runtime, LBSHIM_POLICIES=$p" "$TMP/$c.plain" "$TMP/$c.$p"
	done
	echo "$c: $(tr '\n' ' ' <"$TMP/$c.plain.out")"
done
exit 0
