/*
 * elfdyn.c - reading a loaded object's dynamic section.
 *
 * Finding the runtime by walking the loaded objects must not disturb the
 * process: dlopen()ing each object to dlsym() it would take references,
 * search its dependencies too and leave dlerror() set for every miss.  The
 * dynamic symbol table and its hash table answer "does this object define
 * hipMalloc" without any of that.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <link.h>
#include <stdint.h>
#include <string.h>
#include "elfdyn.h"

/*
 * glibc relocates the d_ptr entries of a writable dynamic section in place
 * at load time; a read-only one (the vDSO's) keeps link-time addresses,
 * which are below the load base.
 */
const void *lb_elf_ptr(ElfW(Addr) base, ElfW(Addr) p)
{
	return (const void *)(p < base ? p + base : p);
}

const ElfW(Dyn) *lb_elf_dynamic(const struct dl_phdr_info *info)
{
	int i;

	for (i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
			return (const ElfW(Dyn) *)(info->dlpi_addr +
						   info->dlpi_phdr[i].p_vaddr);
	return NULL;
}

static int lb_elf_is_def(const ElfW(Sym) *s)
{
	int type = ELF64_ST_TYPE(s->st_info); /* = ELF32_ST_TYPE */

	return s->st_shndx != SHN_UNDEF &&
	       (type == STT_FUNC || type == STT_GNU_IFUNC);
}

static int lb_gnu_lookup(const uint32_t *gh, const ElfW(Sym) *sym,
			 const char *str, const char *name)
{
	uint32_t nbuckets = gh[0], symoffset = gh[1], bloom_size = gh[2];
	const uint32_t *buckets, *chain;
	uint32_t h = 5381, i;
	const unsigned char *c;

	if (!nbuckets)
		return 0;
	for (c = (const unsigned char *)name; *c; c++)
		h = h * 33 + *c;
	buckets = (const uint32_t *)((const ElfW(Addr) *)(gh + 4) +
				     bloom_size);
	chain = buckets + nbuckets;
	i = buckets[h % nbuckets];
	if (i < symoffset)
		return 0;
	for (;; i++) {
		uint32_t h2 = chain[i - symoffset];

		if ((h | 1) == (h2 | 1) && !strcmp(str + sym[i].st_name, name) &&
		    lb_elf_is_def(&sym[i]))
			return 1;
		if (h2 & 1)
			return 0;
	}
}

static int lb_sysv_lookup(const uint32_t *ht, const ElfW(Sym) *sym,
			  const char *str, const char *name)
{
	uint32_t nbucket = ht[0], h = 0, g, i;
	const uint32_t *bucket = ht + 2, *chain = bucket + nbucket;
	const unsigned char *c;

	if (!nbucket)
		return 0;
	for (c = (const unsigned char *)name; *c; c++) {
		h = (h << 4) + *c;
		g = h & 0xf0000000u;
		if (g)
			h ^= g >> 24;
		h &= ~g;
	}
	for (i = bucket[h % nbucket]; i; i = chain[i])
		if (!strcmp(str + sym[i].st_name, name) &&
		    lb_elf_is_def(&sym[i]))
			return 1;
	return 0;
}

int lb_elf_defines(ElfW(Addr) base, const ElfW(Dyn) *dyn, const char *name)
{
	const uint32_t *gnu = NULL, *sysv = NULL;
	const ElfW(Sym) *sym = NULL;
	const char *str = NULL;

	for (; dyn && dyn->d_tag != DT_NULL; dyn++) {
		switch (dyn->d_tag) {
		case DT_GNU_HASH:
			gnu = lb_elf_ptr(base, dyn->d_un.d_ptr);
			break;
		case DT_HASH:
			sysv = lb_elf_ptr(base, dyn->d_un.d_ptr);
			break;
		case DT_SYMTAB:
			sym = lb_elf_ptr(base, dyn->d_un.d_ptr);
			break;
		case DT_STRTAB:
			str = lb_elf_ptr(base, dyn->d_un.d_ptr);
			break;
		}
	}
	if (!sym || !str)
		return 0;
	if (gnu)
		return lb_gnu_lookup(gnu, sym, str, name);
	if (sysv)
		return lb_sysv_lookup(sysv, sym, str, name);
	return 0;
}

int lb_elf_has_search_path(const ElfW(Dyn) *dyn)
{
	for (; dyn && dyn->d_tag != DT_NULL; dyn++) {
		if (dyn->d_tag == DT_RUNPATH || dyn->d_tag == DT_RPATH)
			return 1;
		if (dyn->d_tag == DT_FLAGS_1 && (dyn->d_un.d_val & DF_1_NODEFLIB))
			return 1;
	}
	return 0;
}
