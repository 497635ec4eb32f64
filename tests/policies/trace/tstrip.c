/*
 * tstrip.c - a library built stripped (mk/trace.mk: -s) for t_crash.sh's
 * guessed frame names: the fault is in a static function, which has no
 * symbol once the full symbol table is gone, so the nearest exported
 * symbol below it, tstrip_before, is all a name lookup finds.  The unwind
 * tables still know where the static function starts.  Built with
 * -fno-toplevel-reorder so the three stay in this order.
 */
#include <stdint.h>

volatile int tstrip_sink;

void tstrip_before(void)
{
	tstrip_sink = 1;
}

static __attribute__((noinline)) void hidden_fault(uintptr_t where)
{
	int i;

	/* some work first, so the fault is well past the symbol below */
	for (i = 0; i < 8; i++)
		tstrip_sink += i * (int)where;
	*(volatile int *)where = tstrip_sink;
}

__attribute__((noinline)) void tstrip_fault(uintptr_t where)
{
	hidden_fault(where);
	tstrip_sink = 2; /* not a tail call: this frame stays on the stack */
}
