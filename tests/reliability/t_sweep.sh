# t_sweep.sh - fault injection sweep: for each API prog_sweep calls, the
# Nth call (N = 1, 2) fails in hipemu with each plausible error, with every
# policy on.  Expectations, per API:
#
#  exact: the runtime receives the program's calls of this API one for one
#     (hipemu counts the same number of calls with and without the shim,
#     and no policy calls it on its own): the program's output is the same
#     as without the shim, line for line.
#  pool:  hipMalloc, hipMallocManaged, hipMallocPitch, hipExtMallocWithFlags
#     and hipFree, which the pool serves from chunks: a fault hits the
#     pool's own chunk calls, so the program sees success or
#     hipErrorOutOfMemory on its allocations, and success or the injected
#     error on its frees.
#  other: APIs that a policy also calls itself or calls in place of
#     another (stream0 serves hipMemcpy with hipMemcpyAsync and
#     hipStreamSynchronize, pool fences with events): the fault may hit a
#     policy's call, so only the common rules hold.
#
#  common, for every fault: same exit status as without the shim, no
#     crash or hang (timeout 60), the program runs to its end, no stream,
#     event, allocation or descriptor leaked beyond what the same run leaks
#     without the fault, and the trace holds one call record per call the
#     program made, with the return code the program saw (checked with the
#     oracle lbt_count, and with `lbtrace print --json` when it exists).
# asan: yes
. tests/reliability/lib.sh
cd "$TMP" || exit 1
P=$R/prog_sweep
TO="timeout 60"

# API: errors to inject (names hipemu's HIPEMU_FAIL accepts).
SWEEP="hipMalloc:hipErrorOutOfMemory,hipErrorInvalidValue
hipMallocManaged:hipErrorOutOfMemory
hipMallocPitch:hipErrorOutOfMemory,hipErrorInvalidValue
hipHostMalloc:hipErrorOutOfMemory
hipFree:hipErrorInvalidValue,hipErrorIllegalAddress
hipHostFree:hipErrorInvalidValue
hipStreamCreate:hipErrorOutOfMemory,hipErrorInvalidValue
hipStreamCreateWithFlags:hipErrorOutOfMemory
hipStreamDestroy:hipErrorInvalidHandle
hipStreamSynchronize:hipErrorLaunchFailure,hipErrorIllegalAddress
hipStreamQuery:hipErrorNotReady,hipErrorLaunchFailure
hipStreamWaitEvent:hipErrorInvalidHandle
hipEventCreate:hipErrorOutOfMemory
hipEventCreateWithFlags:hipErrorOutOfMemory,hipErrorInvalidValue
hipEventRecord:hipErrorInvalidHandle,hipErrorLaunchFailure
hipEventSynchronize:hipErrorLaunchFailure
hipEventQuery:hipErrorNotReady
hipEventElapsedTime:hipErrorNotReady,hipErrorInvalidHandle
hipEventDestroy:hipErrorInvalidHandle
hipMemcpy:hipErrorInvalidValue,hipErrorLaunchFailure
hipMemcpyAsync:hipErrorInvalidValue,hipErrorIllegalAddress
hipMemcpyHtoD:hipErrorInvalidValue
hipMemcpyDtoH:hipErrorInvalidValue
hipMemcpyDtoD:hipErrorInvalidValue
hipMemset:hipErrorInvalidValue
hipMemsetAsync:hipErrorInvalidValue,hipErrorOutOfMemory
hipMemsetD32:hipErrorInvalidValue
hipModuleLoadData:hipErrorInvalidImage,hipErrorOutOfMemory
hipModuleGetFunction:hipErrorNotFound
hipModuleLaunchKernel:hipErrorLaunchFailure,hipErrorInvalidValue
hipLaunchKernel:hipErrorLaunchFailure,hipErrorLaunchOutOfResources
hipModuleUnload:hipErrorInvalidHandle
hipDeviceSynchronize:hipErrorLaunchFailure
hipGetDevice:hipErrorInvalidValue
hipSetDevice:hipErrorInvalidDevice"
NS="1 2"
if [ -n "$REL_ASAN" ]; then
	NS="1" # the ASan shim is slower: one N is enough to find memory errors
fi
POOL_APIS=" hipMalloc hipMallocManaged hipMallocPitch hipExtMallocWithFlags hipFree "
# Runtime functions the policies call on their own: since the seam
# (issue 33) only through HIP's side of it, shim/rt_hip.c (lb_real_own).
INTERNAL=" $(cat "$OLDPWD"/shim/rt_hip.c 2>/dev/null |
	grep -o -e 'lb_real_own\.hip[A-Za-z0-9_]*' |
	sed 's/^lb_real_own\.//' | sort -u | tr '\n' ' ') "
