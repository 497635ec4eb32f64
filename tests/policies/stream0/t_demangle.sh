# The exit line names a kernel as lbtrace does, demangled (shim/
# demangle.c): through libstdc++'s __cxa_demangle when the process already
# has libstdc++, global or RTLD_LOCAL, else the name alone, without ever
# loading libstdc++; a form the small reader does not know stays mangled.
# (t_hazard_kernel.sh checks the line itself, from a hipcc program.)
. tests/policies/stream0/lib.sh
P=$D/s0_demangle
"$P" plain || fail "without libstdc++"
"$P" local
rc=$?
[ $rc = 0 ] || [ $rc = 77 ] || fail "libstdc++ loaded RTLD_LOCAL"
cxx=$(ldconfig -p 2>/dev/null | sed -n 's/.*libstdc++\.so\.6 .*=> //p' | head -n 1)
if [ -n "$cxx" ]; then
	LD_PRELOAD=$cxx "$P" global || fail "libstdc++ preloaded"
fi
exit 0
