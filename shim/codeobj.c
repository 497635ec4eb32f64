/*
 * codeobj.c - reading code objects: offload bundles, compressed bundles,
 * AMDGPU ELF files and their notes (the metadata itself: codeobj_meta.c).
 *
 * Layouts, all little-endian:
 *
 * - Offload bundle (clang lib/Driver/OffloadBundler.cpp, BinaryFileHandler,
 *   llvmorg-19 and later; unchanged since the format appeared): the magic
 *   "__CLANG_OFFLOAD_BUNDLE__" (24 bytes), a u64 entry count, then per
 *   entry u64 offset, u64 size, u64 id length and the id ("host-x86_64-
 *   unknown-linux", "hipv4-amdgcn-amd-amdhsa--gfx90a"), then the entries'
 *   bytes at their offsets from the start of the bundle.
 *
 * - Compressed bundle (same file, CompressedOffloadBundle and its
 *   RawCompressedBundleHeader): "CCOB", u16 version, u16 method (the
 *   order of llvm::compression::Format: 0 zlib, 1 zstd), then
 *     v1: u32 uncompressed size, u64 hash                 (20 bytes)
 *     v2: u32 total size, u32 uncompressed size, u64 hash (24 bytes)
 *     v3: u64 total size, u64 uncompressed size, u64 hash (32 bytes)
 *   and the compressed bytes of an uncompressed bundle up to the total
 *   size (v1: to the end of the input).  The hash is a truncated MD5 that
 *   clang itself checks only when verbose; so does not this reader.
 *
 * - Code object: an ELF64 file, e_machine EM_AMDGPU; e_ident[EI_OSABI]
 *   ELFOSABI_AMDGPU_HSA (64) and e_ident[EI_ABIVERSION] 1, 2, 3, 4 for code
 *   object v3, v4, v5, v6; the metadata is the note of name "AMDGPU" and
 *   type NT_AMDGPU_METADATA (32), notes 4-byte aligned (LLVM
 *   docs/AMDGPUUsage.rst, "ELF Header" and "Note Records";
 *   include/llvm/BinaryFormat/ELF.h).
 *
 * ROCm's runtime finds a fat binary's size from the same headers (clr
 * hipamd/src/hip_code_object.cpp, CodeObject::getFatbinSize, rocm-6.2.0);
 * when the caller does not know the size, so does this reader, and it
 * checks with mincore(2) that every page it is about to read is mapped.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "codeobj_int.h"

#define LB_BUNDLE_MAGIC "__CLANG_OFFLOAD_BUNDLE__"
#define LB_BUNDLE_MAGIC_LEN 24
#define LB_CCOB_MAGIC "CCOB"
#define LB_NT_AMDGPU_METADATA 32
#define LB_ELFOSABI_AMDGPU_HSA 64

/* ---- the set ---- */

void *lb_co_alloc(struct lb_co_set *set, size_t n)
{
	struct lb_co_block *b;

	if (n > LB_CO_MAX_BYTES) {
		set->oom = 1;
		return NULL;
	}
	b = calloc(1, sizeof(*b) + n);
	if (!b) {
		set->oom = 1;
		return NULL;
	}
	b->next = set->blocks;
	set->blocks = b;
	return b->align;
}

const char *lb_co_strndup(struct lb_co_set *set, const char *s, size_t n)
{
	char *d = lb_co_alloc(set, n + 1);

	if (d)
		memcpy(d, s, n);
	return d;
}

void lb_co_fail(struct lb_co_set *set, const char *fmt, ...)
{
	va_list ap;

	if (set->why[0])
		return;
	va_start(ap, fmt);
	vsnprintf(set->why, sizeof(set->why), fmt, ap);
	va_end(ap);
}

void lb_co_free(struct lb_co_set *set)
{
	struct lb_co_block *b, *next;

	if (!set)
		return;
	for (b = set->blocks; b; b = next) {
		next = b->next;
		free(b);
	}
	free(set);
}

const char *lb_co_why(const struct lb_co_set *set)
{
	return set ? set->why : "";
}

uint32_t lb_co_count(const struct lb_co_set *set)
{
	return set ? set->nobjects : 0;
}