case $INTERNAL in
*hip*) ;;
*) fail "no runtime call found in $OLDPWD/shim/rt_hip.c: the sources moved?" ;;
esac

errnum() {
	case $1 in
	hipErrorInvalidValue) echo 1 ;; hipErrorOutOfMemory) echo 2 ;;
	hipErrorInvalidDevice) echo 101 ;; hipErrorInvalidImage) echo 200 ;;
	hipErrorInvalidHandle) echo 400 ;; hipErrorNotFound) echo 500 ;;
	hipErrorNotReady) echo 600 ;; hipErrorIllegalAddress) echo 700 ;;
	hipErrorLaunchOutOfResources) echo 701 ;;
	hipErrorLaunchFailure) echo 719 ;; *) echo "?" ;;
	esac
}

# results FILE: "api ret" per result line of a program output.
results() {
	sed -n 's/^\(hip[A-Za-z0-9_]*\)(.* \(-\{0,1\}[0-9][0-9]*\)$/\1 \2/p' "$1"
}
# fdelta FILE: descriptors left open by the run (end - start).
fdelta() {
	sed -n 's/^#fds \([0-9]*\) \([0-9]*\)$/\1 \2/p' "$1" | { read -r a b && echo $((b - a)); }
}

run_plain() { # TAG [FAULT]
	HIPEMU_FAIL=${2:-} HIPEMU_STATS=$1.json $TO env LD_LIBRARY_PATH=$HIPEMU \
		"$P" >"$1.out" 2>"$1.err"
	rc=$?
}
run_shim() { # TAG [FAULT]
	rm -rf "$1.d"; mkdir "$1.d"
	HIPEMU_FAIL=${2:-} HIPEMU_STATS=$1.json LBSHIM_POLICIES=all \
		LBSHIM_TRACE=$1.d/t.%p.lbt $TO env LD_LIBRARY_PATH=$HIPEMU \
		LD_PRELOAD="${PRELOAD_PREFIX:+$PRELOAD_PREFIX }$SHIM" \
		"$P" >"$1.out" 2>"$1.err"
	rc=$?
}

