/*
 * marker.c - a preload library of the tests' own: it says it was loaded,
 * so a test sees that `lbtrace run` kept the user's LD_PRELOAD.
 */
#include <stdio.h>

__attribute__((constructor)) static void marker(void)
{
	fputs("lbtest-marker: loaded\n", stderr);
}
