/*
 * cuda_fatbin.c - the parameter layout of each kernel in an nvcc fat
 * binary or cubin, so that a launch through the CUDA face can copy its
 * arguments and return before the kernel runs, as hipemu's HIP launches do
 * with a code object's metadata.
 *
 * NVIDIA documents none of these formats; what is read, and where it was
 * learnt:
 *
 * - The wrapper nvcc's generated code passes to __cudaRegisterFatBinary
 *   is __fatBinC_Wrapper_t { int magic 0x466243B1; int version 1; const
 *   unsigned long long *data; void *filename_or_fatbins; }
 *   (include/fatbinary_section.h, CUDA 13.0).
 * - The fat binary at data: a 16-byte header { u32 magic 0xBA55ED50; u16
 *   version 1; u16 header_size; u64 fat_size }, then entries, each with a
 *   header { u16 kind (1 PTX, 2 ELF); u16 version; u32 header_size; u64
 *   padded payload size; ... } and its payload (VivekPanyam/cudaparsers
 *   src/fatbin.rs, commit 1350d0cc; and nvcc 13.0's own output, read
 *   with xxd: v.fatbin of `nvcc -keep`).  A compressed payload does not
 *   start with an ELF header and is skipped (cudaparsers decompresses LZ4;
 *   hipemu does not).
 * - In an ELF cubin, section ".nv.info.<kernel>" holds the kernel's
 *   attributes, each { u8 format; u8 attribute; } followed, for format
 *   EIFMT_SVAL (4), by { u16 size; size bytes }, else by 2 bytes.
 *   EIATTR_KPARAM_INFO (0x17, 12 bytes) is one parameter: { u32 index;
 *   u16 ordinal; u16 offset; u32 flags } with the size in bytes in bits
 *   18..31 of flags; EIATTR_CBANK_PARAM_SIZE (0x19, EIFMT_HVAL) the bytes
 *   of all parameters (cudaparsers src/cubin.rs, same commit; checked on
 *   ptxas 13.0's cubins for sm_75, sm_90 and sm_100: pointer, char, short,
 *   double, struct and template parameters, and none).
 *
 * A layout whose parameters do not tile exactly the bytes the kernel says
 * it has, or that does not number them 0..n-1, is "unknown" (n = -1):
 * hipemu then falls back to the twin's HIPEMU_ARGS table or, without one,
 * to running the launch before it returns.
 */
#include "cuda_face.h"

#include <stdlib.h>
#include <string.h>

#define CF_FATBINC_MAGIC 0x466243B1u
#define CF_FATBIN_MAGIC 0xBA55ED50u
#define CF_FATBIN_ELF 2
#define CF_INFO_SVAL 4
#define CF_ATTR_KPARAM_INFO 0x17
#define CF_ATTR_CBANK_PARAM_SIZE 0x19
#define CF_MAX_PARAMS 1024
/* Nothing nvcc makes comes near; a bound for a header that lies. */
#define CF_MAX_IMAGE (1ull << 32)