# facts TAG: "streams events allocs fds" left at exit, one awk.
facts() {
	awk '
		FNR == NR {
			for (i = 1; i <= NF; i++) {
				k = $i; gsub(/[":,{}]/, "", k); v = $(i + 1)
				gsub(/[,}]/, "", v); x[k] = v
			}
			next
		}
		/^#fds / { fd = $3 - $2 }
		END {
			print x["streams_created"] - x["streams_destroyed"],
			      x["events_created"] - x["events_destroyed"],
			      x["allocs_live"] + 0, fd + 0
		}' "$1.json" "$1.out"
}

errors=0
bad() {
	echo "FAIL [$fault] $*"
	errors=$((errors + 1))
}

# trace_ok TAG: the trace's (api, ret) counts = the program's result lines.
trace_ok() {
	set -- "$1" "$1".d/*.lbt
	[ $# = 2 ] && [ -f "$2" ] || { shift; echo "trace files: $*"; return 1; }
	"$R/lbt_count" "$2" >tr.txt || { echo "not a valid trace"; return 1; }
	awk '
		FNR == NR { if ($1 == "call") tr[$2 " " $3] = $4; next }
		{ prog[$1 " " $2]++ }
		END {
			for (k in prog)
				if (tr[k] + 0 != prog[k]) {
					print k ": program saw " prog[k] \
					      ", trace has " tr[k] + 0
					bad = 1
				}
			exit bad
		}' tr.txt "$1.res" || return 1
	if [ -x "$LBT" ] && [ "$fault" != none ] &&
		"$LBT" print --json "$2" >tr.json 2>/dev/null && [ -s tr.json ]; then
		e=$(errnum "${fault##*:}")
		# one awk: the program's results with that code, the records
		awk -v api="${fault%%:*}" -v e="$e" '
			FNR == NR { n += $1 == api && $2 == e; next }
			index($0, "\"api\":\"" api "\"") &&
			    (index($0, "\"ret\":" e ",") || index($0, "\"ret\":" e "}")) { got++ }
			END {
				if (n != got + 0) {
					printf "lbtrace print --json: %s ret %s: %d records, program saw %d\n", api, e, got, n
					exit 1
				}
			}' "$1.res" tr.json || return 1
	fi
	return 0
}

fault=none
run_plain p0
[ $rc = 0 ] || fail "plain run failed: $(cat p0.err)"
run_shim s0
[ $rc = 0 ] || fail "shim run failed: $(cat s0.err)"
grep -v '^#fds' p0.out >p0.r; grep -v '^#fds' s0.out >s0.r
diff p0.r s0.r || fail "all policies changed the results without a fault"
results s0.out >s0.res
trace_ok s0 || fail "no-fault trace does not match the program's calls"
set -- $(facts p0) $(facts s0)
P0="$1 $2 $3 $4"; S0="$5 $6 $7 $8"
# The pool keeps a free list of fence events whose length at exit depends
# on timing: events may exceed the no-fault run's by this many.
EV_SLACK=4
echo "at exit (streams events allocs fds): plain $P0, all policies $S0"
# calls TAG: "api count" per API hipemu received.
calls() {
	sed -n 's/.*"calls": {\([^}]*\)}.*/\1/p' "$1.json" | tr ',' '\n' |
		sed -n 's/^ *"\([A-Za-z0-9_]*\)": \([0-9]*\)$/\1 \2/p'
}
calls p0 >p0.calls
calls s0 >s0.calls
echo "$SWEEP" | while IFS=: read -r api errs; do
	[ -n "$REL_ASAN" ] && errs=${errs%%,*} # ASan: the first error of each
	# hipemu's calls of API without a fault, plain and with the shim
	c0=$(sed -n "s/^$api //p" p0.calls)
	c1=$(sed -n "s/^$api //p" s0.calls)
	for err in $(echo "$errs" | tr ',' ' '); do
		for n in $NS; do
			fault=$api:$n:$err
			e0=$errors
			run_plain pf "$fault"
			rp=$rc
			run_shim sf "$fault"
			rs=$rc
			if [ "$rs" != "$rp" ]; then
				bad "exit $rs, without the shim $rp: $(tail -n 3 sf.err)"
				continue
			fi
			grep -q '^#fds' sf.out || { bad "program did not run to its end"; continue; }
			results sf.out >sf.res
			grep -v '^#fds' pf.out >pf.r; grep -v '^#fds' sf.out >sf.r
			[ "${c0:-0}" -ge "$n" ] && cmp -s pf.r p0.r &&
				bad "fault had no effect without the shim (sweep is stale)"
			case "$INTERNAL$POOL_APIS" in
			*" $api "*) class=other ;;
			*) class=exact ;;
			esac
			[ "${c0:-0}" = "${c1:-0}" ] || [ $class = pool ] || class=other
			case $POOL_APIS in *" $api "*) class=pool ;; esac
			if [ $class = exact ]; then
				diff pf.r sf.r >d.txt || bad "results differ from the run without the shim: $(head -n 8 d.txt)"
			elif [ $class = pool ]; then
				e=$(errnum "$err")
				grep -E "^(hipMalloc|hipMallocManaged|hipMallocPitch|hipExtMallocWithFlags) " sf.res |
					grep -v -E " (0|2)$" >d.txt &&
					bad "an allocation saw neither success nor hipErrorOutOfMemory: $(head -n 3 d.txt)"
				grep -E "^hipFree " sf.res | grep -v -E " (0|$e)$" >d.txt &&
					bad "a free saw neither success nor $err: $(head -n 3 d.txt)"
			fi
			FP=$(facts pf) FS=$(facts sf)
			set -- $P0 $S0 $FP $FS
			[ ${13} -le $(($5 + $9 - $1)) ] && [ ${14} -le $(($6 + ${10} - $2 + EV_SLACK)) ] &&
				[ ${15} -le $(($7 + ${11} - $3)) ] && [ ${16} -le $(($8 + ${12} - $4)) ] ||
				bad "leak ($class): left at exit (streams events allocs fds) $FS; without the fault $S0; plain with the fault $FP"
			trace_ok sf >t.txt || bad "trace: $(cat t.txt)"
			[ "$(grep -c '^lbshim: ' sf.err)" -le 3 ] || bad "too many lines from the shim: $(head -n 5 sf.err)"
			[ $errors = $e0 ] && echo "ok [$fault] $class"
		done
	done
done >sweep.log
cat sweep.log
n=$(grep -c '^FAIL' sweep.log)
echo "$(grep -c '^ok' sweep.log) faults passed, $n failures"
[ "$n" = 0 ]
