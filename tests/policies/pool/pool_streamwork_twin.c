/*
 * pool_streamwork_twin.c - the gate kernel of the pool_streamwork test: it
 * holds its stream until the host opens the gate, so that "still pending" is a fact
 * the test controls, not a race against the clock.
 */
#define _GNU_SOURCE
#include <time.h>
#include "hipemu.h"

/*
 * pw_gate(int *gate, int *done): waits until *gate is nonzero (at most
 * 60 s, so that a broken test ends), then sets *done.
 */
HIPEMU_ARGS(pw_gate, sizeof(int *), sizeof(int *));
HIPEMU_TWIN(pw_gate)
{
	int *gate = *(int **)args[0], *done = *(int **)args[1];
	struct timespec ms = { 0, 1000000L };
	int i;

	(void)launch;
	for (i = 0; i < 60000 && !__atomic_load_n(gate, __ATOMIC_SEQ_CST); i++)
		nanosleep(&ms, NULL);
	__atomic_store_n(done, 1, __ATOMIC_SEQ_CST);
}
