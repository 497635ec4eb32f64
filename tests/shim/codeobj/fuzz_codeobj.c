/*
 * fuzz_codeobj.c - libFuzzer harness for the code-object reader: the
 * input is read as registration reads it (size known, first object only,
 * and size unknown with the input at the very end of a mapping), and
 * every fact of every kernel is touched.  Only crashes, hangs, leaks and
 * sanitizer reports count.
 */
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "lbshim/codeobj.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint64_t sink;

static void walk(struct lb_co_set *s)
{
	uint32_t i, j, a;

	if (!s)
		return;
	sink += strlen(lb_co_why(s));
	for (i = 0; i < lb_co_count(s); i++) {
		const struct lb_co_object *o = lb_co_object(s, i);

		sink += strlen(o->target) + (uint64_t)o->version;
		for (j = 0; j < o->nkernels; j++) {
			const struct lb_co_kernel *k = &o->kernels[j];

			sink += strlen(k->name) + (k->symbol ? 1 : 0);
			sink += k->kernarg_size + k->lds + k->scratch +
				k->sgprs + k->vgprs + k->wavefront + k->max_wg;
			sink += lb_co_find(s, k->name) != NULL;
			for (a = 0; a < k->nargs; a++) {
				const struct lb_co_arg *g = &k->args[a];

				sink += g->offset + g->size +
					strlen(g->value_kind) +
					strlen(lb_co_kind_name(g->kind)) +
					lb_co_arg_is_devptr(g) +
					lb_co_arg_may_write(g);
			}
		}
	}
	lb_co_free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	size_t pages = (size + pg - 1) / pg + 1;
	unsigned char *m;

	if (!size)
		return 0;
	walk(lb_co_read(data, size, 0));
	walk(lb_co_read(data, size, LB_CO_FIRST));
	/* size unknown: the reader must stop at the end of the mapping */
	m = mmap(NULL, pages * pg, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return 0;
	munmap(m + (pages - 1) * pg, pg);
	memcpy(m + (pages - 1) * pg - size, data, size);
	walk(lb_co_read(m + (pages - 1) * pg - size, 0, 0));
	munmap(m, (pages - 1) * pg);
	return 0;
}
