#!/bin/sh
# fetch.sh SET... - make sure each named set of tests/realrocm/sets.txt (a
# real ROCm runtime, AMD's libraries and their dependency closure, glibc
# included) is unpacked in the cache, fetching it from Debian's archive
# if not.  Silent when every set is already there.
#
# The cache is $LBSHIM_ROCM_CACHE, else ${XDG_CACHE_HOME:-~/.cache}/
# lbshim-rocm: outside the repository, so that every checkout and every
# `make clean` reuses it.  There:
#   apt/         apt's own sources list, lists and status file (empty: the
#                closure is resolved as for an empty system); the host's
#                apt state (/var/lib/apt, /var/cache/apt, dpkg's database)
#                is read by nothing here and written by nothing
#   SET/root/    the closure unpacked by dpkg -x (dpkg-deb | tar for a big
#                set: its shared objects only)
#   SET/packages "package version" of each package unpacked; written last
#                (the directory is renamed into place whole), so a set
#                with a packages file is complete
#   SET/def      the set's lines of sets.txt when it was fetched: a set
#                defined otherwise since is fetched again
#   lock         flock(1)'s: two makes fetching at once take turns, and
#                the second finds the first's work done
#
# $LBSHIM_ROCM_MIRROR: the archive (default http://deb.debian.org/debian).
# Exit status: 0 every set is there; 77 a set is missing and the archive
# cannot be reached (one line on stderr saying so; 1 instead when
# LBSHIM_ROCM_REQUIRE=1, as in CI); 1 any other failure (the message
# says which set and why).
set -u
here=$(dirname "$0")
sets=$here/sets.txt
C=${LBSHIM_ROCM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/lbshim-rocm}
mirror=${LBSHIM_ROCM_MIRROR:-http://deb.debian.org/debian}
keyring=/usr/share/keyrings/debian-archive-keyring.gpg

def() {	# def SET: the lines of sets.txt that define it
	awk -v n="$1" '$1 != "#" && $2 == n' "$sets"
}
missing() {	# missing SET...: the sets not there, or defined otherwise now
	for m_s; do
		[ -f "$C/$m_s/packages" ] &&
			[ "$(cat "$C/$m_s/def" 2>/dev/null)" = "$(def "$m_s")" ] ||
			printf '%s ' "$m_s"
	done
}
need=$(missing "$@")
[ -z "$need" ] && exit 0

die() {
	echo "realrocm: $*" >&2
	exit 1
}
offline() {
	if [ "${LBSHIM_ROCM_REQUIRE:-0}" = 1 ]; then
		die "cannot reach $mirror (LBSHIM_ROCM_REQUIRE=1): $*"
	fi
	echo "realrocm: skipped: cannot reach Debian's archive ($mirror): $*" >&2
	exit 77
}
for t in apt-get dpkg-deb flock tar; do
	command -v $t >/dev/null || die "$t is needed to fetch the real runtimes"
done
mkdir -p "$C" || die "cannot create the cache $C"
exec 9>>"$C/lock" || die "cannot open $C/lock"
flock 9 || die "flock $C/lock failed"
# Another make may have fetched them while this one waited.
need=$(missing $need)
[ -z "$need" ] && exit 0

A=$C/apt
mkdir -p "$A/state/lists/partial" "$A/cache/archives/partial" "$A/none" ||
	die "cannot create $A"
: >"$A/status"
# main, and the components the sets fetched now name (sets.txt's
# "component" lines: NVIDIA's libcudart12 is in non-free), so that a
# mirror of main alone still serves the ROCm sets
comps=main
for s in $need; do
	for c in $(awk -v n="$s" '$1 == "component" && $2 == n {
		for (i = 3; i <= NF; i++) print $i }' "$sets"); do
		case " $comps " in *" $c "*) ;; *) comps="$comps $c" ;; esac
	done
done
{
	for suite in trixie sid experimental; do
		echo "deb [signed-by=$keyring] $mirror $suite $comps"
	done
} >"$A/sources.list"
# Only our own directories: the host's sources, preferences and state are
# not read (its apt.conf.d is, for a proxy it may set).  As root, apt would
# download as the _apt user, who cannot write into a home directory.
sandbox=
[ "$(id -u)" = 0 ] && sandbox="-o APT::Sandbox::User=root"
apt() {
	apt-get -q -o Dir::Etc::sourcelist="$A/sources.list" \
		-o Dir::Etc::sourceparts="$A/none" \
		-o Dir::Etc::preferences="$A/none/preferences" \
		-o Dir::Etc::preferencesparts="$A/none" \
		-o Dir::State="$A/state" -o Dir::State::status="$A/status" \
		-o Dir::Cache="$A/cache" \
		-o APT::Architecture=amd64 -o APT::Architectures=amd64 \
		-o Acquire::Languages=none -o Acquire::Retries=2 \
		-o Acquire::http::Timeout=20 \
		-o Acquire::IndexTargets::deb::Contents-deb::DefaultEnabled=false \
		-o APT::Get::AllowUnauthenticated=false \
		$sandbox "$@"
}

