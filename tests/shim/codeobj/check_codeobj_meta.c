/*
 * check_codeobj_meta.c - the metadata layer: code objects made here, a
 * minimal AMDGPU ELF around a note packed with msgpack-c, so each case
 * changes one thing a compiler would not (a missing field, a wrong type,
 * an argument outside the kernarg segment, a count past a cap).
 */
#include <elf.h>
#include <msgpack.h>
#include <stdlib.h>
#include <string.h>
#include "check_codeobj.h"

struct aspec {
	uint32_t off, size;
	const char *kind, *space, *access;
	int is_const;
};

struct kspec {
	const char *name;
	uint32_t kernarg;
	int no_kernarg, sgpr_str, args_not_array, nargs;
	struct aspec args[6];
};

static void pstr(msgpack_packer *pk, const char *s)
{
	msgpack_pack_str(pk, strlen(s));
	msgpack_pack_str_body(pk, s, strlen(s));
}

static void pkv_u(msgpack_packer *pk, const char *k, uint32_t v)
{
	pstr(pk, k);
	msgpack_pack_uint32(pk, v);
}

static void pkv_s(msgpack_packer *pk, const char *k, const char *v)
{
	pstr(pk, k);
	pstr(pk, v);
}

static void pack_kernel(msgpack_packer *pk, const struct kspec *k)
{
	int i, n = 7 + !!k->name + !k->no_kernarg;

	msgpack_pack_map(pk, n);
	if (k->name) {
		pkv_s(pk, ".name", k->name);
	}
	pkv_s(pk, ".symbol", "sym.kd");
	if (!k->no_kernarg)
		pkv_u(pk, ".kernarg_segment_size", k->kernarg);
	pkv_u(pk, ".group_segment_fixed_size", 512);
	pkv_u(pk, ".private_segment_fixed_size", 64);
	if (k->sgpr_str)
		pkv_s(pk, ".sgpr_count", "ten");
	else
		pkv_u(pk, ".sgpr_count", 10);
	pkv_u(pk, ".vgpr_count", 20);
	pkv_u(pk, ".wavefront_size", 64);
	pstr(pk, ".args");
	if (k->args_not_array) {
		msgpack_pack_uint32(pk, 3);
		return;
	}
	msgpack_pack_array(pk, k->nargs);
	for (i = 0; i < k->nargs; i++) {
		const struct aspec *a = &k->args[i];

		msgpack_pack_map(pk, 3 + !!a->space + !!a->access +
					     !!a->is_const);
		pkv_u(pk, ".offset", a->off);
		pkv_u(pk, ".size", a->size);
		pkv_s(pk, ".value_kind", a->kind);
		if (a->space)
			pkv_s(pk, ".address_space", a->space);
		if (a->access)
			pkv_s(pk, ".actual_access", a->access);
		if (a->is_const) {
			pstr(pk, ".is_const");
			msgpack_pack_true(pk);
		}
	}
}

static void pack_meta(msgpack_sbuffer *sb, const struct kspec *k, int n)
{
	msgpack_packer pk;
	int i;

	msgpack_sbuffer_init(sb);
	msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
	msgpack_pack_map(&pk, 3);
	pkv_s(&pk, "amdhsa.target", "amdgcn-amd-amdhsa--gfx1030");
	pstr(&pk, "amdhsa.version");
	msgpack_pack_array(&pk, 2);
	msgpack_pack_uint32(&pk, 1);
	msgpack_pack_uint32(&pk, 2);
	pstr(&pk, "amdhsa.kernels");
	msgpack_pack_array(&pk, n);
	for (i = 0; i < n; i++)
		pack_kernel(&pk, &k[i]);
}

/* A code object v5 ELF: header, one note, a null and a note section. */
static unsigned char *make_elf(const void *desc, size_t n, size_t *len)
{
	size_t note = 12 + 8 + ((n + 3) & ~(size_t)3);
	size_t shoff = 64 + note;
	unsigned char *p = calloc(1, shoff + 2 * sizeof(Elf64_Shdr));
	Elf64_Ehdr eh = { 0 };
	Elf64_Nhdr nh = { 7, (Elf64_Word)n, 32 };
	Elf64_Shdr sh = { 0 };

	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_OSABI] = 64;
	eh.e_ident[EI_ABIVERSION] = 3;
	eh.e_machine = EM_AMDGPU;
	eh.e_shoff = shoff;
	eh.e_shentsize = sizeof(Elf64_Shdr);
	eh.e_shnum = 2;
	memcpy(p, &eh, sizeof(eh));
	memcpy(p + 64, &nh, 12);
	memcpy(p + 76, "AMDGPU", 7);
	memcpy(p + 84, desc, n);
	sh.sh_type = SHT_NOTE;
	sh.sh_offset = 64;
	sh.sh_size = note;
	memcpy(p + shoff + sizeof(sh), &sh, sizeof(sh));
	*len = shoff + 2 * sizeof(Elf64_Shdr);
	return p;
}

