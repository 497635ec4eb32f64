/*
 * kreg.h - the shim's registry of kernels: what the code objects say about
 * each kernel a launch can name, and its name, shared by the policies
 * (the trace's names, KINFO and KARGS records, stream0's hazard check).
 *
 * The registry learns from the registration and module calls
 * (__hipRegisterFatBinary, __hipRegisterFunction, hipModuleLoad*,
 * hipModuleGetFunction and their undoing), which lb_pipeline hands it
 * before the policies' post hooks once a policy has asked for it with
 * lb_kreg_enable().  Code objects are read then, never on a launch.  A
 * launch finds its kernel's plan by its handle (the host stub, or the
 * hipFunction_t) in an open-addressing table read without a lock; the
 * same entry keeps the kernel's name (lb_kreg_name).  Plans and names
 * are never freed: a launch may read one while the program unloads its
 * module; a handle registered again gets a new plan, or none when its new
 * kernel has no facts, and the name it was registered by.  Each thread
 * remembers its last lookup, checked against a generation every change
 * of the table bumps.
 */
#ifndef LBSHIM_KREG_H
#define LBSHIM_KREG_H

#include <stdint.h>
#include "shim.h"

/* Argument bytes a trace KARGS record holds (LB_KARGS_BYTES). */
#define LB_KREG_BYTES 56u
/* Pointer words a plan lists at most (global_buffer and by-value words). */
#define LB_KREG_MAXPTR 128u

struct lb_kpart {
	uint16_t idx;	/* kernelParams index (explicit arguments only) */
	uint16_t off;	/* offset in the kernarg segment */
	uint16_t len;	/* bytes copied (the argument, clipped) */
};

/*
 * A piece of an argument copied as one load and one store of 1, 2, 4 or
 * 8 bytes: args[idx] + soff to byte doff of the KARGS record's bytes.
 */
struct lb_kchunk {
	uint16_t idx;	/* kernelParams index */
	uint8_t soff;	/* offset inside the argument */
	uint8_t doff;	/* offset in the kernarg segment (< LB_KREG_BYTES) */
};

/* A word of the arguments that may hold a device pointer. */
struct lb_kptr {
	uint16_t idx;	/* kernelParams index */
	uint16_t woff;	/* offset of the word inside that argument */
	uint32_t koff;	/* offset of the word in the kernarg segment */
};

struct lb_kplan {
	const char *name;    /* the kernel's (mangled) name, or NULL */
	uint64_t idgen;	     /* the trace's: gen << 32 | layout string id */
	const char *layout;  /* "off:size:kind ..." */
	uint32_t layout_len;
	uint8_t cut;	     /* explicit arguments end past LB_KREG_BYTES */
	uint8_t bytes;	     /* bytes recorded: min(end, LB_KREG_BYTES) */
	uint16_t nparts;
	uint16_t maxidx;     /* highest part idx + 1 */
	uint16_t nptr;	     /* ptr[] entries */
	uint16_t ptrmax;     /* highest ptr idx + 1 */
	uint32_t kend;	     /* end of the explicit arguments (bytes) */
	/* the kernel's facts, for the trace's KINFO record */
	uint32_t vgprs, sgprs, lds, scratch, wavefront, max_wg;
	uint32_t kernarg_size, nexplicit;
	int co_version;	     /* code object version */
	const char *target;  /* the code object's target */
	/*
	 * The parts (below) cut into pieces of 8, 4, 2 and 1 bytes, listed
	 * by size, nchunk[k] of size 8 >> k: a launch copies each size in a
	 * loop of its own, with no test of sizes per argument.  chunked 0:
	 * there were more pieces than chunk[] holds (arguments overlapping,
	 * metadata no compiler writes): copy by the parts.
	 */
	uint8_t chunked;
	uint8_t nchunk[4];
	struct lb_kchunk chunk[LB_KREG_BYTES];
	struct lb_kptr ptr[LB_KREG_MAXPTR];
	struct lb_kpart part[]; /* nparts, by idx */
};

/*
 * A kernel's name in the registry: a copy of the name the program
 * registered or got it by (NULL: none readable; "": the runtime, asked,
 * knows none either: lb_kreg_name_add), and a word the
 * trace keeps per kernel (its string id in the current file: gen << 32
 * | id, 0 none), read and written by it alone, with atomics.
 */
struct lb_kname {
	const char *name;
	uint64_t idgen;
};

/*
 * The name entry of kernel handle f (module: a hipFunction_t), or NULL
 * when the registry has none.  Lock-free (a signal handler may call it).
 */
struct lb_kname *lb_kreg_name(const void *f, int module);

/*
 * f's name entry, given a copy of name (NULL or unreadable: "") if it
 * has no name (a name it has is kept); NULL when there is no room.
 * Takes the registry's lock: never from a signal handler.
 */
struct lb_kname *lb_kreg_name_add(const void *f, int module,
				  const char *name);

/*
 * The registry's generation (acquire): bumped after every change of a
 * handle's plan or name, so that a per-thread memory of a lookup knows
 * when it may be stale.
 */
uint64_t lb_kreg_gen(void);

/* A policy needs kernel facts: start learning (idempotent, at init). */
void lb_kreg_enable(void);
extern int lb_kreg_on LB_HIDDEN;

/* lb_run(): c is a registration or module call (LB_KIND_REG); learn. */
void lb_kreg_learn(const struct lb_call *c);

/* The plan of a kernel handle (module: a hipFunction_t), or NULL. */
const struct lb_kplan *lb_kreg_plan(const void *f, int module);

/*
 * Decodes launch call c: its kernel's plan and where its arguments are
 * (*args = kernelParams, or *extra = the "extra" list).  Returns the plan,
 * or NULL when c is no launch with a known kernel.
 */
const struct lb_kplan *lb_kreg_launch(const struct lb_call *c, void ***args,
				      void ***extra);

/*
 * The candidate device-pointer values of launch c's arguments: each
 * global_buffer argument, and each 8-byte-aligned 8-byte word of by-value
 * arguments (the caller filters them against allocations it knows).
 * Fills out[] with up to max values and returns the count, or -1 when the
 * kernel's layout is unknown (no metadata, hipLaunchByPtr, a parameter
 * block, an "extra" list that is not a kernarg buffer).  *diff gets the
 * OR of each value written XOR what out[] held there (0: the first count
 * entries were already these values), in the same pass.  Reads the
 * arguments as the runtime is about to: call it before or after the
 * launch, with the program's own pointers; no lock.
 */
int lb_launch_ptrs(const struct lb_call *c, uintptr_t *out, int max,
		   uintptr_t *diff);

#endif