log=$C/fetch.log
: >"$log"
apt update >>"$log" 2>&1
rc=$?
# apt's reason: the line under its first Err:, else its first E: or W:
err=$(sed -n '/^Err:/{n;s/^ *//;p;q}' "$log")
[ -n "$err" ] ||
	err=$(grep -m 1 -E '^(E: |W: Failed to fetch|W: Some index)' "$log")
if [ -n "$err" ] || [ $rc != 0 ]; then
	if grep -qE 'resolv|connect|Connection|timed out|Unable to fetch|Temporary failure|No route' "$log"; then
		offline "$(printf '%s' "$err" | cut -c 1-160)"
	fi
	die "apt-get update failed (see $log): $err"
fi

# closure SUITE PACKAGES...: "package version" of every package an empty
# system would install.
closure() {
	c_suite=$1
	shift
	apt -s -t "$c_suite" install "$@" >"$C/sim.out" 2>&1 ||
		die "apt cannot resolve $* in $c_suite (see $C/sim.out): $(grep -m 1 '^E:' "$C/sim.out")"
	awk '$1 == "Inst" { v = $3; gsub(/[()]/, "", v); print $2, v }' \
		"$C/sim.out"
}
field() {	# field KIND NAME: the rest of sets.txt's "KIND NAME ..." line
	awk -v k="$1" -v n="$2" '$1 == k && $2 == n {
		for (i = 3; i <= NF; i++) printf "%s ", $i }' "$sets"
}
skipped() {	# skipped SET PACKAGE: exit 0 if sets.txt leaves it out
	for s_pat in $(field skip "$1"); do
		# shellcheck disable=SC2254
		case $2 in $s_pat) return 0 ;; esac
	done
	return 1
}

for s in $need; do
	line=$(field set "$s")
	big=$(field big "$s")
	tmp=$C/$s.tmp
	rm -rf "$tmp" "$C/$s"
	mkdir -p "$tmp/debs" "$tmp/root" || die "cannot create $tmp"
	if [ -n "$line" ]; then
		# shellcheck disable=SC2086
		closure $line >"$tmp/all" || exit 1
		while read -r p v; do
			skipped "$s" "$p" || echo "$p $v"
		done <"$tmp/all" >"$tmp/want"
	elif [ -n "$big" ]; then
		base=${big%% *}
		# shellcheck disable=SC2046
		[ -f "$C/$base/packages" ] || die "$s needs $base fetched first"
		closure $(field set "$base") ${big#* } >"$tmp/all" || exit 1
		awk 'NR == FNR { have[$1] = 1; next } !($1 in have)' \
			"$C/$base/packages" "$tmp/all" >"$tmp/want"
	else
		die "no set $s in $sets"
	fi
	[ -s "$tmp/want" ] || die "$s: nothing to fetch?"
	mb=$( (cd "$tmp/debs" && apt download --print-uris \
		$(awk '{ print $1 "=" $2 }' "$tmp/want")) 2>>"$log" |
		awk '{ s += $3 } END { printf "%d", s / 1000000 }')
	echo "realrocm: fetching ROCm set $s ($(wc -l <"$tmp/want") packages," \
		"$mb MB) from $mirror into $C" >&2
	# shellcheck disable=SC2046
	(cd "$tmp/debs" && apt download $(awk '{ print $1 "=" $2 }' \
		"$tmp/want")) >>"$log" 2>&1 || {
		grep -qE 'resolv|connect|Connection|timed out' "$log" &&
			offline "downloading $s: $(grep -m 1 '^E:' "$log")"
		die "downloading $s failed (see $log): $(grep -m 1 '^E:' "$log")"
	}
	for d in "$tmp"/debs/*.deb; do
		if [ -n "$big" ]; then
			# Shared objects only; a package may have none.
			dpkg-deb --fsys-tarfile "$d" | tar -x -C "$tmp/root" \
				--wildcards --wildcards-match-slash \
				'*.so' '*.so.*' 2>/dev/null
		else
			dpkg-deb -x "$d" "$tmp/root" ||
				die "dpkg-deb -x $d failed"
		fi
	done
	rm -rf "$tmp/debs"
	def "$s" >"$tmp/def"
	cp "$tmp/want" "$tmp/packages"
	mv "$tmp" "$C/$s" || die "cannot move $tmp into place"
done
rm -f "$C/sim.out"
exit 0