static uint16_t rd16(const unsigned char *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t rd32(const unsigned char *p)
{
	return (uint32_t)rd16(p) | (uint32_t)rd16(p + 2) << 16;
}

static uint64_t rd64(const unsigned char *p)
{
	return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32;
}

/* Appends a layout for name (len bytes) unless it is already there. */
static struct cf_layout *layout_add(struct cf_layouts *l, const char *name,
				    size_t len)
{
	struct cf_layout *v, *e;

	for (size_t i = 0; i < l->n; i++)
		if (strlen(l->v[i].name) == len &&
		    !memcmp(l->v[i].name, name, len))
			return NULL;	/* another arch's copy: same layout */
	v = realloc(l->v, (l->n + 1) * sizeof(*v));
	if (!v)
		return NULL;
	l->v = v;
	e = &v[l->n];
	memset(e, 0, sizeof(*e));
	e->n = -1;
	e->name = strndup(name, len);
	if (!e->name)
		return NULL;
	l->n++;
	return e;
}

/*
 * The parameters listed in one .nv.info.<kernel> section (b, n bytes):
 * sets e's layout, or leaves it unknown.
 */
static void parse_info(struct cf_layout *e, const unsigned char *b, size_t n)
{
	unsigned sizes[CF_MAX_PARAMS], offs[CF_MAX_PARAMS];
	bool seen[CF_MAX_PARAMS];
	unsigned np = 0, maxord = 0;
	uint64_t extent = 0, total = UINT64_MAX;
	size_t i = 0;

	memset(seen, 0, sizeof(seen));
	while (i + 4 <= n) {
		unsigned fmt = b[i], attr = b[i + 1];
		const unsigned char *val = b + i + 4;
		size_t vlen = 0;

		if (fmt == CF_INFO_SVAL) {
			vlen = rd16(b + i + 2);
			if (i + 4 + vlen > n)
				return;
		}
		if (attr == CF_ATTR_CBANK_PARAM_SIZE && fmt != CF_INFO_SVAL)
			total = rd16(b + i + 2);
		if (attr == CF_ATTR_KPARAM_INFO && fmt == CF_INFO_SVAL) {
			unsigned ord, off, size;

			if (vlen != 12)
				return;
			ord = rd16(val + 4);
			off = rd16(val + 6);
			size = (rd32(val + 8) >> 18) & 0x3fff;
			if (ord >= CF_MAX_PARAMS || seen[ord] || !size)
				return;
			seen[ord] = true;
			sizes[ord] = size;
			offs[ord] = off;
			np++;
			if (ord > maxord)
				maxord = ord;
			if (off + size > extent)
				extent = off + size;
		}
		i += 4 + vlen;
	}
	if (np && maxord + 1 != np)
		return;		/* a hole in the numbering */
	if (total != UINT64_MAX ? total != extent : np != 0)
		return;		/* not the whole parameter block */
	e->sizes = calloc(2 * ((size_t)np + 1), sizeof(unsigned));
	if (!e->sizes)
		return;
	e->offs = e->sizes + np + 1;
	memcpy(e->sizes, sizes, np * sizeof(unsigned));
	memcpy(e->offs, offs, np * sizeof(unsigned));
	e->n = (int)np;
}

/*
 * Adds the layouts of one ELF cubin at p; size is what can be read there
 * (0: unknown, then the section headers bound it).  0, or -1 if p is not
 * a 64-bit little-endian ELF file.
 */
static int parse_elf(const unsigned char *p, uint64_t size,
		     struct cf_layouts *out)
{
	uint64_t shoff, shend, strsec_off, strsec_size;
	unsigned shentsize, shnum, shstrndx;
	const unsigned char *sh;

	if (size && size < 64)
		return -1;
	if (memcmp(p, "\177ELF", 4) || p[4] != 2 || p[5] != 1)
		return -1;
	shoff = rd64(p + 0x28);
	shentsize = rd16(p + 0x3a);
	shnum = rd16(p + 0x3c);
	shstrndx = rd16(p + 0x3e);
	shend = shoff + (uint64_t)shnum * shentsize;
	if (shentsize < 64 || shstrndx >= shnum || shoff > CF_MAX_IMAGE ||
	    shend > CF_MAX_IMAGE || (size && shend > size))
		return -1;
	sh = p + shoff + (uint64_t)shstrndx * shentsize;
	strsec_off = rd64(sh + 0x18);
	strsec_size = rd64(sh + 0x20);
	if (strsec_off > CF_MAX_IMAGE || strsec_size > CF_MAX_IMAGE ||
	    (size && strsec_off + strsec_size > size))
		return -1;
	for (unsigned i = 0; i < shnum; i++) {
		const unsigned char *s = p + shoff + (uint64_t)i * shentsize;
		uint64_t name = rd32(s), off = rd64(s + 0x18);
		uint64_t len = rd64(s + 0x20);
		const char *nm, *end;
		struct cf_layout *e;

		if (name >= strsec_size)
			continue;
		nm = (const char *)p + strsec_off + name;
		end = memchr(nm, 0, strsec_size - name);
		if (!end || strncmp(nm, ".nv.info.", 9) || end == nm + 9)
			continue;
		if (off > CF_MAX_IMAGE || len > CF_MAX_IMAGE ||
		    (size && off + len > size))
			continue;
		e = layout_add(out, nm + 9, (size_t)(end - nm - 9));
		if (e)
			parse_info(e, p + off, (size_t)len);
	}
	return 0;
}

/* Adds the layouts of every uncompressed cubin of fat binary data. */
static int parse_fatbin(const unsigned char *p, uint64_t size,
			struct cf_layouts *out)
{
	uint64_t end, at;

	if (size && size < 16)
		return -1;
	if (rd32(p) != CF_FATBIN_MAGIC || rd16(p + 4) != 1)
		return -1;
	at = rd16(p + 6);
	end = at + rd64(p + 8);
	if (at < 16 || end > CF_MAX_IMAGE || (size && end > size))
		return -1;
	while (at + 16 <= end) {
		const unsigned char *h = p + at;
		uint64_t hsize = rd32(h + 4), psize = rd64(h + 8);

		if (hsize < 16 || psize > end || at + hsize + psize > end)
			break;
		if (rd16(h) == CF_FATBIN_ELF)
			(void)parse_elf(h + hsize, psize, out);
		at += hsize + psize;
	}
	return 0;
}

int cf_layouts_wrapper(const void *wrapper, struct cf_layouts *out)
{
	const unsigned char *w = wrapper;
	const unsigned char *data;

	memset(out, 0, sizeof(*out));
	if (!w || rd32(w) != CF_FATBINC_MAGIC || rd32(w + 4) != 1)
		return -1;
	memcpy(&data, w + 8, sizeof(data));
	if (!data || parse_fatbin(data, 0, out))
		return -1;
	return out->n ? 0 : -1;
}

int cf_layouts_image(const void *image, size_t size, struct cf_layouts *out)
{
	const unsigned char *p = image;

	memset(out, 0, sizeof(*out));
	if (!p || (size && size < 4))
		return -1;
	if (!memcmp(p, "\177ELF", 4))
		(void)parse_elf(p, size, out);
	else if (rd32(p) == CF_FATBINC_MAGIC)
		return cf_layouts_wrapper(p, out);
	else
		(void)parse_fatbin(p, size, out);
	return out->n ? 0 : -1;
}

const struct cf_layout *cf_layout_find(const struct cf_layouts *l,
				       const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].name, name))
			return &l->v[i];
	return NULL;
}

void cf_layouts_free(struct cf_layouts *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].name);
		free(l->v[i].sizes);
	}
	free(l->v);
	memset(l, 0, sizeof(*l));
}
