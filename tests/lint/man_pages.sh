# man_pages.sh - every page in man/ formats without a warning, and no
# alternating font macro glues two words together.
#
# The second check exists because groff says nothing about it: in
# ".BR exit . A crash has" every argument after the first is set in the
# other font with no space between, and the page reads "exit.Acrashhas".
# Flagged: an argument that starts with a letter or digit after one that
# ends with one, or a capitalised word after a sentence mark (. , ; :).
# A name joined on purpose (".BI dev: N", ".IB name .1. ext") passes; a
# join of words wanted on purpose is written "\&" before the second.
command -v man >/dev/null || { echo "man (man-db) not installed"; exit 77; }
command -v groff >/dev/null || { echo "groff not installed"; exit 77; }
pages=$(ls man/*.[1-9] 2>/dev/null)
[ -n "$pages" ] || { echo "no man pages under man/"; exit 1; }
bs=$(printf '\b')
bad=0
for p in $pages; do
	# one width for every run: man uses the terminal's otherwise
	w=$(MANWIDTH=80 man --warnings -E UTF-8 -l "$p" 2>&1 >/dev/null)
	if [ -n "$w" ]; then
		echo "FAIL $p: man --warnings:"; echo "$w" | sed 's/^/    /'
		bad=1
	fi
	w=$(groff -ww -z -t -man "$p" 2>&1)
	if [ -n "$w" ]; then
		echo "FAIL $p: groff -ww:"; echo "$w" | sed 's/^/    /'
		bad=1
	fi
	g=$(awk '
	/^\.(BR|RB|IR|RI|BI|IB)[ \t]/ {
		line = $0; sub(/^\.[A-Z][A-Z][ \t]+/, "", line)
		n = 0
		while (length(line)) {
			if (substr(line, 1, 1) == "\"") {
				e = index(substr(line, 2), "\"")
				if (!e) e = length(line)
				arg[++n] = substr(line, 2, e - 1)
				line = substr(line, e + 2)
			} else {
				e = match(line, /[ \t]/)
				if (!e) e = length(line) + 1
				arg[++n] = substr(line, 1, e - 1)
				line = substr(line, e)
			}
			sub(/^[ \t]+/, "", line)
		}
		for (i = 2; i <= n; i++) {
			prev = arg[i - 1]
			# a trailing font change or named glyph (\fR, \(dq)
			# is no letter
			gsub(/(\\f[A-Z]|\\f\[[^]]*\]|\\\(..)+$/, "", prev)
			if ((prev ~ /[A-Za-z0-9]$/ && arg[i] ~ /^[A-Za-z0-9]/) ||
			    (prev ~ /[.,;:]$/ && arg[i] ~ /^[A-Z][a-z]/))
				printf "%d: %s\n", NR, $0
		}
	}' "$p" | sort -u)
	if [ -n "$g" ]; then
		echo "FAIL $p: words glued by an alternating font macro:"
		echo "$g" | sed 's/^/    /'
		bad=1
	fi
	# and what the reader sees: "word.Word" is a sentence glued on
	# (overstrikes removed: bold is "c BS c", underline "_ BS c")
	g=$(MANWIDTH=80 man -E UTF-8 -l "$p" 2>/dev/null | sed "s/.$bs//g" |
		grep -nE '[a-z][.;:,][A-Z][a-z]')
	if [ -n "$g" ]; then
		echo "FAIL $p: rendered text with glued words:"
		echo "$g" | sed 's/^/    /'
		bad=1
	fi
	[ $bad = 0 ] && echo "ok $p"
done
exit $bad