const struct lb_co_object *lb_co_object(const struct lb_co_set *set,
					uint32_t i)
{
	return set && i < set->nobjects ? &set->objects[i] : NULL;
}

static uint64_t lb_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a */

	while (*s)
		h = (h ^ (unsigned char)*s++) * 0x100000001b3ull;
	return h;
}

static int lb_is(const struct lb_co_kernel *k, const char *name)
{
	return !strcmp(k->name, name) ||
	       (k->symbol && !strcmp(k->symbol, name));
}

/* The slot of the kernel named (or with the symbol) name, or an empty one. */
static uint64_t lb_slot(const struct lb_co_set *set, const char *name)
{
	uint64_t i = lb_hash(name) & set->mask;

	while (set->index[i] && !lb_is(set->index[i], name))
		i = (i + 1) & set->mask;
	return i;
}

static void lb_put(struct lb_co_set *set, const char *key,
		   const struct lb_co_kernel *k)
{
	uint64_t i;

	if (!key)
		return;
	i = lb_slot(set, key);
	if (!set->index[i]) /* the first object's kernel wins */
		set->index[i] = k;
}

void lb_co_index(struct lb_co_set *set)
{
	uint64_t n = 0, cap = 16;
	uint32_t i, j;

	for (i = 0; i < set->nobjects; i++)
		n += set->objects[i].nkernels;
	while (cap < 4 * n) /* names and symbols, at most half full */
		cap *= 2;
	set->index = lb_co_alloc(set, cap * sizeof(*set->index));
	if (!set->index)
		return;
	set->mask = cap - 1;
	for (i = 0; i < set->nobjects; i++)
		for (j = 0; j < set->objects[i].nkernels; j++) {
			const struct lb_co_kernel *k =
				&set->objects[i].kernels[j];

			lb_put(set, k->name, k);
			lb_put(set, k->symbol, k);
		}
}

const struct lb_co_kernel *lb_co_find(const struct lb_co_set *set,
				      const char *name)
{
	if (!set || !name || !set->index)
		return NULL;
	return set->index[lb_slot(set, name)];
}

int lb_co_arg_is_devptr(const struct lb_co_arg *a)
{
	return a->kind == LB_CO_GLOBAL_BUFFER &&
	       (a->space == LB_CO_SPACE_NONE || a->space == LB_CO_SPACE_GLOBAL ||
		a->space == LB_CO_SPACE_CONSTANT ||
		a->space == LB_CO_SPACE_GENERIC);
}

int lb_co_arg_may_write(const struct lb_co_arg *a)
{
	return !(a->flags & LB_CO_ARG_CONST) &&
	       a->access != LB_CO_ACCESS_READ &&
	       a->space != LB_CO_SPACE_CONSTANT;
}

/* ---- reading memory of unknown extent ---- */

/*
 * Is every page of [p, p + n) mapped?  mincore(2) fails with ENOMEM on an
 * unmapped page, without touching it.
 */
static int lb_mapped(const void *p, size_t n)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	uintptr_t a = (uintptr_t)p & ~(uintptr_t)(pg - 1);
	uintptr_t end = (uintptr_t)p + n;
	unsigned char vec[256];

	if (end < (uintptr_t)p)
		return 0;
	while (a < end) {
		size_t len = end - a;

		if (len > sizeof(vec) * pg)
			len = sizeof(vec) * pg;
		if (mincore((void *)a, len, vec) < 0)
			return 0;
		a += (len + pg - 1) & ~(pg - 1);
	}
	return 1;
}

static uint64_t lb_u64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static uint32_t lb_u32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static uint16_t lb_u16(const unsigned char *p)
{
	uint16_t v;

	memcpy(&v, p, 2);
	return v;
}

/* The readable bytes, and whether that is a known size or a probe. */
struct lb_view {
	const unsigned char *p;
	size_t n;     /* bytes known to be there */
	int probe;    /* 1: size unknown, check pages before reading */
};

/* May bytes [off, off + len) of v be read?  Grows a probing view. */
static int lb_can(struct lb_view *v, uint64_t off, uint64_t len)
{
	uint64_t end = off + len;

	if (end < off || end > LB_CO_MAX_BYTES)
		return 0;
	if (end <= v->n)
		return 1;
	if (!v->probe || !lb_mapped(v->p + v->n, end - v->n))
		return 0;
	v->n = end;
	return 1;
}

