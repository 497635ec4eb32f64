/*
 * prog_static.c - a statically linked program for t_run_notrace.sh: no
 * loader runs in it, so LD_PRELOAD is never read.
 */
int main(void)
{
	return 0;
}
