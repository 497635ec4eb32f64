#!/bin/sh
# ld-searched.sh DIR - exit 0 when the dynamic loader searches DIR for
# libraries named without a path (LD_PRELOAD=liblbshim.so), 1 when not.
#
# The loader searches the directories of /etc/ld.so.conf (with its
# include files) through the cache, plus its trusted directories (/lib,
# /usr/lib and their multiarch twins).  `ldconfig -v` prints each of those
# it would scan as "DIR: (from ...)"; -N -X make it read-only (no cache
# rebuilt, no link changed), so this is safe as root.  ldconfig lists a
# directory once by inode (/usr/lib and /lib are one on a merged /usr), so
# DIR is compared by device and inode, which also sees through symlinks.
d=$1
[ -n "$d" ] && [ -d "$d" ] || exit 1
command -v ldconfig >/dev/null || exit 1
want=$(stat -L -c %d:%i "$d") || exit 1
ldconfig -v -N -X 2>/dev/null | sed -n 's|^\(/[^:]*\):.*|\1|p' | {
	while read -r s; do
		[ "$(stat -L -c %d:%i "$s" 2>/dev/null)" = "$want" ] && exit 0
	done
	exit 1
}