/* Grows a probing view to what is mapped, up to the cap. */
static void lb_grow(struct lb_view *v)
{
	size_t step;

	/* page-sized steps (and larger ones first), aligned in memory */
	for (step = 65536; step >= 4096; step /= 16)
		while (v->n < LB_CO_MAX_BYTES &&
		       lb_can(v, v->n,
			      step - (((uintptr_t)v->p + v->n) & (step - 1))))
			;
}

/* ---- ELF ---- */

static int lb_elf_version(const Elf64_Ehdr *eh)
{
	if (eh->e_ident[EI_OSABI] != LB_ELFOSABI_AMDGPU_HSA)
		return 0;
	switch (eh->e_ident[EI_ABIVERSION]) {
	case 1: return 3;
	case 2: return 4;
	case 3: return 5;
	case 4: return 6;
	default: return 0;
	}
}

/* Walks the notes in [off, off + len) of v; returns objects added. */
static int lb_notes(struct lb_co_set *set, struct lb_view *v, uint64_t off,
		    uint64_t len, int version, const char *hint)
{
	uint64_t end = off + len;

	if (end < off || !lb_can(v, off, len))
		return 0;
	while (end - off >= sizeof(Elf64_Nhdr)) {
		Elf64_Nhdr nh;
		uint64_t name, desc, next;

		memcpy(&nh, v->p + off, sizeof(nh));
		name = off + sizeof(nh);
		desc = name + (((uint64_t)nh.n_namesz + 3) & ~3ull);
		next = desc + (((uint64_t)nh.n_descsz + 3) & ~3ull);
		if (desc > end || desc + nh.n_descsz > end)
			break;
		if (nh.n_type == LB_NT_AMDGPU_METADATA && nh.n_namesz == 7 &&
		    !memcmp(v->p + name, "AMDGPU", 7))
			return lb_co_parse_meta(set, v->p + desc, nh.n_descsz,
						version, hint);
		if (next > end)
			break;
		off = next;
	}
	return 0;
}

/*
 * The code object at v (an AMDGPU ELF).  With a probing view, the size
 * of the file is found from its headers first.  Returns objects added.
 */
static int lb_elf(struct lb_co_set *set, struct lb_view *v, const char *hint)
{
	Elf64_Ehdr eh;
	uint64_t i;
	int version;

	if (!lb_can(v, 0, sizeof(eh))) {
		lb_co_fail(set, "%s: truncated ELF header", hint);
		return 0;
	}
	memcpy(&eh, v->p, sizeof(eh));
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_ident[EI_DATA] != ELFDATA2LSB || eh.e_machine != EM_AMDGPU) {
		lb_co_fail(set, "%s: not an AMDGPU ELF64 code object", hint);
		return 0;
	}
	version = lb_elf_version(&eh);
	/* Sections first: a code object's notes are in .note. */
	if (eh.e_shnum && eh.e_shentsize == sizeof(Elf64_Shdr) &&
	    lb_can(v, eh.e_shoff, (uint64_t)eh.e_shnum * sizeof(Elf64_Shdr))) {
		for (i = 0; i < eh.e_shnum; i++) {
			Elf64_Shdr sh;

			memcpy(&sh, v->p + eh.e_shoff + i * sizeof(sh),
			       sizeof(sh));
			if (sh.sh_type == SHT_NOTE &&
			    lb_notes(set, v, sh.sh_offset, sh.sh_size, version,
				     hint))
				return 1;
		}
	} else if (eh.e_phnum && eh.e_phentsize == sizeof(Elf64_Phdr) &&
		   lb_can(v, eh.e_phoff,
			  (uint64_t)eh.e_phnum * sizeof(Elf64_Phdr))) {
		for (i = 0; i < eh.e_phnum; i++) {
			Elf64_Phdr ph;

			memcpy(&ph, v->p + eh.e_phoff + i * sizeof(ph),
			       sizeof(ph));
			if (ph.p_type == PT_NOTE &&
			    lb_notes(set, v, ph.p_offset, ph.p_filesz, version,
				     hint))
				return 1;
		}
	}
	lb_co_fail(set, "%s: no AMDGPU metadata note", hint);
	return 0;
}

