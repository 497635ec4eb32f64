#!/bin/sh
# deps.sh install|ensure - the Debian packages lbshim's build and tests use.
# "install" always installs (as root) or prints the apt-get line and fails;
# "ensure" does so only when a package is missing.
# python3-torch and python3-torchvision (PyTorch 1.13, CPU only) run
# tests/workloads/evaluate_torch.py in the workloads group: about 250 MB
# of packages with their recommends, 1 GB installed.
PKGS="libamdhip64-dev hipcc uthash-dev libunwind-dev check pkg-config \
python3-dev gcc make binutils valgrind cppcheck clang-tidy clang \
libclang-rt-14-dev man-db groff-base librocrand-dev libhiprand-dev \
librocsparse-dev libhipsparse-dev libmsgpack-dev libzstd-dev zlib1g-dev \
python3-yaml python3 time procps python3-torch python3-torchvision"
# librsvg2-bin: rsvg-convert renders lbtrace's SVG pictures as PNG (the
# lbtrace group's test_svg.sh, make svg-png); about 3 MB.
PKGS="$PKGS librsvg2-bin"

missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing="$missing $p"
done
[ "$1" = ensure ] && [ -z "$missing" ] && exit 0
[ "$1" = install ] && missing=" $PKGS"
line="apt-get update && apt-get install -y$missing"
if [ "$(id -u)" != 0 ]; then
	echo "lbshim: missing packages; run as root: $line" >&2
	exit 1
fi
echo "deps: installing$missing (apt-get's progress follows)" >&2
export DEBIAN_FRONTEND=noninteractive
# apt's own lines (Get:, Unpacking, Setting up) go to stderr, so that a
# fresh machine sees the minutes of downloads pass, and a make that reads
# stdout sees none of it.
apt-get update -q >&2 && apt-get install -y -q $missing >&2 ||
	{ echo "deps: failed: $line" >&2; exit 1; }
echo "deps: installed" >&2
