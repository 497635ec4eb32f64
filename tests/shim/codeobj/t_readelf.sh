#!/bin/sh
# t_readelf.sh - the reader against llvm-readelf: hipcc's code objects for
# gfx1030, gfx90a and gfx906, code object v4 and v5, read as the whole
# offload bundle (size known, and size unknown as at registration) and as
# bare ELF files, must give every kernel fact that llvm-readelf --notes
# prints for the same object.
set -eu
B=${BUILD:-build}/codeobj
BUNDLER=${BUNDLER:-/usr/lib/llvm-15/bin/clang-offload-bundler}
READELF=${READELF:-llvm-readelf-15}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
here=$(dirname "$0")
rc=0
for v in 4 5; do
	fb=$B/kern$v.fatbin
	d=$tmp/v$v
	mkdir -p "$d"
	"$B/co_dump" "$fb" >"$d/bundle.json"
	"$B/co_dump" -p "$fb" >"$d/probe.json"
	cmp "$d/bundle.json" "$d/probe.json" ||
		{ echo "FAIL: v$v: size-unknown read differs"; rc=1; }
	for id in $("$BUNDLER" --list --type=o --input="$fb"); do
		case $id in host-*) continue ;; esac
		t=$d/${id##*-}
		"$BUNDLER" --unbundle --type=o --input="$fb" --targets="$id" \
			--output="$t.co"
		"$READELF" --notes "$t.co" >"$t.notes"
		"$READELF" -h "$t.co" >"$t.hdr"
		"$B/co_dump" "$t.co" >"$t.json"
	done
	python3 "$here/readelf_cmp.py" "$v" "$d/bundle.json" "$d" || rc=1
done
exit $rc
