/*
 * prog_nohip.c - a process that never calls HIP: prints its thread count
 * and whether a HIP runtime is mapped, so a test can check that the shim
 * stayed inert.
 */
#include <stdio.h>
#include <string.h>

int main(void)
{
	char line[512];
	int threads = -1, mapped = 0;
	FILE *f = fopen("/proc/self/status", "r");

	while (f && fgets(line, sizeof(line), f))
		sscanf(line, "Threads: %d", &threads);
	if (f)
		fclose(f);
	f = fopen("/proc/self/maps", "r");
	while (f && fgets(line, sizeof(line), f))
		if (strstr(line, "libamdhip64"))
			mapped = 1;
	if (f)
		fclose(f);
	printf("threads=%d runtime_mapped=%d\n", threads, mapped);
	return 0;
}
