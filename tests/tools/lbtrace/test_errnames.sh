#!/bin/sh
# shim/hip_names.c holds the hipError_t names of
# /usr/include/hip/hip_runtime_api.h (first name of each value): compare.
. tests/tools/lbtrace/lib.sh
H=/usr/include/hip/hip_runtime_api.h
[ -r $H ] || { echo "no $H"; exit 77; }
awk '/typedef enum __HIP_NODISCARD hipError_t/,/} hipError_t;/' $H |
	sed 's,//.*,,' | tr -d '\n' | tr ',{' '\n\n' |
	sed -n 's/^[^a-zA-Z]*\(hip[A-Za-z0-9_]*\)[ ]*=[ ]*\([0-9]*\).*/\2 \1/p' |
	awk '!seen[$1]++' | sort -n >header.txt
"$TOP/$BUILD/tests/tools/lbtrace/errtab" | sort -n >table.txt
[ "$(wc -l <header.txt)" -gt 60 ] || fail "could not read the enum"
diff header.txt table.txt && ok "table = header" || fail "table differs from $H"
finish
