/*
 * ab_main.c - a stand-alone driver of the ab and run commands, for
 * testing them before they are in lbtrace's dispatch table:
 * `ab_main ab ...` and `ab_main run ...` behave as `lbtrace ab ...` and
 * `lbtrace run ...`.
 */
#include <stdio.h>
#include <string.h>
#include "ab/ab.h"
#include "ab/runner.h"

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "ab"))
		return lbt_cmd_ab(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "run"))
		return lbt_cmd_run(argc - 1, argv + 1);
	fprintf(stderr, "usage: %s ab|run ...\n", argv[0]);
	return 1;
}
