/*
 * check_codeobj.c - the code-object reader on hipcc's code objects: the
 * bundle as registration hands it over (size unknown), its bare ELF
 * objects, compressed bundles of each header version made here from the
 * uncompressed one, a --genco module image, and corrupt inputs of each
 * layer.  The metadata layer's own cases: check_codeobj_meta.c.
 *
 * CO_DIR names the directory of the fixtures (mk/codeobj.mk).
 */
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>
#include "check_codeobj.h"

struct blob {
	unsigned char *p;
	size_t n;
};

static struct blob load(const char *name)
{
	const char *dir = getenv("CO_DIR");
	char path[4096];
	struct blob b = { 0 };
	struct stat st;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir ? dir : "build/codeobj",
		 name);
	fd = open(path, O_RDONLY);
	ck_assert_msg(fd >= 0, "fixture %s missing", path);
	ck_assert(!fstat(fd, &st) && st.st_size > 0);
	b.n = (size_t)st.st_size;
	b.p = malloc(b.n);
	ck_assert(b.p && read(fd, b.p, b.n) == (ssize_t)b.n);
	close(fd);
	return b;
}

/*
 * A copy of n bytes of p ending exactly at the end of a mapping, the next
 * page unmapped: whatever the reader reads past n faults.  Returns the
 * copy; base and len are for co_unplace().
 */
unsigned char *co_place(const void *p, size_t n, void **base, size_t *len)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	size_t pages = (n + pg - 1) / pg + 1;
	unsigned char *m = mmap(NULL, (pages + 1) * pg, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ck_assert(m != MAP_FAILED);
	ck_assert(!munmap(m + pages * pg, pg));
	*base = m;
	*len = pages * pg;
	memcpy(m + pages * pg - n, p, n);
	return m + pages * pg - n;
}

void co_unplace(void *base, size_t len)
{
	munmap(base, len);
}

/* The facts of scale() in every object, as t_readelf.sh checked them. */
static void check_scale(const struct lb_co_set *s, uint32_t nobj)
{
	const struct lb_co_kernel *k = lb_co_find(s, "_Z5scalePffi4Pair");

	ck_assert_msg(lb_co_count(s) == nobj, "%u objects (%s)",
		      lb_co_count(s), lb_co_why(s));
	ck_assert_ptr_nonnull(k);
	ck_assert(k == lb_co_find(s, "_Z5scalePffi4Pair.kd"));
	ck_assert_int_eq(k->facts, 1);
	ck_assert_uint_ge(k->nargs, 4);
	ck_assert_uint_eq(k->args[0].offset, 0);
	ck_assert_uint_eq(k->args[0].size, 8);
	ck_assert_int_eq(k->args[0].kind, LB_CO_GLOBAL_BUFFER);
	ck_assert(lb_co_arg_is_devptr(&k->args[0]));
	ck_assert(lb_co_arg_may_write(&k->args[0]));
	ck_assert_int_eq(k->args[1].kind, LB_CO_BY_VALUE);
	ck_assert(!lb_co_arg_is_devptr(&k->args[1]));
	ck_assert_uint_eq(k->args[3].offset, 16);
	ck_assert_uint_eq(k->args[3].size, 16); /* Pair{float *, int} */
	ck_assert_uint_ge(k->kernarg_size, 32);
	ck_assert_uint_eq(k->max_wg, 1024);
	ck_assert_ptr_null(lb_co_find(s, "_Z5scalePffi"));
}

START_TEST(tc_bundle)
{
	struct blob b = load("kern5.fatbin");
	struct lb_co_set *s = lb_co_read(b.p, b.n, 0);
	const struct lb_co_kernel *k;
	uint32_t i, w32 = 0;

	check_scale(s, 3);
	ck_assert_str_eq(lb_co_why(s), "");
	for (i = 0; i < 3; i++) {
		const struct lb_co_object *o = lb_co_object(s, i);

		ck_assert_int_eq(o->version, 5);
		ck_assert_uint_eq(o->nkernels, 5);
		w32 += o->kernels[0].wavefront == 32;
	}
	ck_assert_uint_eq(w32, 1); /* gfx1030 only */
	ck_assert_ptr_null(lb_co_object(s, 3));
	k = lb_co_find(s, "_Z4fillIdEvPT_S0_");
	ck_assert(k && k->facts && k->args[1].size == 8);
	k = lb_co_find(s, "_Z3arr3ArrPi");
	ck_assert(k && k->lds == 256 && k->args[0].size == 20);
	k = lb_co_find(s, "_Z6copyroPKfPfhsx");
	ck_assert(k && k->scratch > 0 && k->nargs >= 5);
	lb_co_free(s);
	/* the first object only */
	s = lb_co_read(b.p, b.n, LB_CO_FIRST);
	check_scale(s, 1);
	lb_co_free(s);
	free(b.p);
}
END_TEST

