# t_env.sh - hostile environment values for every LBSHIM_* variable the
# documentation names (man/, README.md), plus those the sources read:
# empty, huge (64 KiB), non-ASCII, negative, overflowing with and without
# K/M/G suffixes, junk.  For each: exactly one line mentioning the variable
# when the value is invalid (at most one for paths, where it may be
# valid), no crash, the program's output unchanged, defaults kept.
# asan: yes
. tests/reliability/lib.sh
SRC=$PWD
cd "$TMP" || exit 1
P=$R/prog_sweep

DOC=$(cat "$SRC"/man/* "$SRC"/README.md 2>/dev/null | grep -oE 'LBSHIM_[A-Z0-9_]+[A-Z0-9]' | sort -u)
READ=$(cat "$SRC"/shim/*.c "$SRC"/policies/*/*.c 2>/dev/null |
	grep -oE '"LBSHIM_[A-Z0-9_]+"' | tr -d '"' | sort -u)
echo "$READ" | grep -q LBSHIM_POOL_CHUNK ||
	fail "the policies' variables are not found in $SRC/policies/*/*.c: the sources moved?"
# (placeholders such as LBSHIM_POLICY_KEY in the text are not variables;
# LBSHIM_ROCM_* are the test suite's, read by tests/realrocm/fetch.sh,
# not by the shim)
DOC=$(echo "$DOC" | grep -v -e '_KEY$' -e '^LBSHIM_POLICY_' -e '^LBSHIM_ROCM_')
VARS=$(printf '%s\n%s\n' "$DOC" "$READ" | sort -u)
for v in $READ; do
	echo "$DOC" | grep -qx "$v" || echo "note: $v is read by the shim but not documented in man/ or README.md"
done

