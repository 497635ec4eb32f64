# runtime_seam.sh - the policies name no runtime (issue 33, part 4): no
# lb_real use and no HIP identifier (hip[A-Z]..., HIP_...) in the code
# of policies/, comments aside.  The runtime is reached through the seam
# (shim/rt.h: lb_rt's services, LB_ST_* statuses, lb_stream handles);
# everything HIP is in shim/rt_hip.c and shim/rt_hip.h.
#
# Comments are removed by the compiler's preprocessor in its
# already-preprocessed mode (-fpreprocessed: no include, no expansion,
# directives kept).  A string that is exactly such an identifier (a
# lookup by name: "hipGetErrorName", "HIP_TRACE_API") counts as code;
# other strings (messages a user reads) do not.
# TARGET=DIR checks DIR instead of policies/ (the proof that it fails).
cc=${CC:-cc}
dir=${TARGET:-policies}
files=$(ls "$dir"/*/*.[ch] 2>/dev/null)
[ -n "$files" ] || { echo "no sources under $dir/"; exit 1; }
bad=0 n=0
for f in $files; do
	n=$((n + 1))
	out=$("$cc" -fpreprocessed -dD -E -P -x c "$f" 2>&1) || {
		echo "FAIL $f: the preprocessor could not read it: $out"
		bad=1
		continue
	}
	hits=$(printf '%s\n' "$out" |
		sed -E 's/"(hip[A-Z][A-Za-z0-9_]*|HIP_[A-Z0-9_]+)"/\1/g' |
		sed -E 's/"([^"\\]|\\.)*"/""/g' |
		grep -E 'lb_real[[:space:]]*\.|(^|[^A-Za-z0-9_])(hip[A-Z][A-Za-z0-9_]*|HIP_[A-Z0-9_]+)')
	if [ -n "$hits" ]; then
		echo "FAIL $f names the runtime (use shim/rt.h's seam):"
		printf '%s\n' "$hits" | sed 's/^/    /'
		bad=1
	fi
done
[ $bad = 0 ] && echo "ok: $n files under $dir/ name no runtime"
exit $bad