START_TEST(tc_v4)
{
	struct blob b = load("kern4.fatbin");
	struct lb_co_set *s = lb_co_read(b.p, b.n, 0);

	check_scale(s, 3);
	ck_assert_int_eq(lb_co_object(s, 0)->version, 4);
	lb_co_free(s);
	free(b.p);
}
END_TEST

/* Size unknown (registration): the bundle alone in its mapping. */
START_TEST(tc_probe)
{
	struct blob b = load("kern5.fatbin");
	void *base;
	size_t len, cut;
	unsigned char *p = co_place(b.p, b.n, &base, &len);
	struct lb_co_set *s = lb_co_read(p, 0, 0);

	check_scale(s, 3);
	lb_co_free(s);
	co_unplace(base, len);
	/* cut anywhere: never a read past the mapping, never an object
	 * that is not whole */
	for (cut = 1; cut < b.n; cut += cut < 600 ? 1 : 97) {
		p = co_place(b.p, cut, &base, &len);
		s = lb_co_read(p, 0, 0);
		ck_assert_ptr_nonnull(s);
		ck_assert(lb_co_count(s) == 0 || *lb_co_why(s));
		lb_co_free(s);
		co_unplace(base, len);
	}
	free(b.p);
}
END_TEST

/* Entry i's bytes in bundle b (the test's own walk of the layout). */
static struct blob entry(struct blob b, const char *suffix)
{
	uint64_t n, i, at = 32;
	struct blob e = { 0 };

	memcpy(&n, b.p + 24, 8);
	for (i = 0; i < n; i++) {
		uint64_t off, size, idlen;

		memcpy(&off, b.p + at, 8);
		memcpy(&size, b.p + at + 8, 8);
		memcpy(&idlen, b.p + at + 16, 8);
		at += 24;
		if (idlen > strlen(suffix) &&
		    !memcmp(b.p + at + idlen - strlen(suffix), suffix,
			    strlen(suffix))) {
			e.p = b.p + off;
			e.n = size;
		}
		at += idlen;
	}
	ck_assert_ptr_nonnull(e.p);
	return e;
}

START_TEST(tc_elf)
{
	struct blob b = load("kern5.fatbin");
	struct blob e = entry(b, "--gfx1030");
	struct lb_co_set *s = lb_co_read(e.p, e.n, 0);
	const struct lb_co_object *o;
	void *base;
	size_t len;
	unsigned char *p;

	check_scale(s, 1);
	o = lb_co_object(s, 0);
	ck_assert_str_eq(o->target, "amdgcn-amd-amdhsa--gfx1030");
	ck_assert_uint_eq(o->kernels[0].wavefront, 32);
	lb_co_free(s);
	/* a module image of unknown size */
	p = co_place(e.p, e.n, &base, &len);
	s = lb_co_read(p, 0, 0);
	check_scale(s, 1);
	lb_co_free(s);
	co_unplace(base, len);
	free(b.p);
}
END_TEST

/* hipcc --genco: the file a program hands hipModuleLoad(Data). */
START_TEST(tc_module)
{
	struct blob b = load("kern.co");
	unsigned char *img = malloc(b.n);
	struct lb_co_set *s;

	memcpy(img, b.p, b.n);
	s = lb_co_read(img, 0, LB_CO_FIRST);
	check_scale(s, 1);
	lb_co_free(s);
	free(img);
	free(b.p);
}
END_TEST

START_TEST(tc_not_amdgpu)
{
	struct blob b = load("co_dump"); /* a host ELF */
	struct lb_co_set *s = lb_co_read(b.p, b.n, 0);

	ck_assert_uint_eq(lb_co_count(s), 0);
	ck_assert_ptr_nonnull(strstr(lb_co_why(s), "not an AMDGPU"));
	lb_co_free(s);
	s = lb_co_read("hello, world", 12, 0);
	ck_assert_uint_eq(lb_co_count(s), 0);
	ck_assert_ptr_nonnull(strstr(lb_co_why(s), "not a bundle"));
	lb_co_free(s);
	s = lb_co_read(NULL, 0, 0);
	ck_assert(s && lb_co_count(s) == 0 && *lb_co_why(s));
	lb_co_free(s);
	free(b.p);
}
END_TEST