static struct lb_co_set *read_specs(const struct kspec *k, int n)
{
	msgpack_sbuffer sb;
	unsigned char *elf;
	size_t len;
	struct lb_co_set *s;

	pack_meta(&sb, k, n);
	elf = make_elf(sb.data, sb.size, &len);
	s = lb_co_read(elf, len, 0);
	msgpack_sbuffer_destroy(&sb);
	free(elf);
	ck_assert_ptr_nonnull(s);
	return s;
}

#define ARGS2                                                          \
	.nargs = 2, .args = { { 0, 8, "global_buffer", "global", NULL, 0 }, \
			      { 8, 4, "by_value", NULL, NULL, 0 } }

START_TEST(tc_valid)
{
	struct kspec k = { .name = "k", .kernarg = 16, ARGS2 };
	struct lb_co_set *s = read_specs(&k, 1);
	const struct lb_co_kernel *f = lb_co_find(s, "k");

	ck_assert_str_eq(lb_co_why(s), "");
	ck_assert(f && f->facts && f->nargs == 2);
	ck_assert(f == lb_co_find(s, "sym.kd"));
	ck_assert_uint_eq(f->lds, 512);
	ck_assert_uint_eq(f->scratch, 64);
	ck_assert_uint_eq(f->sgprs, 10);
	ck_assert_uint_eq(f->vgprs, 20);
	ck_assert_uint_eq(f->wavefront, 64);
	ck_assert_uint_eq(f->max_wg, 0); /* absent: 0 */
	ck_assert_int_eq(lb_co_object(s, 0)->version, 5);
	ck_assert_str_eq(f->args[0].value_kind, "global_buffer");
	lb_co_free(s);
}
END_TEST

/* What makes a kernel keep only its name, the others unharmed. */
START_TEST(tc_name_only)
{
	struct kspec k[] = {
		{ .name = "a", .kernarg = 16, .no_kernarg = 1, ARGS2 },
		{ .name = "b", .kernarg = 16, .sgpr_str = 1, ARGS2 },
		{ .name = "c", .kernarg = 10, ARGS2 }, /* arg past kernarg */
		{ .name = "d", .kernarg = 16, .args_not_array = 1 },
		{ .name = "e", .kernarg = 16, ARGS2 },
		{ .name = NULL, .kernarg = 16, ARGS2 }, /* skipped */
	};
	struct lb_co_set *s = read_specs(k, 6);
	const char *n;

	ck_assert_uint_eq(lb_co_object(s, 0)->nkernels, 5);
	for (n = "abcd"; *n; n++) {
		char name[2] = { *n, 0 };
		const struct lb_co_kernel *f = lb_co_find(s, name);

		ck_assert_msg(f && !f->facts && !f->nargs && !f->kernarg_size,
			      "kernel %s", name);
	}
	ck_assert(lb_co_find(s, "e")->facts);
	ck_assert_ptr_nonnull(strstr(lb_co_why(s), "a: no .kernarg"));
	lb_co_free(s);
}
END_TEST

