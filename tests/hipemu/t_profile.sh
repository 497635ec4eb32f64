# t_profile.sh - one hipemu profile against the facts of its release
# (mk/rocm-layouts.txt): soname, exactly the release's version nodes, every
# export under a node of the release, the per-thread (_spt) set, then
# check_hipemu on it (last-error rule, hipRuntimeGetVersion, what the
# release exports).  Set by mk/zz-profiles.mk: PROFILE (5.2, 5.7, ...),
# PROFILE_LIB (the library), EMU_DIR (where a program linked against
# libamdhip64.so.5 finds it), HE_CHECK, HE_VECADD, HE_VECADD_TWIN.
set -u
L=mk/rocm-layouts.txt
fail() { echo "FAIL: $*"; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hipemu-profile.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

want=$(awk -v r="$PROFILE" '$1 == "layout" && $2 == r { print $3 }' $L)
[ -n "$want" ] || fail "no layout $PROFILE"
got=$(readelf -d "$PROFILE_LIB" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
[ "$got" = "$want" ] || fail "soname $got, want $want"

awk -v r="$PROFILE" '$1 == "layout" && $2 == r {
	for (i = 4; i <= NF; i++) print "hip_" $i }' $L | sort >"$tmp/nodes.want"
readelf -V "$PROFILE_LIB" | sed -n '/Version definition/,/Version needs/p' |
	grep -v 'Flags: BASE' | sed -n 's/.*Name: \(hip_[0-9.]*\).*/\1/p' |
	sort >"$tmp/nodes.got"
diff "$tmp/nodes.want" "$tmp/nodes.got" || fail "version nodes differ"

nm -D --defined-only "$PROFILE_LIB" | awk '$3 ~ /@/ { print $3 }' |
	grep -v '@@*hip_[0-9.]*$' >"$tmp/odd" || true
[ ! -s "$tmp/odd" ] || fail "exports outside hip_ nodes: $(head -3 "$tmp/odd")"
nm -D --defined-only "$PROFILE_LIB" | awk '$3 !~ /@/ && $2 ~ /[TW]/' \
	>"$tmp/unver"
[ ! -s "$tmp/unver" ] || fail "unversioned exports: $(head -3 "$tmp/unver")"

# _spt: nothing the release lacks; everything it has that hipemu wraps
# (a row of hip_api.def) exported.
awk -v r="$PROFILE" '$1 == "spt" && $2 == r {
	for (i = 3; i <= NF; i++) print $i }' $L | sort >"$tmp/spt.real"
[ -s "$tmp/spt.real" ] || fail "no spt facts for $PROFILE"
nm -D --defined-only "$PROFILE_LIB" | awk '{ s = $3; sub(/@.*/, "", s);
	if (s ~ /_spt$/) print s }' | sort >"$tmp/spt.got"
extra=$(comm -13 "$tmp/spt.real" "$tmp/spt.got")
[ -z "$extra" ] || fail "_spt exports ROCm $PROFILE does not have: $extra"
sh mk/gen-map.sh -u cc include/lbshim/hip_api.def |
	awk '/_spt;$/ { s = $1; sub(/;/, "", s); print s }' | sort >"$tmp/spt.rows"
lost=$(comm -12 "$tmp/spt.real" "$tmp/spt.rows" | comm -23 - "$tmp/spt.got")
[ -z "$lost" ] || fail "_spt rows ROCm $PROFILE has but the profile lacks: $lost"
echo "ROCm $PROFILE: $want, $(wc -l <"$tmp/nodes.got") nodes," \
	"$(wc -l <"$tmp/spt.got") of $(wc -l <"$tmp/spt.real") _spt" \
	"(the rest: no hipemu implementation yet)"

LD_LIBRARY_PATH=$EMU_DIR HIPEMU_TEST_VECADD=$HE_VECADD \
	HIPEMU_TEST_VECADD_TWIN=$HE_VECADD_TWIN "$HE_CHECK" ||
	fail "check_hipemu on ROCm $PROFILE"
