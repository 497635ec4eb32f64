/*
 * codeobj_meta.c - the NT_AMDGPU_METADATA note: msgpack to kernel facts.
 *
 * The note's description is one msgpack map (LLVM docs/AMDGPUUsage.rst,
 * "Code Object V3 Metadata" and the V4/V5 sections that extend it):
 * "amdhsa.version", "amdhsa.target" and "amdhsa.kernels", an array of one
 * map per kernel with string keys ".name", ".symbol", ".args" (an array
 * of maps with ".offset", ".size", ".value_kind", ...), ".sgpr_count" and
 * so on.  msgpack-c decodes it; this file only walks the decoded objects,
 * checking every type, and keeps what it understands.
 */
#include <string.h>
#include <msgpack/object.h>
#include <msgpack/unpack.h>
#include "codeobj_int.h"

static int lb_key_is(const msgpack_object *o, const char *key)
{
	size_t n = strlen(key);

	return o->type == MSGPACK_OBJECT_STR && o->via.str.size == n &&
	       !memcmp(o->via.str.ptr, key, n);
}

/* The value of key in map m, or NULL. */
static const msgpack_object *lb_get(const msgpack_object *m, const char *key)
{
	uint32_t i;

	if (m->type != MSGPACK_OBJECT_MAP)
		return NULL;
	for (i = 0; i < m->via.map.size; i++)
		if (lb_key_is(&m->via.map.ptr[i].key, key))
			return &m->via.map.ptr[i].val;
	return NULL;
}

/*
 * Reads unsigned key of m into *v.  Returns 1 if present and a
 * non-negative integer below 2^32, 0 if absent, -1 if of another type.
 */
static int lb_get_u32(const msgpack_object *m, const char *key, uint32_t *v)
{
	const msgpack_object *o = lb_get(m, key);

	if (!o)
		return 0;
	if (o->type != MSGPACK_OBJECT_POSITIVE_INTEGER ||
	    o->via.u64 > UINT32_MAX)
		return -1;
	*v = (uint32_t)o->via.u64;
	return 1;
}

static const char *lb_get_str(struct lb_co_set *set, const msgpack_object *m,
			      const char *key)
{
	const msgpack_object *o = lb_get(m, key);

	if (!o || o->type != MSGPACK_OBJECT_STR || !o->via.str.size ||
	    o->via.str.size > 4096)
		return NULL;
	return lb_co_strndup(set, o->via.str.ptr, o->via.str.size);
}

static int lb_str_is(const msgpack_object *o, const char *s)
{
	return o && lb_key_is(o, s);
}

static const char *const lb_kind_names[LB_CO_KIND_COUNT] = {
	[LB_CO_OTHER] = "other",
	[LB_CO_BY_VALUE] = "by_value",
	[LB_CO_GLOBAL_BUFFER] = "global_buffer",
	[LB_CO_DYN_SHARED_PTR] = "dynamic_shared_pointer",
	[LB_CO_IMAGE] = "image",
	[LB_CO_SAMPLER] = "sampler",
	[LB_CO_PIPE] = "pipe",
	[LB_CO_QUEUE] = "queue",
	[LB_CO_HIDDEN] = "hidden",
};

const char *lb_co_kind_name(int kind)
{
	return kind >= 0 && kind < LB_CO_KIND_COUNT ? lb_kind_names[kind]
						    : "other";
}

static int lb_kind_of(const msgpack_object *o)
{
	int k;

	if (!o || o->type != MSGPACK_OBJECT_STR)
		return LB_CO_OTHER;
	if (o->via.str.size > 7 && !memcmp(o->via.str.ptr, "hidden_", 7))
		return LB_CO_HIDDEN;
	for (k = 1; k < LB_CO_HIDDEN; k++)
		if (lb_key_is(o, lb_kind_names[k]))
			return k;
	return LB_CO_OTHER;
}

