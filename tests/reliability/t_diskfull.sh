# t_diskfull.sh - the trace's disk fills up mid-run (a 1 MiB tmpfs), or
# has no room even for the header, or the trace file is removed while the
# program runs: tracing stops with one warning, the program goes on with
# the same results, the part written stays a valid trace.
# asan: yes
. tests/reliability/lib.sh
cd "$TMP" || exit 1
mkdir full
if ! mount -t tmpfs -o size=1M tmpfs full 2>/dev/null; then
	echo "skip: cannot mount a tmpfs here (not root, or no privilege)"
	exit 77
fi
trap 'umount "$TMP/full" 2>/dev/null; rm -rf "$TMP"' EXIT
run() { # OUT-TAG THREADS SECONDS CALLS
	LBSHIM_POLICIES=all LBSHIM_TRACE=$TMP/full/t.$1.lbt emu_shim timeout 120 \
		"$R/prog_load" "$2" "$3" "${4:-0}" >"$1.out" 2>"$1.err"
}

# Full mid-run: about 1.5 MiB of records for 1 MiB.
run mid 2 0 12000
rc=$?
soft_eq "exit (disk full)" "$rc" 0
soft_eq "errors (disk full)" "$(sed -n 's/^errors //p' mid.out)" 0
soft_eq "shim lines (disk full)" "$(shim_lines mid.err)" 1
grep -q 'trace.*stopped' mid.err || rfail "the warning does not say tracing stopped: $(cat mid.err)"
if "$R/lbt_count" full/t.mid.lbt >tr; then
	f=$(sed -n 's/^flags //p' tr)
	[ $((f & 8)) = 8 ] || rfail "header lacks LB_HDR_STOPPED (flags $f)"
	n=$(sed -n 's/^calls //p' tr); made=$(sed -n 's/^calls //p' mid.out)
	[ "$n" -gt 0 ] && [ "$n" -lt "$made" ] || rfail "records $n of $made calls"
	echo "disk full: $n of $made calls recorded"
else
	rfail "the partial trace is not valid"
fi

# No room at all: the header cannot be written.
rm -f full/*
head -c 2000000 /dev/zero >full/filler 2>/dev/null
run none 1 0 200
soft_eq "exit (no room)" "$?" 0
soft_eq "errors (no room)" "$(sed -n 's/^errors //p' none.out)" 0
soft_eq "shim lines (no room)" "$(shim_lines none.err)" 1
rm -f full/*

# Removed mid-run.
LBSHIM_POLICIES=all LBSHIM_TRACE=$TMP/gone.lbt emu_shim timeout 120 \
	"$R/prog_load" 2 3 >gone.out 2>gone.err &
pid=$!
i=0
while [ ! -f gone.lbt ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
sleep 1
rm -f gone.lbt
wait $pid
soft_eq "exit (removed)" "$?" 0
soft_eq "errors (removed)" "$(sed -n 's/^errors //p' gone.out)" 0
soft_eq "shim lines (removed)" "$(shim_lines gone.err)" 1
grep -q 'trace.*stopped' gone.err || rfail "no warning that tracing stopped after the file was removed: $(cat gone.err)"
[ -e gone.lbt ] && rfail "the trace file was created again"
finish