/* The note's type changed: an object without metadata is skipped. */
START_TEST(tc_no_note)
{
	struct blob b = load("kern5.fatbin");
	struct blob e = entry(b, "--gfx90a");
	unsigned char *q = NULL;
	struct lb_co_set *s;
	size_t i;

	for (i = 12; i + 8 <= e.n; i++)
		if (!memcmp(e.p + i, "AMDGPU\0", 8) && e.p[i - 4] == 32)
			q = e.p + i - 4;
	ck_assert_ptr_nonnull(q);
	s = lb_co_read(e.p, e.n, 0);
	ck_assert_uint_eq(lb_co_count(s), 1);
	lb_co_free(s);
	*q = 33;
	s = lb_co_read(e.p, e.n, 0);
	ck_assert_uint_eq(lb_co_count(s), 0);
	ck_assert_ptr_nonnull(strstr(lb_co_why(s), "no AMDGPU metadata"));
	lb_co_free(s);
	/* in the bundle, the two other objects are still read */
	s = lb_co_read(b.p, b.n, 0);
	ck_assert_uint_eq(lb_co_count(s), 2);
	ck_assert_ptr_nonnull(strstr(lb_co_why(s), "gfx90a"));
	check_scale(s, 2);
	lb_co_free(s);
	free(b.p);
}
END_TEST

/* What __hipRegisterFatBinary gets: the wrapper around the bundle. */
START_TEST(tc_fatbin)
{
	struct blob b = load("kern5.fatbin");
	struct {
		unsigned magic, version;
		const void *binary, *dummy;
	} w = { 0x48495046, 1, b.p, NULL };
	struct lb_co_set *s = lb_co_read_fatbin(&w, 0);
	void *base;
	size_t len;
	unsigned char *p;

	check_scale(s, 3);
	lb_co_free(s);
	w.version = 2;
	s = lb_co_read_fatbin(&w, 0);
	ck_assert(lb_co_count(s) == 0 && strstr(lb_co_why(s), "wrapper"));
	lb_co_free(s);
	/* a short string as wrapper or image: nothing past its NUL read */
	p = co_place("FPI", 4, &base, &len);
	s = lb_co_read_fatbin(p, 0);
	ck_assert(lb_co_count(s) == 0 && *lb_co_why(s));
	lb_co_free(s);
	co_unplace(base, len);
	p = co_place("CC", 3, &base, &len);
	s = lb_co_read(p, 0, 0);
	ck_assert(lb_co_count(s) == 0 && *lb_co_why(s));
	lb_co_free(s);
	co_unplace(base, len);
	free(b.p);
}
END_TEST

/* Entries pointing outside the bundle, and a count past the cap. */
START_TEST(tc_bad_bundle)
{
	struct blob b = load("kern5.fatbin");
	uint64_t v;
	struct lb_co_set *s;

	v = ~0ull - 4;
	memcpy(b.p + 32, &v, 8); /* first entry's offset (host) */
	memcpy(b.p + 40, &v, 8);
	s = lb_co_read(b.p, b.n, 0);
	ck_assert_uint_eq(lb_co_count(s), 3); /* host entry: skipped */
	lb_co_free(s);
	memcpy(b.p + 32 + 24 + 25, &v, 8); /* second entry's offset */
	s = lb_co_read(b.p, b.n, 0);
	ck_assert_uint_eq(lb_co_count(s), 2);
	ck_assert_ptr_nonnull(strstr(lb_co_why(s), "outside"));
	lb_co_free(s);
	v = 1u << 20;
	memcpy(b.p + 24, &v, 8);
	s = lb_co_read(b.p, b.n, 0);
	ck_assert_uint_eq(lb_co_count(s), 0);
	ck_assert_ptr_nonnull(strstr(lb_co_why(s), "cap"));
	lb_co_free(s);
	free(b.p);
}
END_TEST

/* ---- compressed bundles, made here in clang's layout ---- */

static struct blob ccob(struct blob in, int version, int method)
{
	size_t cap = method ? ZSTD_compressBound(in.n) : compressBound(in.n);
	size_t hdr = version == 1 ? 20 : version == 2 ? 24 : 32, csize;
	struct blob o = { malloc(hdr + cap), 0 };
	uint16_t v16 = (uint16_t)version, m16 = (uint16_t)method;
	uint64_t hash = 0x0123456789abcdefull; /* unchecked, as by clang */

	ck_assert_ptr_nonnull(o.p);
	if (method) {
		csize = ZSTD_compress(o.p + hdr, cap, in.p, in.n, 3);
		ck_assert(!ZSTD_isError(csize));
	} else {
		uLongf l = cap;

		ck_assert_int_eq(compress2(o.p + hdr, &l, in.p, in.n, 6),
				 Z_OK);
		csize = l;
	}
	o.n = hdr + csize;
	memcpy(o.p, "CCOB", 4);
	memcpy(o.p + 4, &v16, 2);
	memcpy(o.p + 6, &m16, 2);
	if (version == 1) {
		uint32_t u = (uint32_t)in.n;

		memcpy(o.p + 8, &u, 4);
		memcpy(o.p + 12, &hash, 8);
	} else if (version == 2) {
		uint32_t t = (uint32_t)o.n, u = (uint32_t)in.n;

		memcpy(o.p + 8, &t, 4);
		memcpy(o.p + 12, &u, 4);
		memcpy(o.p + 16, &hash, 8);
	} else {
		uint64_t t = o.n, u = in.n;

		memcpy(o.p + 8, &t, 8);
		memcpy(o.p + 16, &u, 8);
		memcpy(o.p + 24, &hash, 8);
	}
	return o;
}