static int lb_space_of(const msgpack_object *o)
{
	static const char *const n[] = { "", "global", "constant", "generic",
					 "local", "private", "region" };
	unsigned i;

	if (!o)
		return LB_CO_SPACE_NONE;
	for (i = 1; i < sizeof(n) / sizeof(n[0]); i++)
		if (lb_str_is(o, n[i]))
			return (int)i;
	return LB_CO_SPACE_OTHER;
}

static int lb_access_of(const msgpack_object *o)
{
	if (lb_str_is(o, "read_only"))
		return LB_CO_ACCESS_READ;
	if (lb_str_is(o, "write_only"))
		return LB_CO_ACCESS_WRITE;
	if (lb_str_is(o, "read_write"))
		return LB_CO_ACCESS_RW;
	return LB_CO_ACCESS_UNKNOWN;
}

/* One element of .args; returns 0 if it is not a usable argument. */
static int lb_arg(struct lb_co_set *set, const msgpack_object *m,
		  uint32_t kernarg_size, struct lb_co_arg *a)
{
	const msgpack_object *o, *vk = lb_get(m, ".value_kind");

	if (m->type != MSGPACK_OBJECT_MAP)
		return 0;
	if (lb_get_u32(m, ".offset", &a->offset) != 1 ||
	    lb_get_u32(m, ".size", &a->size) != 1)
		return 0;
	/* An argument outside the kernarg segment is not one we can show. */
	if ((uint64_t)a->offset + a->size > kernarg_size)
		return 0;
	a->kind = (uint8_t)lb_kind_of(vk);
	a->value_kind = vk && vk->type == MSGPACK_OBJECT_STR &&
				vk->via.str.size <= 64
			? lb_co_strndup(set, vk->via.str.ptr, vk->via.str.size)
			: lb_kind_names[a->kind];
	a->space = (uint8_t)lb_space_of(lb_get(m, ".address_space"));
	o = lb_get(m, ".actual_access");
	a->access = (uint8_t)lb_access_of(o ? o : lb_get(m, ".access"));
	o = lb_get(m, ".is_const");
	if (o && o->type == MSGPACK_OBJECT_BOOLEAN && o->via.boolean)
		a->flags |= LB_CO_ARG_CONST;
	return a->value_kind != NULL;
}

/*
 * The facts of kernel map m besides its name.  Returns 1 if all the
 * required ones were there and consistent; 0 leaves the kernel with its
 * name only (why noted).
 */
static int lb_facts(struct lb_co_set *set, const msgpack_object *m,
		    struct lb_co_kernel *k)
{
	const msgpack_object *args = lb_get(m, ".args");
	uint32_t i, n = 0;

	if (lb_get_u32(m, ".kernarg_segment_size", &k->kernarg_size) != 1) {
		lb_co_fail(set, "%s: no .kernarg_segment_size", k->name);
		return 0;
	}
	if (lb_get_u32(m, ".kernarg_segment_align", &k->kernarg_align) < 0 ||
	    lb_get_u32(m, ".group_segment_fixed_size", &k->lds) < 0 ||
	    lb_get_u32(m, ".private_segment_fixed_size", &k->scratch) < 0 ||
	    lb_get_u32(m, ".sgpr_count", &k->sgprs) < 0 ||
	    lb_get_u32(m, ".vgpr_count", &k->vgprs) < 0 ||
	    lb_get_u32(m, ".wavefront_size", &k->wavefront) < 0 ||
	    lb_get_u32(m, ".max_flat_workgroup_size", &k->max_wg) < 0) {
		lb_co_fail(set, "%s: a count that is not a number", k->name);
		return 0;
	}
	if (args && args->type != MSGPACK_OBJECT_ARRAY) {
		lb_co_fail(set, "%s: .args is not an array", k->name);
		return 0;
	}
	if (args && args->via.array.size > LB_CO_MAX_ARGS) {
		lb_co_fail(set, "%s: %u arguments (cap %u)", k->name,
			   args->via.array.size, LB_CO_MAX_ARGS);
		return 0;
	}
	if (args && args->via.array.size) {
		k->args = lb_co_alloc(set, args->via.array.size *
						   sizeof(*k->args));
		if (!k->args)
			return 0;
		for (i = 0; i < args->via.array.size; i++) {
			if (!lb_arg(set, &args->via.array.ptr[i],
				    k->kernarg_size, &k->args[n])) {
				lb_co_fail(set, "%s: argument %u unreadable",
					   k->name, i);
				return 0;
			}
			n++;
		}
	}
	k->nargs = n;
	return 1;
}

