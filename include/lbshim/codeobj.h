/*
 * codeobj.h - kernel facts read from AMDGPU code objects.
 *
 * One reader, shared by the shim and hipemu.  It takes what a program
 * hands the runtime at registration or module load (__hipRegisterFatBinary,
 * hipModuleLoad, hipModuleLoadData(Ex)): a clang offload bundle, a
 * compressed bundle ("CCOB", zstd or zlib) or a bare ELF code object.  For
 * every AMDGPU code object inside that carries an NT_AMDGPU_METADATA note
 * (code object v3 to v5, msgpack) it yields the kernels' facts below.
 * Host entries and objects without the note are skipped.
 *
 * The reader runs at registration, never on a launch: it allocates, and
 * it opens msgpack-c, libzstd and zlib with dlopen at first use, so that a
 * process that never registers device code never loads them.
 *
 * Malformed, truncated or hostile input never makes it crash or hang:
 * every size is checked against the input, container and decompressed
 * sizes are capped, and what cannot be read is left out with a reason.
 */
#ifndef LBSHIM_CODEOBJ_H
#define LBSHIM_CODEOBJ_H

#include <stddef.h>
#include <stdint.h>

/* What a kernel argument is (.value_kind of the metadata). */
enum lb_co_kind {
	LB_CO_OTHER = 0,	 /* a kind this reader does not know */
	LB_CO_BY_VALUE,		 /* by_value: bytes copied into kernarg */
	LB_CO_GLOBAL_BUFFER,	 /* global_buffer: a device pointer */
	LB_CO_DYN_SHARED_PTR,	 /* dynamic_shared_pointer: an LDS address */
	LB_CO_IMAGE,		 /* image */
	LB_CO_SAMPLER,		 /* sampler */
	LB_CO_PIPE,		 /* pipe */
	LB_CO_QUEUE,		 /* queue */
	LB_CO_HIDDEN,		 /* hidden_*: filled in by the runtime */
	LB_CO_KIND_COUNT
};

/* .address_space of a pointer argument. */
enum lb_co_space {
	LB_CO_SPACE_NONE = 0, /* not given (not a pointer) */
	LB_CO_SPACE_GLOBAL,
	LB_CO_SPACE_CONSTANT,
	LB_CO_SPACE_GENERIC,
	LB_CO_SPACE_LOCAL,
	LB_CO_SPACE_PRIVATE,
	LB_CO_SPACE_REGION,
	LB_CO_SPACE_OTHER
};

/* .actual_access (or .access) of a pointer argument. */
enum lb_co_access {
	LB_CO_ACCESS_UNKNOWN = 0, /* not given: assume read and write */
	LB_CO_ACCESS_READ,	  /* read_only */
	LB_CO_ACCESS_WRITE,	  /* write_only */
	LB_CO_ACCESS_RW		  /* read_write */
};

#define LB_CO_ARG_CONST 0x1u /* .is_const: the pointee is not written */

struct lb_co_arg {
	uint32_t offset; /* .offset in the kernarg segment */
	uint32_t size;	 /* .size in bytes */
	uint8_t kind;	 /* enum lb_co_kind */
	uint8_t space;	 /* enum lb_co_space */
	uint8_t access;	 /* enum lb_co_access */
	uint8_t flags;	 /* LB_CO_ARG_* */
	const char *value_kind; /* the metadata's own word ("hidden_...") */
};

struct lb_co_kernel {
	const char *name;   /* .name: the mangled device function name */
	const char *symbol; /* .symbol: the descriptor's symbol ("....kd") */
	int facts;	    /* 1: the fields below were read; 0: name only */
	uint32_t kernarg_size;	/* .kernarg_segment_size */
	uint32_t kernarg_align; /* .kernarg_segment_align */
	uint32_t lds;		/* .group_segment_fixed_size (bytes) */
	uint32_t scratch;	/* .private_segment_fixed_size (bytes) */
	uint32_t sgprs;		/* .sgpr_count */
	uint32_t vgprs;		/* .vgpr_count */
	uint32_t wavefront;	/* .wavefront_size */
	uint32_t max_wg;	/* .max_flat_workgroup_size */
	uint32_t nargs;
	struct lb_co_arg *args; /* nargs entries, in kernarg order */
};

struct lb_co_object {
	const char *target; /* amdhsa.target, or the bundle entry id */
	int version;	    /* code object version (3, 4, 5, 6), 0 unknown */
	uint32_t nkernels;
	struct lb_co_kernel *kernels;
};

struct lb_co_set;

/* Flags of lb_co_read(). */
#define LB_CO_FIRST 0x1u /* stop after the first object with metadata */

/* Caps: larger inputs or decompressed bundles are not read. */
#define LB_CO_MAX_BYTES (256u << 20)
#define LB_CO_MAX_ENTRIES 4096u /* bundle entries */
#define LB_CO_MAX_KERNELS 65536u /* per object */
#define LB_CO_MAX_ARGS 1024u /* per kernel */

/*
 * Reads the code objects in data.  size is the number of bytes there, or 0
 * when the caller does not know it (a fat binary handed to
 * __hipRegisterFatBinary, an image handed to hipModuleLoadData): the size
 * is then taken from the headers, the way the runtime does, and no byte
 * is read that is not in a mapped page of the process.
 *
 * Returns a set (possibly with no object) or NULL when out of memory.
 * Never fails otherwise: what could not be read is left out, and
 * lb_co_why() says why (the first problem met).  errno is unchanged.
 */
struct lb_co_set *lb_co_read(const void *data, size_t size, unsigned flags);

/*
 * Reads the code object file path (hipModuleLoad), mapped for the time of
 * the read.  As lb_co_read(); a file that cannot be read leaves an empty
 * set that says so.
 */
struct lb_co_set *lb_co_read_file(const char *path, unsigned flags);

/*
 * Reads what __hipRegisterFatBinary(wrapper) registers: the HIP fat binary
 * wrapper's bundle, of unknown size.  As lb_co_read(); a wrapper that is
 * not one leaves an empty set that says so.
 */
struct lb_co_set *lb_co_read_fatbin(const void *wrapper, unsigned flags);

/* Frees a set from lb_co_read() and everything it points to.  NULL is ok. */
void lb_co_free(struct lb_co_set *set);

/* The first problem met while reading, or "" if none. */
const char *lb_co_why(const struct lb_co_set *set);

/* The number of objects read, and object i (NULL past the end). */
uint32_t lb_co_count(const struct lb_co_set *set);
const struct lb_co_object *lb_co_object(const struct lb_co_set *set,
					uint32_t i);

/*
 * The kernel whose .name (or .symbol) is name, in the first object that
 * has it; NULL if none.  A hash lookup: fine at registration, but a
 * launch should keep the pointer it got then.
 */
const struct lb_co_kernel *lb_co_find(const struct lb_co_set *set,
				      const char *name);

/*
 * Is argument a a device pointer (memory another launch or a copy could
 * also touch)?  global_buffer arguments in the global, constant or
 * generic address space are; LDS pointers, by-value and hidden arguments
 * are not.
 */
int lb_co_arg_is_devptr(const struct lb_co_arg *a);

/*
 * May the kernel write through device pointer argument a?  0 when the
 * metadata says the pointee is const or only read; 1 otherwise.
 */
int lb_co_arg_may_write(const struct lb_co_arg *a);

/* The name of a kind ("by_value", "global_buffer", ... "hidden"). */
const char *lb_co_kind_name(int kind);

#endif