START_TEST(tc_ccob)
{
	struct blob b = load("kern5.fatbin");
	int version = 1 + _i / 2, method = _i % 2;
	struct blob c = ccob(b, version, method);
	struct lb_co_set *s = lb_co_read(c.p, c.n, 0);
	void *base;
	size_t len;
	unsigned char *p;

	check_scale(s, 3);
	ck_assert_str_eq(lb_co_why(s), "");
	lb_co_free(s);
	/* size unknown, as at registration; trailing bytes after it */
	p = co_place(c.p, c.n, &base, &len);
	s = lb_co_read(p, 0, 0);
	check_scale(s, 3);
	lb_co_free(s);
	co_unplace(base, len);
	if (version > 1) {
		c.p = realloc(c.p, c.n + 100);
		memset(c.p + c.n, 0x5a, 100);
		s = lb_co_read(c.p, c.n + 100, 0);
		check_scale(s, 3);
		lb_co_free(s);
		/* cut short: the total size is not there */
		s = lb_co_read(c.p, c.n - 1, 0);
		ck_assert_uint_eq(lb_co_count(s), 0);
		ck_assert_ptr_nonnull(strstr(lb_co_why(s), "not there"));
		lb_co_free(s);
	}
	free(c.p);
	free(b.p);
}
END_TEST

/* Header fields that lie. */
START_TEST(tc_ccob_bad)
{
	struct blob b = load("kern5.fatbin");
	struct blob c = ccob(b, 3, 1);
	unsigned char *save = malloc(c.n);
	uint64_t v;
	uint16_t h;
	struct lb_co_set *s;

	memcpy(save, c.p, c.n);
	v = 1ull << 40; /* uncompressed size past the cap */
	memcpy(c.p + 16, &v, 8);
	s = lb_co_read(c.p, c.n, 0);
	ck_assert(lb_co_count(s) == 0 && strstr(lb_co_why(s), "uncompressed"));
	lb_co_free(s);
	v = b.n - 1; /* one byte short of what it decompresses to */
	memcpy(c.p + 16, &v, 8);
	s = lb_co_read(c.p, c.n, 0);
	ck_assert(lb_co_count(s) == 0 && strstr(lb_co_why(s), "decompress"));
	lb_co_free(s);
	memcpy(c.p, save, c.n);
	h = 7; /* method */
	memcpy(c.p + 6, &h, 2);
	s = lb_co_read(c.p, c.n, 0);
	ck_assert(lb_co_count(s) == 0 && strstr(lb_co_why(s), "method 7"));
	lb_co_free(s);
	memcpy(c.p, save, c.n);
	h = 4; /* version */
	memcpy(c.p + 4, &h, 2);
	s = lb_co_read(c.p, c.n, 0);
	ck_assert(lb_co_count(s) == 0 && strstr(lb_co_why(s), "version 4"));
	lb_co_free(s);
	memcpy(c.p, save, c.n);
	c.p[40] ^= 0xff; /* compressed bytes */
	s = lb_co_read(c.p, c.n, 0);
	ck_assert_ptr_nonnull(s);
	ck_assert_uint_le(lb_co_count(s), 3);
	lb_co_free(s);
	free(save);
	free(c.p);
	/* a compressed bundle of something that is not a bundle */
	c = ccob((struct blob){ (unsigned char *)"CCOBCCOBCCOBCCOBCCOBCCOB"
				"CCOBCCOB", 32 }, 2, 0);
	s = lb_co_read(c.p, c.n, 0);
	ck_assert(lb_co_count(s) == 0 && strstr(lb_co_why(s), "no bundle"));
	lb_co_free(s);
	free(c.p);
	free(b.p);
}
END_TEST

Suite *co_suite_files(void)
{
	Suite *s = suite_create("codeobj");
	TCase *tc = tcase_create("files");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, tc_bundle);
	tcase_add_test(tc, tc_v4);
	tcase_add_test(tc, tc_probe);
	tcase_add_test(tc, tc_elf);
	tcase_add_test(tc, tc_module);
	tcase_add_test(tc, tc_not_amdgpu);
	tcase_add_test(tc, tc_no_note);
	tcase_add_test(tc, tc_bad_bundle);
	tcase_add_test(tc, tc_fatbin);
	tcase_add_loop_test(tc, tc_ccob, 0, 6);
	tcase_add_test(tc, tc_ccob_bad);
	suite_add_tcase(s, tc);
	return s;
}