START_TEST(tc_ptr_kinds)
{
	struct kspec k = {
		.name = "p", .kernarg = 64, .nargs = 6,
		.args = {
			{ 0, 8, "global_buffer", "global", "read_only", 0 },
			{ 8, 8, "global_buffer", "constant", NULL, 0 },
			{ 16, 8, "global_buffer", "generic", NULL, 1 },
			{ 24, 4, "dynamic_shared_pointer", "local", NULL, 0 },
			{ 32, 8, "hidden_hostcall_buffer", "global", NULL, 0 },
			{ 40, 8, "global_buffer", "global", "write_only", 0 },
		} };
	struct lb_co_set *s = read_specs(&k, 1);
	const struct lb_co_kernel *f = lb_co_find(s, "p");
	const struct lb_co_arg *a = f->args;

	ck_assert(f->facts && f->nargs == 6);
	ck_assert(lb_co_arg_is_devptr(&a[0]) && !lb_co_arg_may_write(&a[0]));
	ck_assert(lb_co_arg_is_devptr(&a[1]) && !lb_co_arg_may_write(&a[1]));
	ck_assert(lb_co_arg_is_devptr(&a[2]) && !lb_co_arg_may_write(&a[2]));
	ck_assert(!lb_co_arg_is_devptr(&a[3]));
	ck_assert_int_eq(a[3].kind, LB_CO_DYN_SHARED_PTR);
	ck_assert(!lb_co_arg_is_devptr(&a[4]));
	ck_assert_int_eq(a[4].kind, LB_CO_HIDDEN);
	ck_assert_str_eq(a[4].value_kind, "hidden_hostcall_buffer");
	ck_assert(lb_co_arg_is_devptr(&a[5]) && lb_co_arg_may_write(&a[5]));
	ck_assert_int_eq(a[5].access, LB_CO_ACCESS_WRITE);
	ck_assert_str_eq(lb_co_kind_name(a[3].kind), "dynamic_shared_pointer");
	ck_assert_str_eq(lb_co_kind_name(99), "other");
	lb_co_free(s);
}
END_TEST

/* Notes whose description is not the metadata. */
START_TEST(tc_bad_msgpack)
{
	static const struct {
		const char *bytes;
		size_t n;
		const char *why;
	} c[] = {
		{ "\xc1\xc1\xc1", 3, "not msgpack" },	  /* never used */
		{ "\x93\x01\x02\x03", 4, "not a map" },	  /* an array */
		{ "\x81\xa1x\x01", 4, "no amdhsa.kernels" },
		{ "\x81\xae" "amdhsa.kernels\x05", 17, "no amdhsa.kernels" },
		{ "\x81\xae" "amdhsa.kernels\xdd\x00\x01\x00\x01", 21,
		  "not msgpack" }, /* 65537 kernels claimed, none there */
		{ "\x81\xae" "amdhsa.kernels", 15, "not msgpack" }, /* cut */
		{ "\x81\xae" "amdhsa.kernels\x91\x80", 18, "no .name" },
	};
	unsigned i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		size_t len;
		unsigned char *elf = make_elf(c[i].bytes, c[i].n, &len);
		struct lb_co_set *s = lb_co_read(elf, len, 0);

		ck_assert_ptr_nonnull(s);
		ck_assert_msg(strstr(lb_co_why(s), c[i].why),
			      "case %u: %s", i, lb_co_why(s));
		if (lb_co_count(s))
			ck_assert_uint_eq(lb_co_object(s, 0)->nkernels, 0);
		lb_co_free(s);
		free(elf);
	}
}
END_TEST

/* Every cut and many flips of a made code object: nothing but a why. */
START_TEST(tc_mangle)
{
	struct kspec k = { .name = "k", .kernarg = 16, ARGS2 };
	msgpack_sbuffer sb;
	unsigned char *elf, *m;
	size_t len, i;
	void *base;
	size_t blen;

	pack_meta(&sb, &k, 1);
	elf = make_elf(sb.data, sb.size, &len);
	msgpack_sbuffer_destroy(&sb);
	for (i = 1; i < len; i++) {
		struct lb_co_set *s;

		m = co_place(elf, i, &base, &blen);
		s = lb_co_read(m, i, 0);
		ck_assert_ptr_nonnull(s);
		ck_assert_uint_eq(lb_co_count(s), 0);
		lb_co_free(s);
		co_unplace(base, blen);
	}
	for (i = 0; i < len * 8; i++) {
		struct lb_co_set *s;

		m = co_place(elf, len, &base, &blen);
		m[i / 8] ^= (unsigned char)(1u << (i % 8));
		s = lb_co_read(m, len, 0);
		ck_assert_ptr_nonnull(s);
		lb_co_free(s);
		co_unplace(base, blen);
	}
	free(elf);
}
END_TEST

Suite *co_suite_meta(void)
{
	Suite *s = suite_create("codeobj-meta");
	TCase *tc = tcase_create("meta");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, tc_valid);
	tcase_add_test(tc, tc_name_only);
	tcase_add_test(tc, tc_ptr_kinds);
	tcase_add_test(tc, tc_bad_msgpack);
	tcase_add_test(tc, tc_mangle);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(co_suite_files());
	int failed;

	srunner_add_suite(sr, co_suite_meta());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
