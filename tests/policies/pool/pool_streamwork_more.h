/* pool_streamwork_more.h - writers added family by family. */
#define PW_MORE_WRITERS
static void pw_more_setup(void)
{
}
