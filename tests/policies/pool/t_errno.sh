#!/bin/sh
# errno under the pool: with a runtime whose every call leaves errno set
# (hipemu's HIPEMU_ERRNO), a hipMalloc or hipFree the pool answers itself
# leaves the program's errno as it was, also when the shim then looks at
# the runtime's last error (each follows a failed call); a call the
# runtime answers leaves the runtime's value.  The pool alone (its serve
# path), with trace (the general dispatch), and the shim with no policy
# (the runtime answers every call).
. "$(dirname "$0")/lib.sh"
export HIPEMU_ERRNO=77
run alone pool "$P" errno 77 served
POLICIES=pool,trace LBSHIM_TRACE=$T/t.lbt run mixed pool "$P" errno 77 served
run plain plain "$P" errno 77 runtime
