#!/bin/sh
# svg2png.sh IN.svg [OUT.png] - renders a picture that lbtrace drew
# (export --svg, ab --svg) as PNG, as a browser shows it: with librsvg's
# rsvg-convert (Debian: librsvg2-bin), else ImageMagick's convert (Debian:
# imagemagick; it hands SVG to rsvg-convert or its own reader).
# OUT defaults to IN with .png.  Exit 0, 1 bad usage, 2 no renderer or
# the rendering failed.  `make svg-png SVG=IN.svg` runs it.
in=$1
out=${2:-${in%.svg}.png}
if [ -z "$in" ] || [ ! -r "$in" ]; then
	echo "usage: svg2png.sh IN.svg [OUT.png] (IN readable)" >&2
	exit 1
fi
if command -v rsvg-convert >/dev/null 2>&1; then
	rsvg-convert --background-color=white -o "$out" "$in" || exit 2
elif convert -version 2>/dev/null | grep -q ImageMagick; then
	convert -background white "$in" "$out" || exit 2
else
	echo "svg2png.sh: no SVG renderer: install librsvg2-bin" \
		"(rsvg-convert) or imagemagick, or open $in in a browser" >&2
	exit 2
fi
echo "$out"
