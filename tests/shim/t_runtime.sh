# t_runtime.sh - the shim finds the runtime already in the process,
# whatever its file name, and never loads a second one: an extension
# opened RTLD_LOCAL that links libamdhip64.so.6, .so.7 or a wheel's
# torch/lib/libamdhip64.so (a ROCm 5 on LD_LIBRARY_PATH too); a program
# linked against one (global scope); none loaded and HIP called (one is
# loaded by name, newest first); none loaded and no HIP call (nothing
# loaded); LBSHIM_HIP_LIBRARY; the LBSHIM_LOG=debug line naming the file;
# two runtimes loaded at start-up (one warning) or after it.
. tests/shim/lib.sh
RT=$B/tests/runtime
P=$RT/prog_runtime
# A ROCm 5 the shim could wrongly load: alone in its directory.
export LD_LIBRARY_PATH=$RT/so5

# ext runtime-file: the extension's calls reach its own runtime through
# the shim, with no variable set, and only that runtime is mapped.
ext() {
	plain=$("$P" "$RT/$1") || fail "$1: program failed without the shim"
	case $plain in *"bound=$(basename "$2") calls=1"*) ;;
	*) fail "$1: without the shim: $plain" ;; esac
	got=$(with_shim "$P" "$RT/$1" 2>"$TMP/err") || fail "$1: failed: $(cat "$TMP/err")"
	expect_eq "$1 (no variable set)" "$got" \
		"$(echo "$plain" | sed 's/bound=[^ ]*/bound=liblbshim.so/')"
	[ -s "$TMP/err" ] && fail "$1: stderr: $(cat "$TMP/err")"
	got=$(LBSHIM_LOG=debug with_shim "$P" "$RT/$1" 2>"$TMP/err") || fail "$1: failed (debug)"
	expect_eq "$1: debug lines naming the runtime" \
		"$(grep -c '^lbshim: HIP runtime: ' "$TMP/err")" 1
	grep -q "^lbshim: HIP runtime: .*/$2 (loaded RTLD_LOCAL, found among the loaded objects)$" \
		"$TMP/err" || fail "$1: debug line: $(grep 'HIP runtime' "$TMP/err")"
}
ext so6/ext/rt_ext.so libamdhip64.so.6
ext so7/ext/rt_ext.so libamdhip64.so.7
ext wheel/torch/_C.so torch/lib/libamdhip64.so
expect_eq "mapped (.so.6, a .so.5 on the path)" \
	"$(with_shim "$P" "$RT/so6/ext/rt_ext.so" | tail -n 1)" "mapped: ../libamdhip64.so.6"

