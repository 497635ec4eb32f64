/*
 * co_dump.c - prints what the code-object reader finds in a file, as one
 * JSON object, for t_readelf.sh to hold against llvm-readelf's notes.
 *
 *   co_dump [-p] FILE
 *
 * -p hands the reader a size of 0 (unknown, as __hipRegisterFatBinary
 * does): the file is mapped and the reader finds the extent itself.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lbshim/codeobj.h"

static void dump_kernel(const struct lb_co_kernel *k)
{
	uint32_t a;

	printf("{\"name\":\"%s\",\"symbol\":\"%s\",\"facts\":%d,"
	       "\"kernarg_segment_size\":%u,\"group_segment_fixed_size\":%u,"
	       "\"private_segment_fixed_size\":%u,\"sgpr_count\":%u,"
	       "\"vgpr_count\":%u,\"wavefront_size\":%u,"
	       "\"max_flat_workgroup_size\":%u,\"args\":[",
	       k->name, k->symbol ? k->symbol : "", k->facts, k->kernarg_size,
	       k->lds, k->scratch, k->sgprs, k->vgprs, k->wavefront,
	       k->max_wg);
	for (a = 0; a < k->nargs; a++)
		printf("%s{\"offset\":%u,\"size\":%u,\"value_kind\":\"%s\","
		       "\"devptr\":%d}",
		       a ? "," : "", k->args[a].offset, k->args[a].size,
		       k->args[a].value_kind,
		       lb_co_arg_is_devptr(&k->args[a]));
	printf("]}");
}

int main(int argc, char **argv)
{
	int probe = argc > 2 && !strcmp(argv[1], "-p");
	const char *path = argv[argc - 1];
	struct lb_co_set *set;
	struct stat st;
	uint32_t i, j;
	void *p;
	int fd;

	if (argc < 2)
		return 1;
	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st) || !st.st_size) {
		perror(path);
		return 1;
	}
	p = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED) {
		perror(path);
		return 1;
	}
	set = lb_co_read(p, probe ? 0 : (size_t)st.st_size, 0);
	if (!set)
		return 1;
	printf("{\"why\":\"%s\",\"objects\":[", lb_co_why(set));
	for (i = 0; i < lb_co_count(set); i++) {
		const struct lb_co_object *o = lb_co_object(set, i);

		printf("%s{\"target\":\"%s\",\"version\":%d,\"kernels\":[",
		       i ? "," : "", o->target, o->version);
		for (j = 0; j < o->nkernels; j++) {
			if (j)
				putchar(',');
			dump_kernel(&o->kernels[j]);
		}
		printf("]}");
	}
	printf("]}\n");
	lb_co_free(set);
	munmap(p, st.st_size);
	return 0;
}
