# The procedure-address lookups (hipGetProcAddress, hipGetDriverEntryPoint
# and their _spt forms) are traced once each, with the symbol they were
# asked for: their entry record holds no name (a name is a STRING record,
# which would take the entry's slot and leave a stale "in flight" copy of
# the call behind, as it did once the _spt forms were filled by role).
. "$(dirname "$0")/lib.sh"

LBSHIM_POLICIES=trace LBSHIM_TRACE=pa.lbt traced "$PROG" procaddr \
	>out 2>err || fail "procaddr: exit $?: $(cat err)"
"$BUILD/lbtrace" print pa.lbt >pa.txt || fail "lbtrace print: exit $?"
[ "$(wc -l <pa.txt)" = 4 ] || fail "want 4 records: $(cat pa.txt)"
grep -q 'in flight' pa.txt && fail "a stale entry: $(cat pa.txt)"
for c in "hipGetProcAddress\\(.*symbol=hipMalloc, version=60100\\)" \
	"hipGetProcAddress_spt\\(.*symbol=hipFree, version=60100\\)" \
	"hipGetDriverEntryPoint\\(.*symbol=hipMalloc\\)" \
	"hipGetDriverEntryPoint_spt\\(.*symbol=hipFree\\)"; do
	expect " $c ret=" pa.txt
done
echo ok
