# t_lasterr.sh - under every policy the program's last errors are the ones
# hipemu gives it when it serves every call itself: prog_lasterr's lines
# with the shim equal those without it.  Also with the shim's own calls
# failing (HIPEMU_FAIL on calls the program never makes: stream0's
# per-thread stream, the pool's fence events), whose errors must not reach
# the program.  On the profile in EMU_DIR (5.2 by default); the rule comes
# from the profile (hipRuntimeGetVersion).
. tests/shim/lib.sh
cd "$TMP" || exit 1
unset HIPEMU_FAIL HIPEMU_MEM_SIZE
export HIPEMU_MEM_SIZE=64M
LD_LIBRARY_PATH=$HIPEMU "$T/prog_lasterr" >plain.out 2>plain.err ||
	fail "plain run: $(cat plain.err)"
grep -q '^version ' plain.out || fail "no version line: $(cat plain.out)"
n=0
for pol in trace stream0 pool stream0,pool all; do
	for f in "" hipStreamCreateWithFlags:1+:hipErrorOutOfMemory \
		hipEventCreateWithFlags:1+:hipErrorOutOfMemory; do
		HIPEMU_FAIL=$f LBSHIM_POLICIES=$pol LBSHIM_LOG=error \
			LBSHIM_TRACE=t.%p.lbt LD_LIBRARY_PATH=$HIPEMU \
			with_shim "$T/prog_lasterr" >shim.out 2>shim.err ||
			fail "$pol ${f:-no fault}: exit $?: $(cat shim.err)"
		diff plain.out shim.out >d.out ||
			fail "$pol ${f:-no fault}: last errors differ" \
			"(< runtime alone, > with the shim): $(cat d.out)"
		n=$((n + 1))
	done
done
echo "$n runs, last errors as the runtime's own ($(sed -n 's/^version //p' plain.out))"
