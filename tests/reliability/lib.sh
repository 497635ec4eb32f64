# lib.sh - helpers for the reliability tests (sourced), on top of the
# shim's (tests/shim/lib.sh: BUILD, SHIM, PRELOAD_PREFIX, TMP, with_shim,
# fail, expect_eq).  REL_MODE is check (short) or stress (long).
. tests/shim/lib.sh
R=$B/tests/reliability
LBT=$B/lbtrace
: "${REL_MODE:=check}"
: "${REL_ASAN:=}"
unset HIPEMU_FAIL HIPEMU_STATS HIPEMU_KERNELS HIPEMU_MEM_SIZE RANK \
	OMPI_COMM_WORLD_RANK PMI_RANK SLURM_PROCID 2>/dev/null || true
for v in $(env | sed -n 's/^\(LBSHIM_[A-Z0-9_]*\)=.*/\1/p'); do unset "$v"; done

# on_emu CMD...: run CMD on hipemu, without the shim.
on_emu() {
	LD_LIBRARY_PATH=$HIPEMU "$@"
}

# emu_shim CMD...: run CMD on hipemu with the shim preloaded.
emu_shim() {
	LD_LIBRARY_PATH=$HIPEMU LD_PRELOAD="${PRELOAD_PREFIX:+$PRELOAD_PREFIX }$SHIM" "$@"
}

# stat_get FILE KEY: a number from a HIPEMU_STATS file.
stat_get() {
	sed -n "s/.*\"$2\": \([0-9]*\).*/\1/p" "$1"
}

# stat_calls FILE API: hipemu's count of API (0 if never called).
stat_calls() {
	v=$(sed -n "s/.*\"calls\": {\([^}]*\)}.*/\1/p" "$1" | tr ',' '\n' |
		sed -n "s/^ *\"$2\": \([0-9]*\)$/\1/p")
	echo "${v:-0}"
}

# live FILE: "streams events allocs" still alive at exit.
live() {
	echo "$(($(stat_get "$1" streams_created) - $(stat_get "$1" streams_destroyed))) $(($(stat_get "$1" events_created) - $(stat_get "$1" events_destroyed))) $(stat_get "$1" allocs_live)"
}

# lbt FILE: the oracle's summary of a trace (tests/reliability/lbt_count.c).
lbt() {
	"$R/lbt_count" "$1"
}

# lbt_calls FILE: committed call records in a trace.
lbt_calls() {
	"$R/lbt_count" "$1" | sed -n 's/^calls //p'
}

# shim_lines FILE: the shim's own lines in a stderr capture, but stream0's
# report at exit: its line of information (orderings kept, syncs that no
# longer waited for other threads' work: any program of several threads
# under stream0 gets it by design, lbshim(7)) and its hazard line.
shim_lines() {
	grep '^lbshim: ' "$1" |
		grep -Evc 'stream0: [0-9]* (hazards:|dependencies on other threads)'
}

# signal_exit RC: nonzero when an exit status says "killed by a signal"
# (or a sanitizer's report).
crashed() {
	[ "$1" -ge 128 ] || [ "$1" = 99 ] || [ "$1" = 98 ]
}

# Soft checks: record a failure and go on, so that one broken behaviour
# does not hide the others; `finish` ends the test.
RFAILS=0
rfail() {
	echo "FAIL: $*"
	RFAILS=$((RFAILS + 1))
}
soft_eq() {
	[ "$2" = "$3" ] || rfail "$1: got '$2', want '$3'"
}
finish() {
	[ "$RFAILS" = 0 ] || { echo "$RFAILS failed checks"; exit 1; }
	exit 0
}