static int lb_kernels(struct lb_co_set *set, const msgpack_object *root,
		      struct lb_co_object *obj)
{
	const msgpack_object *ks = lb_get(root, "amdhsa.kernels");
	uint32_t i, n = 0;

	if (!ks || ks->type != MSGPACK_OBJECT_ARRAY) {
		lb_co_fail(set, "%s: no amdhsa.kernels array", obj->target);
		return 0;
	}
	if (ks->via.array.size > LB_CO_MAX_KERNELS) {
		lb_co_fail(set, "%s: %u kernels (cap %u)", obj->target,
			   ks->via.array.size, LB_CO_MAX_KERNELS);
		return 0;
	}
	if (!ks->via.array.size)
		return 1;
	obj->kernels = lb_co_alloc(set, ks->via.array.size *
						sizeof(*obj->kernels));
	if (!obj->kernels)
		return 0;
	for (i = 0; i < ks->via.array.size; i++) {
		const msgpack_object *m = &ks->via.array.ptr[i];
		struct lb_co_kernel *k = &obj->kernels[n];

		k->name = lb_get_str(set, m, ".name");
		if (!k->name) {
			lb_co_fail(set, "%s: kernel %u has no .name",
				   obj->target, i);
			continue;
		}
		k->symbol = lb_get_str(set, m, ".symbol");
		if (!lb_facts(set, m, k)) {
			/* name only: clear what a partial read left */
			memset(&k->kernarg_size, 0,
			       sizeof(*k) - offsetof(struct lb_co_kernel,
						     kernarg_size));
		} else {
			k->facts = 1;
		}
		n++;
	}
	obj->nkernels = n;
	return 1;
}

int lb_co_parse_meta(struct lb_co_set *set, const void *desc, size_t n,
		     int version, const char *target_hint)
{
	const struct lb_co_libs *libs = lb_co_libs();
	struct lb_co_object obj = { .version = version };
	msgpack_unpacked up;
	size_t off = 0;
	int ret = 0, rc;

	if (!libs->unpack_next) {
		lb_co_fail(set, "msgpack-c (libmsgpackc.so.2) not available");
		return 0;
	}
	memset(&up, 0, sizeof(up));
	rc = libs->unpack_next((struct msgpack_unpacked *)&up, desc, n, &off);
	if (rc != MSGPACK_UNPACK_SUCCESS) {
		lb_co_fail(set, "%s: metadata is not msgpack (%d)",
			   target_hint, rc);
		goto out;
	}
	if (up.data.type != MSGPACK_OBJECT_MAP) {
		lb_co_fail(set, "%s: metadata is not a map", target_hint);
		goto out;
	}
	obj.target = lb_get_str(set, &up.data, "amdhsa.target");
	if (!obj.target)
		obj.target = lb_co_strndup(set, target_hint,
					   strlen(target_hint));
	if (!obj.target || !lb_kernels(set, &up.data, &obj))
		goto out;
	if (set->nobjects == set->cap) {
		uint32_t cap = set->cap ? set->cap * 2 : 4;
		struct lb_co_object *o = lb_co_alloc(set, cap * sizeof(*o));

		if (!o)
			goto out;
		if (set->nobjects)
			memcpy(o, set->objects, set->nobjects * sizeof(*o));
		set->objects = o;
		set->cap = cap;
	}
	set->objects[set->nobjects++] = obj;
	ret = 1;
out:
	if (up.zone)
		libs->zone_free((struct msgpack_zone *)up.zone);
	return ret;
}
