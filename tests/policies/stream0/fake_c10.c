/*
 * fake_c10.c - built as libc10_hip.so: stands in for PyTorch's HIP core
 * library, whose presence in a process tells stream0 that PyTorch's
 * caching allocator may be serving device memory.
 */
int lb_fake_c10_hip_marker(void);
int lb_fake_c10_hip_marker(void)
{
	return 0;
}
