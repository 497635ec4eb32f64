# t_discovery.sh - the shim finds each real runtime as a program has it,
# forwards its calls, and loads no second runtime: an extension linked
# against it (tests/shim/rt_ext.c) opened RTLD_LOCAL by a C program
# (tests/shim/prog_runtime.c) and by Python's ctypes, with a ROCm 5
# runtime also on the library path (the 5.7 set's, behind the runtime's
# own; Debian 12's 5.2 is on the default path too); a program linked
# against it (tests/shim/prog_dlsym.c).  Results are the runtime's own
# (without a device: its errors), the same as without the shim.
. tests/realrocm/lib.sh
rr_need $RR_SETS
P=$TMP/prog_runtime
${CC:-cc} -std=gnu11 -O1 -Wall -Wextra -Werror -D__HIP_PLATFORM_AMD__ \
	-Iinclude tests/shim/prog_runtime.c -o "$P" -ldl || fail "prog_runtime"
rocm5=$(rr_root 5.7)/usr/lib/x86_64-linux-gnu
for s in $RR_SETS; do
	so=$(rr_soname "$s")
	rt=$(rr_root "$s")/usr/lib/x86_64-linux-gnu/$so
	ext=$TMP/$s/rt_ext.so
	mkdir -p "$TMP/$s"
	rr_cc "$s" "$ext" tests/shim/rt_ext.c -fPIC -shared
	rr_cc "$s" "$TMP/$s/prog_dlsym" tests/shim/prog_dlsym.c
	# The set's libraries, then (but for 5.7 itself) a ROCm 5.
	lp=$(rr_path "$s")
	[ "$s" = 5.7 ] || lp=$lp:$rocm5
	run() { "$(rr_ldso "$s")" --library-path "$lp" "$@"; }
	shim() { "$(rr_ldso "$s")" --library-path "$lp" --preload "$SHIM" "$@"; }

	# C, RTLD_LOCAL
	plain=$(run "$P" -f "$ext" 2>&1) || fail "$s: without the shim: $plain"
	case $plain in *"bound=$so"*) ;;
	*) fail "$s: without the shim: $plain" ;; esac
	expect_eq "$s, RTLD_LOCAL, without the shim: mapped" \
		"$(echo "$plain" | tail -n 1)" "mapped: $rt"
	got=$(LBSHIM_LOG=debug shim "$P" -f "$ext" 2>"$TMP/err") ||
		fail "$s: with the shim: $(cat "$TMP/err")"
	expect_eq "$s, RTLD_LOCAL, with the shim" "$got" \
		"$(echo "$plain" | sed 's/bound=[^ ]*/bound=liblbshim.so/')"
	expect_eq "$s: debug lines naming the runtime" \
		"$(grep -c '^lbshim: HIP runtime: ' "$TMP/err")" 1
	grep -qxF "lbshim: HIP runtime: $rt (loaded RTLD_LOCAL, found among the loaded objects)" \
		"$TMP/err" || fail "$s: $(grep 'HIP runtime' "$TMP/err")"

	# Python's ctypes, RTLD_LOCAL (its default mode)
	cat >"$TMP/ext.py" <<X
import ctypes
ext = ctypes.CDLL("$ext")
buf = ctypes.create_string_buffer(256)
ext.rt_ext_run(buf, 256)
print(buf.value.decode())
print(sorted({l.split()[-1] for l in open("/proc/self/maps") if "libamdhip64" in l}))
X
plain=$(run /usr/bin/python3 "$TMP/ext.py" 2>&1) ||
	fail "$s: python without the shim: $plain"
	got=$(LBSHIM_POLICIES=trace LBSHIM_TRACE=$TMP/$s/py.%p.lbt \
		shim /usr/bin/python3 "$TMP/ext.py" 2>&1) ||
		fail "$s: python with the shim: $got"
	expect_eq "$s, python" "$got" \
		"$(echo "$plain" | sed 's/bound=[^ ]*/bound=liblbshim.so/')"
	expect_eq "$s, python: mapped" "$(echo "$got" | tail -n 1)" \
		"['$(readlink -f "$rt")']"
	"$B/lbtrace" print --json "$TMP/$s"/py.*.lbt >"$TMP/py.json" ||
		fail "$s: lbtrace print"
	for api in hipGetDevice hipMalloc hipFree; do
		grep -q "\"api\":\"$api\"" "$TMP/py.json" ||
			fail "$s: python: $api not traced"
	done

	# Linked: the global scope
	plain=$(run "$TMP/$s/prog_dlsym" hipMalloc hipGetDevice 2>&1)
	got=$(LBSHIM_LOG=debug shim "$TMP/$s/prog_dlsym" hipMalloc \
		hipGetDevice 2>"$TMP/err")
	expect_eq "$s, linked" "$got" "$plain"
	grep -qxF "lbshim: HIP runtime: $rt (in the global scope)" \
		"$TMP/err" || fail "$s, linked: $(grep 'HIP runtime' "$TMP/err")"
	echo "ROCm $s: $(echo "$plain" | tr '\n' ' ')through the shim:" \
		"RTLD_LOCAL from C and Python, linked; one runtime mapped"
done
exit 0
