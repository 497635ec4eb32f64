#!/bin/sh
# Format version 2 (lbshim-trace(5)): the API names in a table after the
# fixed header, as long as the writer's API table, and the runtime in the
# header.  Its records read as version 1's; the runtime is shown; a table
# that version 1's 6656 bytes could not have held round-trips; a header
# or table altered is rejected with the file and the byte, exit 2.
. tests/tools/lbtrace/lib.sh

# The same records as basic.lbt, version 1: the same output.
for c in print "print --json" "crash"; do
	# shellcheck disable=SC2086
	"$L" $c basic.lbt >v1.out 2>&1
	# shellcheck disable=SC2086
	"$L" $c v2basic.lbt 2>&1 | grep -v '^  runtime: ' | sed s/v2basic/basic/ >v2.out
	cmp -s v1.out v2.out && ok "v2: $c as version 1" ||
		{ fail "v2: $c differs from version 1:"; diff v1.out v2.out | head; }
done

# The runtime, as summary and crash show it.
"$L" summary v2basic.lbt >out.txt 2>err.txt || fail "summary v2basic: exit $?"
grep -qx '  runtime: HIP 5.2.21153 (50221153), /opt/rocm-5.2.3/lib/libamdhip64.so.5' out.txt &&
	ok "summary: the runtime" || { fail "summary: no runtime line"; cat out.txt; }
"$L" crash v2cuda.lbt >out.txt 2>err.txt || fail "crash v2cuda: exit $?"
grep -qx '  runtime: CUDA, version not known, library not known' out.txt &&
	ok "crash: a runtime not known in part" || { fail "crash: runtime"; cat out.txt; }
"$L" summary basic.lbt | grep -q 'runtime' &&
	fail "version 1: a runtime line" || ok "version 1: no runtime line"

# 622 names, 30 KB: past version 1's 6656 bytes.  The real names come
# after 400 long ones, the calls' ids moved with them: read through the
# table, the records are basic's; two calls of APIs this lbtrace does not
# know keep the file's names.
len=$(od -An -tu4 -j7908 -N4 v2long.lbt | tr -d ' ')
[ "$len" -gt 6656 ] && ok "v2long: a table of $len bytes" || fail "v2long: $len bytes"
"$L" print basic.lbt >v1.out
"$L" print v2long.lbt >v2.out || fail "print v2long: exit $?"
grep -v 'tid:9999' v2.out | cmp -s v1.out - && ok "v2long: basic's records" ||
	fail "v2long: not basic's records"
grep -q 'tid:9999 cudaAVeryLongFunctionNameThatNoRuntimeHas_number_0399_of_the_table(' v2.out &&
	grep -q 'tid:9999 cudaAVeryLongFunctionNameThatNoRuntimeHas_number_0005_of_the_table(' v2.out &&
	grep -q 'tid:9999 hipMalloc(' v2.out &&
	ok "v2long: names from both ends of the table" || fail "v2long: names"

# rejected NAME WANT: see lib.sh; the good file is v2basic
REJECT_GOOD=v2basic.lbt

# altered NAME OFFSET HEX...: v2basic.lbt with those bytes, as NAME.lbt
altered() {
	an=$1
	shift
	cp v2basic.lbt "$an.lbt" && poke "$an.lbt" "$@"
}

# v2basic: header_size 16384 (byte 12), the table at 8192 (7904), 4430
# bytes (7908) of 222 names (88); runtime at 7896, its version at 7900.
altered version 8 03
rejected version "byte 8: trace format version 3, this lbtrace reads versions 1 to 2"
altered hsize 12 01 20
rejected hsize "byte 12: header size 8193, expected a multiple of 4096 above 8192"
altered hsize2 12 00 20 00 00
rejected hsize2 "byte 12: header size 8192, expected a multiple of 4096 above 8192"
head -c 10000 v2basic.lbt >cut.lbt
rejected cut "byte 10000: file ends inside the 16384-byte header"
altered noff 7904 00 1f
rejected noff "byte 7904: API name table at bytes 7936..12366, outside"
altered nlen 7908 01 40
rejected nlen "byte 7904: API name table at bytes 8192..24577, outside"
altered nlen0 7908 00 00 00 00
rejected nlen0 "byte 7904: API name table at bytes 8192..8192, outside"
altered apicount 88 01 00 00 00
rejected apicount "byte 88: api_count 1, but the API names (byte 8192) number 222"
altered apimax 88 00 00 02 00
rejected apimax "byte 88: api_count 131072, more than"
altered name 8194 2d
rejected name "byte 8194: API name 0 is not an identifier (byte 0x2d)"
# the last name's NUL and the table's end: one name runs to the end
altered noend 12620 41 41
rejected noend "byte 8192: the API names do not end with an empty name within their 4430 bytes"
# a table that ends before names_len says
altered early 7908 4f 11
rejected early "byte 12621: the API names end at byte 12621, but names_len (byte 7908) says 4431 bytes"
altered runtime 7896 07
rejected runtime "byte 7896: unknown runtime 7 (1 HIP, 2 CUDA)"
altered runtime0 7896 00
rejected runtime0 "byte 7896: unknown runtime 0"
altered rtver 7900 00 00 00 00
rejected rtver "byte 7900: runtime_version 0, but the flags (byte 36) say"
cp v2basic.lbt lib.lbt && fill lib.lbt 1240 4096 a
rejected lib "byte 1240: runtime_lib has no terminating NUL"

# Not judged: a version without its flag (the writer died between the
# two stores), the bytes after the table up to header_size.
altered free 36 01 && poke free.lbt 16000 ff
"$L" print free.lbt >/dev/null 2>err.txt && [ ! -s err.txt ] &&
	ok "free fields are not judged" || fail "free fields: $(cat err.txt)"
finish
