# t_lowmem.sh - a device nearly out of memory (HIPEMU_MEM_SIZE 1M to 6M):
# an allocation the runtime can satisfy must not fail because a policy
# asked the runtime for more (a pool chunk) or holds memory in its cache;
# the program's output is the same as without the shim, for the pool
# alone and for every policy.
# asan: yes
. tests/reliability/lib.sh
cd "$TMP" || exit 1
P=$R/prog_sweep
for mem in 1M 2M 4M 6M; do
	HIPEMU_MEM_SIZE=$mem on_emu timeout 60 "$P" >plain.out 2>plain.err
	soft_eq "exit without the shim ($mem)" "$?" 0
	grep -v '^#fds' plain.out >plain.r
	for pol in pool all; do
		HIPEMU_MEM_SIZE=$mem LBSHIM_POLICIES=$pol LBSHIM_TRACE=$TMP/t.%p.lbt \
			emu_shim timeout 60 "$P" >shim.out 2>shim.err
		rc=$?
		soft_eq "exit ($pol, $mem)" "$rc" 0
		grep -v '^#fds' shim.out >shim.r
		diff plain.r shim.r >d.txt ||
			rfail "$pol, device of $mem: results differ from the run without the shim: $(grep '^[<>]' d.txt | head -n 6 | tr '\n' '|')"
		rm -f t.*.lbt
	done
done
finish