# kind VAR: how the shim reads it (size, choice, path, list, number).
kind() {
	if grep -q "lb_env_size(\"$1\"" "$SRC"/shim/*.c "$SRC"/policies/*/*.c; then
		echo size
	elif grep -q -e "lb_env_choice(\"$1\"" -e "lb_env_on(\"$1\"" \
		"$SRC"/shim/*.c "$SRC"/policies/*/*.c; then
		echo choice
	elif grep -q "s0_env_globs(\"$1\"" "$SRC"/policies/*/*.c; then
		echo globs
	else
		case $1 in
		LBSHIM_TRACE | LBSHIM_HIP_LIBRARY | LBSHIM_CUDA_LIBRARY | \
		LBSHIM_CUDA_DRIVER) echo path ;;
		LBSHIM_POLICIES) echo list ;;
		LBSHIM_RUN_ID) echo number ;;
		*) echo other ;;
		esac
	fi
}

HUGE=$(head -c 65536 /dev/zero | tr '\0' '7')
HUGEA=$(head -c 65536 /dev/zero | tr '\0' 'a')
NONASCII=$(printf '\303\251t\303\251\377\376')
# Values invalid for every kind but path (name: value).
VALUES="empty:
neg:-1
over:99999999999999999999999
oversuf:18446744073709551615K
overG:17179869184G
junk:12Q
space: 5"

# Reference: the program's output with every policy on and nothing else.
LBSHIM_POLICIES=all LBSHIM_TRACE=$TMP/ref.%p.lbt emu_shim timeout 60 "$P" >ref.out 2>ref.err ||
	fail "reference run failed: $(cat ref.err)"
grep -v '^#fds' ref.out >ref.r
rm -f ref.*.lbt

# try VAR NAME VALUE: one run; checks exit, output, warnings.  $k is
# VAR's kind (set once per variable: every process costs here).
try() {
	rm -rf out.d; mkdir out.d
	if [ "$1" = LBSHIM_POLICIES ]; then
		env "$1=$3" LBSHIM_TRACE="$TMP/out.d/t.%p.lbt" \
			LD_LIBRARY_PATH=$HIPEMU LD_PRELOAD="${PRELOAD_PREFIX:+$PRELOAD_PREFIX }$SHIM" \
			timeout 60 "$P" >o 2>e
	elif [ "$1" = LBSHIM_TRACE ]; then
		(cd out.d && env LBSHIM_POLICIES=all "$1=$3" \
			LD_LIBRARY_PATH=$HIPEMU LD_PRELOAD="${PRELOAD_PREFIX:+$PRELOAD_PREFIX }$SHIM" \
			timeout 60 "$P" >../o 2>../e)
	else
		env LBSHIM_POLICIES=all LBSHIM_TRACE="$TMP/out.d/t.%p.lbt" "$1=$3" \
			LD_LIBRARY_PATH=$HIPEMU LD_PRELOAD="${PRELOAD_PREFIX:+$PRELOAD_PREFIX }$SHIM" \
			timeout 60 "$P" >o 2>e
	fi
	rc=$?
	what="$1 ($k) = $2"
	[ $rc = 0 ] || { rfail "$what: exit $rc: $(head -c 300 e)"; return; }
	grep -v '^#fds' o >o.r
	cmp -s o.r ref.r || rfail "$what: the program's output changed: $(diff ref.r o.r | head -n 4)"
	# n: lines naming the variable; other: the other lines, but for
	# stream0's hazard report at exit (the program's doing); long: lines
	# over 1 KiB (a line stays a line: never the whole 64 KiB value)
	set -- "$1" "$2" "$3" $(awk -v v="$1" '
		length($0) > 1024 { long = 1 }
		index($0, v) { n++; next }
		/stream0: [0-9]* (hazards:|dependencies on other threads)/ { next }
		/./ { other++ }
		END { print n + 0, other + 0, long + 0 }' e)
	n=$4 other=$5
	case $k:$2 in
	globs:huge | globs:hugealpha) # longer than a pattern may be
		[ "$n" = 1 ] || rfail "$what: $n lines name the variable, want 1: $(head -n 3 e | cut -c 1-200)" ;;
	path:* | list:empty | choice:huge | list:huge | globs:*) # may be valid
		[ "$n" -le 1 ] || rfail "$what: $n lines name the variable: $(head -n 3 e)" ;;
	*)
		[ "$n" = 1 ] || rfail "$what: $n lines name the variable, want 1: $(head -n 3 e | cut -c 1-200)" ;;
	esac
	[ "$other" = 0 ] || [ $k = path ] ||
		rfail "$what: other lines on stderr: $(grep -av "$1" e | grep -Eav "stream0: [0-9]* (hazards:|dependencies on other threads)" | head -n 3 | cut -c 1-200)"
	[ "$6" = 0 ] || rfail "$what: a warning longer than 1 KiB"
}

if [ -n "$REL_ASAN" ]; then # slower: the values that stress parsers
	VALUES="empty:
over:99999999999999999999999
oversuf:18446744073709551615K"
fi
echo "$VALUES" >values
cases=0
for var in $VARS; do
	k=$(kind "$var")
	while IFS=: read -r name val; do
		try "$var" "$name" "$val"
	done <values
	try "$var" huge "$HUGE"
	[ -n "$REL_ASAN" ] || try "$var" hugealpha "$HUGEA"
	try "$var" nonascii "$NONASCII"
	cases=$((cases + 1))
done
echo "$cases variables"

# Defaults kept.
# An invalid LBSHIM_POLICIES item: nothing else is switched on.
LBSHIM_POLICIES=bogus LBSHIM_TRACE=$TMP/d.%p.lbt emu_shim "$P" >o 2>e
[ -z "$(ls d.*.lbt 2>/dev/null)" ] || rfail "LBSHIM_POLICIES=bogus wrote a trace"
# An invalid ring size: no ring (the default).
LBSHIM_POLICIES=trace LBSHIM_TRACE_RING=-1 LBSHIM_TRACE=$TMP/d.%p.lbt emu_shim "$P" >o 2>e
set -- d.*.lbt
if [ -f "$1" ]; then
	f=$("$R/lbt_count" "$1" | sed -n 's/^flags //p')
	[ $((f & 2)) = 0 ] || rfail "LBSHIM_TRACE_RING=-1 made a ring trace"
	rm -f d.*.lbt
else
	rfail "LBSHIM_TRACE_RING=-1: no trace written"
fi
# An invalid LBSHIM_LOG: the level stays warn (warnings still printed);
# LBSHIM_LOG=error silences them (so the check above means something).
LBSHIM_LOG=loud LBSHIM_POLICIES=pool LBSHIM_POOL_CHUNK=junk emu_shim "$P" >o 2>e
grep -q LBSHIM_POOL_CHUNK e || rfail "LBSHIM_LOG=loud: level is not warn: $(cat e)"
LBSHIM_LOG=error LBSHIM_POLICIES=pool LBSHIM_POOL_CHUNK=junk emu_shim "$P" >o 2>e
grep -q LBSHIM_POOL_CHUNK e && rfail "LBSHIM_LOG=error still prints warnings"
finish
