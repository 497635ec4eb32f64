#!/bin/sh
# install-dirs.sh - the directories `make install` creates, and only
# those, removed again by `make uninstall` once empty.
#
#   install-dirs.sh make DESTDIR RECORD DIR...
#       creates each DIR under DESTDIR with its missing parents (as
#       install -d does) and adds to RECORD (a file under DESTDIR, itself
#       in a directory among the DIRs) every directory that did not exist
#       before, parents first; directories an earlier install created stay
#       recorded.
#   install-dirs.sh remove DESTDIR RECORD
#       removes RECORD, then each recorded directory that is empty,
#       deepest first; a directory that holds anything else, or that
#       install did not create, is left alone.
#
# Paths in RECORD are without DESTDIR, one a line.
set -u
op=$1 dest=$2 rec=$3
shift 3
case $op in
make)
	new=
	# DESTDIR is the packager's staging root: made, never recorded
	[ -z "$dest" ] || mkdir -p "$dest" || exit 1
	for d in "$@"; do
		case $d in
		/*) p= rest=${d#/} ;;
		*) p=. rest=$d ;; # a relative PREFIX, without DESTDIR
		esac
		while [ -n "$rest" ]; do
			part=${rest%%/*}
			case $rest in */*) rest=${rest#*/} ;; *) rest= ;; esac
			[ -n "$part" ] || continue
			p=$p/$part
			[ -d "$dest$p" ] && continue
			mkdir -m 0755 "$dest$p" || exit 1
			new="$new$p
"
		done
	done
	if [ -n "$new" ] || [ ! -e "$dest$rec" ]; then
		{ [ -f "$dest$rec" ] && cat "$dest$rec"; printf '%s' "$new"; } \
			>"$dest$rec.tmp" && mv "$dest$rec.tmp" "$dest$rec" || exit 1
		chmod 0644 "$dest$rec"
	fi
	;;
remove)
	[ -f "$dest$rec" ] || exit 0
	list=$(cat "$dest$rec")
	rm -f "$dest$rec"
	# deepest first: longest path first (a child is longer than its parent)
	echo "$list" | awk 'NF { print length($0) " " $0 }' | sort -rn |
		cut -d' ' -f2- | while IFS= read -r d; do
			rmdir "$dest$d" 2>/dev/null || :
		done
	;;
*)
	echo "usage: install-dirs.sh make|remove DESTDIR RECORD [DIR...]" >&2
	exit 1
	;;
esac