# Python opens a module RTLD_LOCAL, as it does torch/_C.
py=$(with_shim python3 -c "
import ctypes
ext = ctypes.CDLL('$RT/wheel/torch/_C.so')
buf = ctypes.create_string_buffer(256)
ext.rt_ext_run(buf, 256)
print(buf.value.decode())" 2>"$TMP/err") || fail "python: $(cat "$TMP/err")"
expect_eq "python, wheel layout" "$py" "ctor=0 malloc=0 getdevice=0 free=0 bound=liblbshim.so"

# Under the trace policy, the extension's calls are in the trace.
if [ -x "$B/lbtrace" ] && [ -e policies/trace/trace.c ]; then
	( cd "$TMP" && LBSHIM_POLICIES=trace LBSHIM_TRACE=rt.%p.lbt \
		with_shim "$P" "$RT/so6/ext/rt_ext.so" >/dev/null ) || fail "traced run"
	"$B/lbtrace" print --json "$TMP"/rt.*.lbt >"$TMP/rt.json" || fail "lbtrace print"
	for api in hipGetDevice hipMalloc hipFree; do
		grep -q "\"api\":\"$api\".*\"ret\":0" "$TMP/rt.json" || fail "$api not traced"
	done
fi

# A program linked against the .so.6: the global scope (RTLD_NEXT).
got=$(LBSHIM_LOG=debug with_shim "$RT/prog_dlsym6" hipMalloc hipGetDevice 2>"$TMP/err")
expect_eq "linked .so.6" "$(echo $got)" "hipMalloc=0 hipGetDevice=0"
grep -q "^lbshim: HIP runtime: .*/so6/libamdhip64.so.6 (in the global scope)$" "$TMP/err" ||
	fail "global: $(grep 'HIP runtime' "$TMP/err")"

# No runtime loaded, HIP called: loaded by name, the newest first; the
# .so.5 also on the path is not loaded.
got=$(LD_LIBRARY_PATH=$RT/so5:$RT/so6 LBSHIM_LOG=debug \
	with_shim "$T/prog_dlsym" hipMalloc 2>"$TMP/err")
expect_eq "none loaded: result" "$got" "hipMalloc=0"
grep -q "^lbshim: HIP runtime: .*/so6/libamdhip64.so.6 (none was loaded: loaded by lbshim)$" \
	"$TMP/err" || fail "none loaded: $(grep 'HIP runtime' "$TMP/err")"
LD_LIBRARY_PATH=$RT/so5:$RT/so6:$RT/so7 LBSHIM_LOG=debug \
	with_shim "$T/prog_dlsym" hipMalloc >/dev/null 2>"$TMP/err"
grep -q "^lbshim: HIP runtime: .*/so7/libamdhip64.so.7 (none was loaded" "$TMP/err" ||
	fail "none loaded, .so.7 there: $(grep 'HIP runtime' "$TMP/err")"
# No runtime loaded and no HIP call: nothing loaded.
got=$(LD_LIBRARY_PATH=$RT/so5:$RT/so6:$RT/so7 LBSHIM_LOG=debug \
	with_shim "$T/prog_nohip" 2>"$TMP/err")
expect_eq "no HIP call" "$got" "threads=1 runtime_mapped=0"
[ -s "$TMP/err" ] && fail "no HIP call: stderr: $(cat "$TMP/err")"

# LBSHIM_HIP_LIBRARY naming the loaded runtime: used, nothing else loaded.
got=$(LBSHIM_HIP_LIBRARY=$RT/so6/libamdhip64.so.6 LBSHIM_LOG=debug \
	with_shim "$P" "$RT/so6/ext/rt_ext.so" 2>"$TMP/err")
expect_eq "override, the loaded one" "$got" \
	"$(printf '%s\n%s' 'ext/rt_ext.so: ctor=0 malloc=0 getdevice=0 free=0 bound=liblbshim.so calls=1' \
	'mapped: ../libamdhip64.so.6')"
grep -q "^lbshim: HIP runtime: .*/libamdhip64.so.6 (LBSHIM_HIP_LIBRARY)$" "$TMP/err" ||
	fail "override: $(grep 'HIP runtime' "$TMP/err")"
# Naming another one: it overrides (every call goes there), with one
# warning that two runtimes are now loaded.
got=$(LBSHIM_HIP_LIBRARY=$RT/so7/libamdhip64.so.7 with_shim "$P" "$RT/so6/ext/rt_ext.so" 2>"$TMP/err")
expect_eq "override, another one" "$got" \
	"$(printf '%s\n%s' 'ext/rt_ext.so: ctor=0 malloc=0 getdevice=0 free=0 bound=liblbshim.so calls=0' \
	'mapped: ../libamdhip64.so.6 so7/libamdhip64.so.7')"
expect_eq "two-runtimes warnings" "$(grep -c '^lbshim: two HIP runtimes are loaded, .*so7/libamdhip64.so.7 and .*libamdhip64.so.6' "$TMP/err")" 1
# The choice is made once (lbshim(7)): a runtime loaded after it, by the
# program, is a second one, and its users' calls go to the first.
got=$(with_shim "$P" "$RT/so6/ext/rt_ext.so" "$RT/wheel/torch/_C.so" 2>"$TMP/err")
expect_eq "a runtime loaded later" "$(echo "$got" | sed -n 2p)" \
	"torch/_C.so: ctor=0 malloc=0 getdevice=0 free=0 bound=liblbshim.so calls=0"
expect_eq "a runtime loaded later: mapped" "$(echo "$got" | tail -n 1)" \
	"mapped: ../libamdhip64.so.6 lib/libamdhip64.so"

# Functions the table does not wrap (the pool's hipDeviceGetAttribute, the
# last-error rule's hipRuntimeGetVersion, the trace's kernel names) come
# from the runtime the shim chose, like its rows: not from a library
# preloaded after the shim, which dlsym(RTLD_NEXT) would find first.  The
# chosen runtime (the extension's, RTLD_LOCAL) lacks them: nothing of
# rt_spy may be called (the pool asks for the pitch alignment at
# hipMallocPitch, stream0 and pool read the runtime's version at start).
SPY=$RT/spy/librt_spy.so
LBSHIM_POLICIES=trace,pool,stream0 LBSHIM_TRACE=$TMP/spy.lbt \
	LD_PRELOAD="${PRELOAD_PREFIX:+$PRELOAD_PREFIX }$SHIM $SPY" \
	"$P" -p "$RT/so6/ext/rt_ext.so" >"$TMP/out" 2>"$TMP/err" ||
	fail "spy: $(cat "$TMP/err")"
grep -q '^ext/rt_ext.so: mallocpitch=' "$TMP/out" || fail "spy: $(cat "$TMP/out")"
grep -q rt_spy "$TMP/err" && fail "spy: called: $(grep rt_spy "$TMP/err")"
exit 0