/* ---- bundles ---- */

static int lb_bundle(struct lb_co_set *set, struct lb_view *v, unsigned flags)
{
	uint64_t n, i, at = LB_BUNDLE_MAGIC_LEN + 8;
	int added = 0;

	if (!lb_can(v, 0, at)) {
		lb_co_fail(set, "bundle: truncated header");
		return 0;
	}
	n = lb_u64(v->p + LB_BUNDLE_MAGIC_LEN);
	if (n > LB_CO_MAX_ENTRIES) {
		lb_co_fail(set, "bundle: %llu entries (cap %u)",
			   (unsigned long long)n, LB_CO_MAX_ENTRIES);
		return 0;
	}
	for (i = 0; i < n; i++) {
		uint64_t off, size, idlen;
		char id[256];
		struct lb_view e;

		if (!lb_can(v, at, 24)) {
			lb_co_fail(set, "bundle: entry %llu truncated",
				   (unsigned long long)i);
			break;
		}
		off = lb_u64(v->p + at);
		size = lb_u64(v->p + at + 8);
		idlen = lb_u64(v->p + at + 16);
		at += 24;
		if (idlen >= sizeof(id) || !lb_can(v, at, idlen)) {
			lb_co_fail(set, "bundle: entry %llu id unreadable",
				   (unsigned long long)i);
			break;
		}
		memcpy(id, v->p + at, idlen);
		id[idlen] = 0;
		at += idlen;
		/* host code is not a device code object; empty entries too */
		if (!strncmp(id, "host-", 5) || !size)
			continue;
		if (!lb_can(v, off, size)) {
			lb_co_fail(set, "%s: entry outside the bundle", id);
			continue;
		}
		e = (struct lb_view){ .p = v->p + off, .n = size };
		added += lb_elf(set, &e, id);
		if (added && (flags & LB_CO_FIRST))
			break;
	}
	return added;
}

static int lb_ccob(struct lb_co_set *set, struct lb_view *v, unsigned flags)
{
	const struct lb_co_libs *libs = lb_co_libs();
	uint16_t version, method;
	uint64_t hdr, total = 0, usize;
	struct lb_view in;
	unsigned char *out;
	size_t got = 0;
	int added = 0;

	if (!lb_can(v, 0, 8)) {
		lb_co_fail(set, "compressed bundle: truncated header");
		return 0;
	}
	version = lb_u16(v->p + 4);
	method = lb_u16(v->p + 6);
	hdr = version == 1 ? 20 : version == 2 ? 24 : version == 3 ? 32 : 0;
	if (!hdr || !lb_can(v, 0, hdr)) {
		lb_co_fail(set, "compressed bundle: version %u unreadable",
			   version);
		return 0;
	}
	if (version == 1) {
		usize = lb_u32(v->p + 8);
	} else if (version == 2) {
		total = lb_u32(v->p + 8);
		usize = lb_u32(v->p + 12);
	} else {
		total = lb_u64(v->p + 8);
		usize = lb_u64(v->p + 16);
	}
	if (version == 1) {
		/* No total size: the input's, or what is mapped up to the
		 * cap (zstd finds its frame's end; zlib stops at its own). */
		if (v->probe)
			lb_grow(v);
		total = v->n;
	}
	if (total < hdr || !lb_can(v, 0, total)) {
		lb_co_fail(set, "compressed bundle: %llu bytes not there",
			   (unsigned long long)total);
		return 0;
	}
	if (!usize || usize > LB_CO_MAX_BYTES) {
		lb_co_fail(set, "compressed bundle: %llu bytes uncompressed",
			   (unsigned long long)usize);
		return 0;
	}
	if (method > 1 || !(method ? (void *)libs->zstd_decompress
				   : (void *)libs->z_uncompress)) {
		lb_co_fail(set, "compressed bundle: method %u not available",
			   method);
		return 0;
	}
	out = malloc(usize);
	if (!out) {
		set->oom = 1;
		return 0;
	}
	if (method == 1) {
		size_t r, len = total - hdr;

		if (version == 1 && libs->zstd_frame_size) {
			r = libs->zstd_frame_size(v->p + hdr, len);
			if (!libs->zstd_is_error(r))
				len = r;
		}
		r = libs->zstd_decompress(out, usize, v->p + hdr, len);
		if (!libs->zstd_is_error(r))
			got = r;
	} else {
		unsigned long len = usize;

		if (libs->z_uncompress(out, &len, v->p + hdr,
				       total - hdr) == 0)
			got = len;
	}
	if (got != usize) {
		lb_co_fail(set, "compressed bundle: does not decompress to "
				"%llu bytes", (unsigned long long)usize);
	} else if (usize < LB_BUNDLE_MAGIC_LEN ||
		   memcmp(out, LB_BUNDLE_MAGIC, LB_BUNDLE_MAGIC_LEN) != 0) {
		lb_co_fail(set, "compressed bundle: no bundle inside");
	} else {
		in = (struct lb_view){ .p = out, .n = usize };
		added = lb_bundle(set, &in, flags);
	}
	free(out);
	return added;
}

