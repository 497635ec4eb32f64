# lib.sh - helpers for the tests on the real ROCm builds (sourced): the
# shim's test helpers (tests/shim/lib.sh), then the sets fetch.sh keeps
# in the cache, how to build a program against one and how to run one
# there: through the set's own dynamic loader, whose glibc is the one
# the runtime needs (newer than Debian 12's), with the set's libraries
# first in the search path.  The host's libraries (Debian's ROCm 5.2
# libamdhip64.so.5 among them) stay on the default path behind them.
#
# Environment: BUILD, SHIM (tests/shim/lib.sh); RR_STATUS, the file where
# mk/realrocm.mk left fetch.sh's exit status and last line.
. tests/shim/lib.sh
RC=${LBSHIM_ROCM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/lbshim-rocm}
RR_SETS="5.7 6.4 7.2"
RR_STATUS=${RR_STATUS:-$B/realrocm/fetch.status}
RR_TOP=$PWD	# the repository (tests run from its root)
RR_EMU=$B/hipemu	# hipemu's profiles, build/hipemu/<release>/

# rr_need SET...: each set is in the cache, or this test ends: skipped
# (77, fetch.sh's one line) when the archive could not be reached, failed
# otherwise.
rr_need() {
	for n_s; do
		[ -f "$RC/$n_s/packages" ] && continue
		rc=$(head -n 1 "$RR_STATUS" 2>/dev/null)
		if [ "$rc" = 77 ]; then
			tail -n 1 "$RR_STATUS"
			exit 77
		fi
		fail "ROCm set $n_s is not in $RC: $(tail -n 1 "$RR_STATUS" 2>/dev/null)"
	done
}

rr_root() { echo "$RC/$1/root"; }
rr_major() { echo "${1%%.*}"; }
rr_soname() { echo "libamdhip64.so.$(rr_major "$1")"; }
rr_ldso() { echo "$RC/$1/root/usr/lib64/ld-linux-x86-64.so.2"; }
# The set's library directories; a big set (7.2-big) is searched before
# its base (7.2).
rr_path() {
	case $1 in
	*-big) echo "$RC/$1/root/usr/lib/x86_64-linux-gnu:$(rr_path "${1%-big}")" ;;
	*) echo "$RC/$1/root/usr/lib/x86_64-linux-gnu" ;;
	esac
}
# rr_run SET CMD...: CMD on the set's loader and libraries.
rr_run() {
	r_s=$1
	shift
	"$(rr_ldso "${r_s%-big}")" --library-path "$(rr_path "$r_s")" "$@"
}
# rr_shim SET CMD...: the same with the shim preloaded.
rr_shim() {
	r_s=$1
	shift
	"$(rr_ldso "${r_s%-big}")" --library-path "$(rr_path "$r_s")" \
		--preload "$SHIM" "$@"
}
# rr_cc SET OUT SRC [CC ARGS...]: SRC built against the set's runtime
# (linked to its soname) and headers, with the tests' flags.  The
# runtime's own references (glibc 2.38 and later, its closure's
# libraries) resolve when it runs in the set: the link does not check
# them against Debian 12's libraries.
rr_cc() {
	c_s=$1 c_out=$2 c_src=$3
	shift 3
	${CC:-cc} -std=gnu11 -O1 -g -Wall -Wextra -Werror \
		-D__HIP_PLATFORM_AMD__ -I"$RR_TOP/include" \
		-I"$RR_TOP/tests/shim" "$c_src" "$@" \
		-o "$c_out" -L"$(rr_root "${c_s%-big}")/usr/lib/x86_64-linux-gnu" \
		-Wl,--allow-shlib-undefined -Wl,--no-as-needed \
		-l:"$(rr_soname "$c_s")" -ldl -lpthread ||
		fail "building $c_src against ROCm $c_s"
}
# rr_version SET: the Debian version of the set's runtime package.
rr_version() {
	awk -v p="libamdhip64-$(rr_major "$1")" '$1 == p { print $2 }' \
		"$RC/$1/packages"
}
