/* rt_plain.c - a library with no HIP in it, for the dlopen wrapper's tests. */
__attribute__((visibility("default"))) int rt_plain(void)
{
	return 42;
}