/*
 * Does v start with the len bytes of magic?  Compared byte by byte, each
 * checked first: a short C string handed over as an image (tests do
 * that) differs at its NUL at the latest, and nothing past it is read.
 */
static int lb_magic(struct lb_view *v, const char *magic, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!lb_can(v, i, 1) || v->p[i] != (unsigned char)magic[i])
			return 0;
	return 1;
}

struct lb_co_set *lb_co_read(const void *data, size_t size, unsigned flags)
{
	struct lb_co_set *set = calloc(1, sizeof(*set));
	struct lb_view v = { .p = data, .n = size, .probe = !size };
	int saved = errno;

	if (!set)
		return NULL;
	if (!data) {
		lb_co_fail(set, "no code object");
	} else if (lb_magic(&v, LB_CCOB_MAGIC, 4)) {
		lb_ccob(set, &v, flags);
	} else if (lb_magic(&v, ELFMAG, SELFMAG)) {
		lb_elf(set, &v, "elf");
	} else if (lb_magic(&v, LB_BUNDLE_MAGIC, LB_BUNDLE_MAGIC_LEN)) {
		lb_bundle(set, &v, flags);
	} else {
		lb_co_fail(set, "not a bundle, compressed bundle or ELF");
	}
	if (!set->oom)
		lb_co_index(set);
	if (set->oom) {
		lb_co_free(set);
		set = NULL;
	}
	errno = saved;
	return set;
}

struct lb_co_set *lb_co_read_file(const char *path, unsigned flags)
{
	struct lb_co_set *set = NULL;
	struct stat st;
	void *p;
	int saved = errno, fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		goto out;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    (uint64_t)st.st_size <= LB_CO_MAX_BYTES) {
		p = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (p != MAP_FAILED) {
			set = lb_co_read(p, st.st_size, flags);
			munmap(p, st.st_size);
		}
	}
	close(fd);
out:
	if (!set && (set = calloc(1, sizeof(*set))))
		lb_co_fail(set, "%s: cannot be read", path);
	errno = saved;
	return set;
}

struct lb_co_set *lb_co_read_fatbin(const void *wrapper, unsigned flags)
{
	/* clr hipamd/src/hip_platform.cpp, rocm-6.2.0: struct
	 * __CudaFatBinaryWrapper { unsigned magic, version; void *binary;
	 * void *dummy1; }, magic __hipFatMAGIC2 0x48495046 ("HIPF" read as
	 * a little-endian int), version 1. */
	struct lb_view v = { .p = wrapper, .probe = 1 };
	const void *binary;
	uint32_t version;
	struct lb_co_set *set;
	int saved = errno;

	if (wrapper && lb_magic(&v, "FPIH", 4) && lb_can(&v, 0, 16)) {
		memcpy(&version, v.p + 4, 4);
		memcpy(&binary, v.p + 8, sizeof(binary));
		if (version == 1)
			return lb_co_read(binary, 0, flags);
	}
	set = calloc(1, sizeof(*set));
	if (set)
		lb_co_fail(set, "not a HIP fat binary wrapper");
	errno = saved;
	return set;
}
