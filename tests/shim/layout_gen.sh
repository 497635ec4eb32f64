# layout_gen.sh KIND MAP - C source, on stdout, for the layout test
# (t_layouts.sh), with one entry per symbol of the version script MAP:
#   KIND=runtime  a stand-in runtime defining every symbol (empty bodies:
#                 only binding is tested, nothing is called);
#   KIND=prog     a program that references every symbol and reports,
#                 for each, whether its reference bound to the object
#                 named by argv[1] (dlsym of it) or elsewhere.
set -e
kind=$1 map=$2
syms=$(awk '/;$/ && !/\*/ && !/^}/ { s = $1; sub(/;/, "", s); print s }' "$map")
i=0
echo '#define _GNU_SOURCE'
echo '#include <dlfcn.h>'
echo '#include <stdio.h>'
for s in $syms; do
	i=$((i + 1))
	if [ "$kind" = runtime ]; then
		echo "__attribute__((visibility(\"default\"))) void f$i(void) __asm__(\"$s\");"
		echo "void f$i(void) {}"
	else
		echo "extern void f$i(void) __asm__(\"$s\");"
	fi
done
[ "$kind" = runtime ] && exit 0
echo 'static const struct { void (*ref)(void); const char *name; } t[] = {'
i=0
for s in $syms; do
	i=$((i + 1))
	echo "	{ f$i, \"$s\" },"
done
cat <<'EOC'
};

int main(int argc, char **argv)
{
	void *h = argc > 1 ? dlopen(argv[1], RTLD_NOW | RTLD_NOLOAD) : NULL;
	unsigned i, n = sizeof(t) / sizeof(t[0]), bound = 0;
	Dl_info di;

	if (!h) {
		printf("not loaded: %s\n", argc > 1 ? argv[1] : "?");
		return 2;
	}
	for (i = 0; i < n; i++) {
		void *want = dlsym(h, t[i].name);

		if (want && (void *)t[i].ref == want) {
			bound++;
			continue;
		}
		printf("past: %s -> %s\n", t[i].name,
		       dladdr((void *)t[i].ref, &di) && di.dli_fname ?
		       di.dli_fname : "?");
	}
	printf("bound %u of %u\n", bound, n);
	return 0;
}
EOC
