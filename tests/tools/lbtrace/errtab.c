/* errtab.c - prints lbtrace's hipError_t table ("value name" lines), for
 * test_errnames.sh to compare with the enum in the HIP header. */
#include <stdio.h>
#include "lbshim/names.h"

int main(void)
{
	int i;

	for (i = 0; i < lbt_hip_error_count(); i++) {
		const char *n;
		int v = lbt_hip_error_at(i, &n);

		printf("%d %s\n", v, n);
	}
	return 0;
}
