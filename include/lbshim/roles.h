/*
 * roles.h - what each call is to the policies, and which of its
 * arguments plays which part: hip_api.def's ROLES column, as the policies,
 * the kernel registry and lbtrace read it.
 *
 * A row's ROLES column is optional, last:
 *
 *   (ROLE, AROLE(param), AROLE(param), ...)
 *
 * ROLE is one of enum lb_role less its LB_ROLE_ prefix (COPY); each
 * AROLE(param) names the parameter that plays that argument role
 * (DST(dst)).  A row without the column has the role NONE and no argument
 * roles: the policies treat it by its KIND, SIDX and FLAGS columns alone.
 * shim/api_info.c expands the column into lb_api_info[].role and
 * lb_arg_tab[][], and checks each entry when it compiles: the parameter
 * exists, has the type the role says, and its offset fits the table.  A
 * consumer then reads "the destination of this call" by role (lb_ar_ptr
 * with LB_AR_DST), whatever the row.
 *
 * Which argument roles a call role requires is stated with each role
 * below; tests/shim/check_table.c holds every row to it.
 */
#ifndef LB_ROLES_H
#define LB_ROLES_H

#include <stdint.h>
#include <string.h>

/* What a call is to the policies (ROLES column, first element). */
enum lb_role {
	LB_ROLE_NONE, /* nothing beyond its kind */
	/* launches: KERNEL, and KARGS or EXTRA, unless said */
	LB_ROLE_LAUNCH,	       /* KERNEL is a host stub (or function) */
	LB_ROLE_LAUNCH_MODULE, /* KERNEL is a hipFunction_t */
	LB_ROLE_HOST_FN,       /* FN(USERDATA) runs on the stream */
	LB_ROLE_CALLBACK,      /* FN(stream, status, USERDATA) likewise */
	LB_ROLE_GRAPH_LAUNCH,  /* GRAPH */
	LB_ROLE_CONFIGURE,     /* <<<>>>'s configuration: GRID, BLOCK, SHMEM */
	LB_ROLE_CONFIG_PUSH,   /* the same, pushed for the launch to follow */
	LB_ROLE_CONFIG_POP,    /* GRID_OUT, BLOCK_OUT, SHMEM_OUT */
	LB_ROLE_KERNEL_NAME,   /* KERNEL's name; names a stream, no work */
	/* copies: DST, SRC, and BYTES or WIDTH and HEIGHT */
	LB_ROLE_COPY,	   /* in the direction KIND says */
	LB_ROLE_COPY_HTOD, /* host to device */
	LB_ROLE_COPY_DTOH, /* device to host */
	LB_ROLE_COPY_DTOD, /* device to device */
	LB_ROLE_COPY_PEER, /* device to device, between devices */
	LB_ROLE_COPY_WAIT, /* as COPY, and waits for its stream */
	/* sets: DST or PITCHED, VALUE, and BYTES, NUM or a 2D/3D shape */
	LB_ROLE_SET,	/* of bytes */
	LB_ROLE_SET16,	/* of 16-bit values: NUM and WIDTH count them */
	LB_ROLE_SET32,	/* of 32-bit values */
	LB_ROLE_PREFETCH, /* PTR, BYTES to DEVICE */
	LB_ROLE_ADVISE,	  /* PTR, BYTES, ADVICE, DEVICE */
	/* allocations: OUT and BYTES, but for PITCH and 3D */
	LB_ROLE_ALLOC,	       /* device memory */
	LB_ROLE_ALLOC_MANAGED, /* managed memory */
	LB_ROLE_ALLOC_HOST,    /* pinned host memory */
	LB_ROLE_ALLOC_ASYNC,   /* device memory, stream-ordered */
	LB_ROLE_ALLOC_PITCH,   /* OUT, PITCH_OUT, WIDTH, HEIGHT */
	LB_ROLE_ALLOC_3D,      /* device memory, PITCHED_OUT, EXTENT */
	LB_ROLE_ALLOC_ARRAY,   /* an array: OUT, DESC, EXTENT */
	/* frees: PTR */
	LB_ROLE_FREE,	    /* device memory */
	LB_ROLE_FREE_ASYNC, /* device memory, stream-ordered */
	LB_ROLE_FREE_HOST,  /* pinned host memory */
	/* questions about memory at PTR */
	LB_ROLE_PTR_ATTRIBUTES,	    /* ATTRS_OUT */
	LB_ROLE_PTR_ATTRIBUTE,	    /* DATA, ATTR */
	LB_ROLE_PTR_ATTRIBUTE_LIST, /* NUM, ATTR_LIST, DATA_LIST */
	LB_ROLE_PTR_SIZE,	    /* SIZE_OUT */
	LB_ROLE_ADDRESS_RANGE,	    /* BASE_OUT, SIZE_OUT */
	LB_ROLE_RANGE_QUERY,	    /* of BYTES from PTR */
	LB_ROLE_IPC_HANDLE,	    /* a handle for another process */
	LB_ROLE_MEM_INFO,	    /* FREE_OUT, TOTAL_OUT (no PTR) */
	/* streams */
	LB_ROLE_STREAM_CREATE,	/* OUT */
	LB_ROLE_STREAM_DESTROY,
	LB_ROLE_STREAM_SYNC,
	LB_ROLE_STREAM_QUERY,	/* "not ready" is its answer, no failure */
	LB_ROLE_STREAM_WAIT,	/* for EVENT */
	LB_ROLE_STREAM_GET,	/* FLAGS_OUT or PRIORITY_OUT */
	LB_ROLE_CAPTURE_BEGIN,	/* MODE */
	LB_ROLE_CAPTURE_END,	/* OUT: the graph */
	LB_ROLE_CAPTURE_STATUS, /* STATUS_OUT */
	/* events: EVENT, but for CREATE (OUT) */
	LB_ROLE_EVENT_CREATE,
	LB_ROLE_EVENT_RECORD,
	LB_ROLE_EVENT_SYNC,
	LB_ROLE_EVENT_QUERY,	/* "not ready" is its answer, no failure */
	LB_ROLE_EVENT_DESTROY,
	LB_ROLE_EVENT_ELAPSED,	/* MS_OUT, EVENT, EVENT_END */
	/* devices */
	LB_ROLE_DEVICE_SYNC,
	LB_ROLE_DEVICE_SET,	/* DEVICE */
	LB_ROLE_DEVICE_GET,	/* DEVICE_OUT */
	LB_ROLE_DEVICE_RESET,
	LB_ROLE_DEVICE_QUERY,	/* of DEVICE */
	/* code objects: REG_* and MODULE_* */
	LB_ROLE_REG_FATBIN,	/* IMAGE; its result is the handle */
	LB_ROLE_UNREG_FATBIN,	/* MODULE */
	LB_ROLE_REG_FUNCTION,	/* MODULE, KERNEL, NAME */
	LB_ROLE_MODULE_LOAD,	/* OUT, and FNAME or IMAGE */
	LB_ROLE_MODULE_UNLOAD,	/* MODULE */
	LB_ROLE_MODULE_FUNCTION, /* OUT, MODULE, NAME */
	LB_ROLE_KERNEL_HANDLE,	/* OUT: a launch handle for stub KERNEL */
	/* entry points by name: NAME, OUT */
	LB_ROLE_PROC_ADDRESS,
	/* the last error (shim/lasterr.c) */
	LB_ROLE_LASTERR_GET,  /* read and reset */
	LB_ROLE_LASTERR_PEEK, /* read */
	LB_ROLE_LASTERR_EXT,  /* 6.x: as GET; 7.x: the last call's result */
	LB_ROLE_COUNT
};

/*
 * Argument roles.  Each AROLE(param) of the column expands through
 * LB_RA_<AROLE> into (role, check, param...): the check (shim/api_info.c)
 * holds the parameter to the type the role reads it as.
 *   P    a pointer or handle (8 bytes)
 *   O8   a pointer to 8 bytes the call writes (a pointer, handle, size)
 *   O4   a pointer to 4 bytes the call writes (an int, flags, a float)
 *   O12  a pointer to a dim3 the call writes
 *   Z    a size_t
 *   I4   a 4-byte integer or enum
 *   I    an integer of 1, 2, 4 or 8 bytes (read zero-extended)
 *   DIM  a dim3, or its x, y, z as three consecutive 4-byte parameters
 *   T    exactly the type named
 * Roles are read by the offset of their parameter (lb_arg_tab); with 64
 * roles at most, one row of the table is one cache line.
 */
enum lb_arole {
	/* launches */
	LB_AR_KERNEL,	/* P: host stub, device function or hipFunction_t */
	LB_AR_KARGS,	/* P: void **kernelParams */
	LB_AR_EXTRA,	/* P: void **extra (HIP_LAUNCH_PARAM_*) */
	LB_AR_GRID,	/* DIM: blocks */
	LB_AR_BLOCK,	/* DIM: threads per block */
	LB_AR_WORK,	/* DIM: threads in all (grid = WORK / BLOCK) */
	LB_AR_SHMEM,	/* I: dynamic shared memory, bytes */
	LB_AR_GRID_OUT,	 /* O12 */
	LB_AR_BLOCK_OUT, /* O12 */
	LB_AR_SHMEM_OUT, /* O8 */
	LB_AR_FN,	/* P: a host function or callback */
	LB_AR_USERDATA, /* P: its argument */
	LB_AR_GRAPH,	/* P: hipGraphExec_t */
	/* memory */
	LB_AR_DST,	/* P: destination */
	LB_AR_SRC,	/* P: source */
	LB_AR_BYTES,	/* Z: bytes */
	LB_AR_KIND,	/* I4: hipMemcpyKind */
	LB_AR_DPITCH,	/* Z: destination pitch */
	LB_AR_SPITCH,	/* Z: source pitch */
	LB_AR_WIDTH,	/* Z: row width (bytes, or values of a SET16/32) */
	LB_AR_HEIGHT,	/* Z: rows */
	LB_AR_PITCH,	/* Z: pitch of a 2D set */
	LB_AR_VALUE,	/* I: the value a set writes */
	LB_AR_NUM,	/* I: how many (values of a SET16/32, attributes) */
	LB_AR_PITCHED,	/* T hipPitchedPtr */
	LB_AR_EXTENT,	/* T hipExtent */
	LB_AR_PTR,	/* P: the memory the call is about */
	LB_AR_DEVICE,	/* I4: device id */
	/* allocations */
	LB_AR_OUT,	   /* O8: what the call makes (pointer, handle) */
	LB_AR_PITCH_OUT,   /* O8 */
	LB_AR_PITCHED_OUT, /* T hipPitchedPtr * */
	LB_AR_FLAGS,	   /* I */
	LB_AR_MEMPOOL,	   /* P: hipMemPool_t */
	LB_AR_DESC,	   /* T const struct hipChannelFormatDesc * */
	/* streams, events, devices */
	LB_AR_EVENT,	    /* P */
	LB_AR_EVENT_END,    /* P: the second event of an interval */
	LB_AR_MS_OUT,	    /* O4: float milliseconds */
	LB_AR_FLAGS_OUT,    /* O4 */
	LB_AR_PRIORITY,	    /* I4 */
	LB_AR_PRIORITY_OUT, /* O4 */
	LB_AR_MODE,	    /* I4: hipStreamCaptureMode */
	LB_AR_STATUS_OUT,   /* O4: hipStreamCaptureStatus */
	LB_AR_DEVICE_OUT,   /* O4 */
	/* code objects and names */
	LB_AR_IMAGE,	/* P: a fat binary or code object in memory */
	LB_AR_MODULE,	/* P: a fat binary's handle, or hipModule_t */
	LB_AR_NAME,	/* P: a (kernel, symbol) name */
	LB_AR_FNAME,	/* P: a file name */
	LB_AR_VERSION,	/* I4: the version an entry point is asked for */
	/* answers about memory */
	LB_AR_FREE_OUT,	 /* O8 */
	LB_AR_TOTAL_OUT, /* O8 */
	LB_AR_BASE_OUT,	 /* O8 */
	LB_AR_SIZE_OUT,	 /* O8 */
	LB_AR_ADVICE,	 /* I4: hipMemoryAdvise */
	LB_AR_ATTR,	 /* I4: hipPointer_attribute */
	LB_AR_DATA,	 /* P: where its answer goes */
	LB_AR_ATTR_LIST, /* P: hipPointer_attribute[NUM] */
	LB_AR_DATA_LIST, /* P: void *[NUM] */
	LB_AR_ATTRS_OUT, /* P: the runtime's pointer-attributes struct
			  * (rt.h: attr_device_ptr, attr_host_ptr) */
	LB_AR_COUNT
};
_Static_assert(LB_AR_COUNT <= 64, "lb_arg_tab: one row, one cache line");

/* AROLE(param) of the column: (role, check, param...). */
#define LB_RA_KERNEL(p) (LB_AR_KERNEL, P, p)
#define LB_RA_KARGS(p) (LB_AR_KARGS, P, p)
#define LB_RA_EXTRA(p) (LB_AR_EXTRA, P, p)
#define LB_RA_GRID(...) (LB_AR_GRID, DIM, __VA_ARGS__)
#define LB_RA_BLOCK(...) (LB_AR_BLOCK, DIM, __VA_ARGS__)
#define LB_RA_WORK(...) (LB_AR_WORK, DIM, __VA_ARGS__)
#define LB_RA_SHMEM(p) (LB_AR_SHMEM, I, p)
#define LB_RA_GRID_OUT(p) (LB_AR_GRID_OUT, O12, p)
#define LB_RA_BLOCK_OUT(p) (LB_AR_BLOCK_OUT, O12, p)
#define LB_RA_SHMEM_OUT(p) (LB_AR_SHMEM_OUT, O8, p)
#define LB_RA_FN(p) (LB_AR_FN, P, p)
#define LB_RA_USERDATA(p) (LB_AR_USERDATA, P, p)
#define LB_RA_GRAPH(p) (LB_AR_GRAPH, P, p)
#define LB_RA_DST(p) (LB_AR_DST, P, p)
#define LB_RA_SRC(p) (LB_AR_SRC, P, p)
#define LB_RA_BYTES(p) (LB_AR_BYTES, Z, p)
#define LB_RA_KIND(p) (LB_AR_KIND, I4, p)
#define LB_RA_DPITCH(p) (LB_AR_DPITCH, Z, p)
#define LB_RA_SPITCH(p) (LB_AR_SPITCH, Z, p)
#define LB_RA_WIDTH(p) (LB_AR_WIDTH, Z, p)
#define LB_RA_HEIGHT(p) (LB_AR_HEIGHT, Z, p)
#define LB_RA_PITCH(p) (LB_AR_PITCH, Z, p)
#define LB_RA_VALUE(p) (LB_AR_VALUE, I, p)
#define LB_RA_NUM(p) (LB_AR_NUM, I, p)
#define LB_RA_PITCHED(p) (LB_AR_PITCHED, T, p, hipPitchedPtr)
#define LB_RA_EXTENT(p) (LB_AR_EXTENT, T, p, hipExtent)
#define LB_RA_PTR(p) (LB_AR_PTR, P, p)
#define LB_RA_DEVICE(p) (LB_AR_DEVICE, I4, p)
#define LB_RA_OUT(p) (LB_AR_OUT, O8, p)
#define LB_RA_PITCH_OUT(p) (LB_AR_PITCH_OUT, O8, p)
#define LB_RA_PITCHED_OUT(p) (LB_AR_PITCHED_OUT, T, p, hipPitchedPtr *)
#define LB_RA_FLAGS(p) (LB_AR_FLAGS, I, p)
#define LB_RA_MEMPOOL(p) (LB_AR_MEMPOOL, P, p)
#define LB_RA_DESC(p) \
	(LB_AR_DESC, T, p, const struct hipChannelFormatDesc *)
#define LB_RA_EVENT(p) (LB_AR_EVENT, P, p)
#define LB_RA_EVENT_END(p) (LB_AR_EVENT_END, P, p)
#define LB_RA_MS_OUT(p) (LB_AR_MS_OUT, O4, p)
#define LB_RA_FLAGS_OUT(p) (LB_AR_FLAGS_OUT, O4, p)
#define LB_RA_PRIORITY(p) (LB_AR_PRIORITY, I4, p)
#define LB_RA_PRIORITY_OUT(p) (LB_AR_PRIORITY_OUT, O4, p)
#define LB_RA_MODE(p) (LB_AR_MODE, I4, p)
#define LB_RA_STATUS_OUT(p) (LB_AR_STATUS_OUT, O4, p)
#define LB_RA_DEVICE_OUT(p) (LB_AR_DEVICE_OUT, O4, p)
#define LB_RA_IMAGE(p) (LB_AR_IMAGE, P, p)
#define LB_RA_MODULE(p) (LB_AR_MODULE, P, p)
#define LB_RA_NAME(p) (LB_AR_NAME, P, p)
#define LB_RA_FNAME(p) (LB_AR_FNAME, P, p)
#define LB_RA_VERSION(p) (LB_AR_VERSION, I4, p)
#define LB_RA_FREE_OUT(p) (LB_AR_FREE_OUT, O8, p)
#define LB_RA_TOTAL_OUT(p) (LB_AR_TOTAL_OUT, O8, p)
#define LB_RA_BASE_OUT(p) (LB_AR_BASE_OUT, O8, p)
#define LB_RA_SIZE_OUT(p) (LB_AR_SIZE_OUT, O8, p)
#define LB_RA_ADVICE(p) (LB_AR_ADVICE, I4, p)
#define LB_RA_ATTR(p) (LB_AR_ATTR, I4, p)
#define LB_RA_DATA(p) (LB_AR_DATA, P, p)
#define LB_RA_ATTR_LIST(p) (LB_AR_ATTR_LIST, P, p)
#define LB_RA_DATA_LIST(p) (LB_AR_DATA_LIST, P, p)
#define LB_RA_ATTRS_OUT(p) (LB_AR_ATTRS_OUT, P, p)

/*
 * lb_arg_tab[api][role]: 0 when the row has no parameter in that role,
 * else (offset / 4 + 1) | (log2(8 / width) << 6), the offset of the
 * parameter in struct lb_args_<name> and the width of the value read
 * (8, 4, 2 or 1 bytes: a DIM's three values, 4).  Offsets are multiples
 * of 4 below 252 (checked): an 8-byte role's entry is below 64, so its
 * offset is (entry - 1) * 4 with nothing to mask.
 */
extern const uint8_t lb_arg_tab[][64];

/*
 * The direction (hipMemcpyKind) a copy's role implies, or OTHERWISE for
 * a role that implies none (a copy whose KIND argument says it).  Needs
 * HIP's declarations, which lbshim/api.h includes before this file.
 */
static inline unsigned lb_role_copy_dir(unsigned role, unsigned otherwise)
{
	switch (role) {
	case LB_ROLE_COPY_HTOD:
		return hipMemcpyHostToDevice;
	case LB_ROLE_COPY_DTOH:
		return hipMemcpyDeviceToHost;
	case LB_ROLE_COPY_DTOD:
	case LB_ROLE_COPY_PEER:
		return hipMemcpyDeviceToDevice;
	default:
		return otherwise;
	}
}

/*
 * The readers, of lb_arg_tab or of a copy of it (the _in forms: a copy
 * that is static const in the reader's file, read with constant rows, is
 * folded away, roles_gen.h).
 */
typedef const uint8_t lb_ar_tab_t[][64];

/* Does row api have a parameter in role r? */
static inline int lb_ar_has_in(lb_ar_tab_t t, int api, unsigned r)
{
	return t[api][r] != 0;
}

/* The address of row api's parameter in role r inside args, or NULL. */
static inline void *lb_ar_at_in(lb_ar_tab_t t, int api, const void *args,
				unsigned r)
{
	unsigned b = t[api][r];

	return b ? (char *)args + ((b & 63u) - 1u) * 4u : NULL;
}

/*
 * The value of an 8-byte role (P, O8, Z: a pointer, an out-pointer, a
 * size), or NULL when the row has none.
 */
static inline void *lb_ar_ptr_in(lb_ar_tab_t t, int api, const void *args,
				 unsigned r)
{
	unsigned b = t[api][r];
	void *p = NULL;

	if (b)
		memcpy(&p, (const char *)args + (b - 1u) * 4u, sizeof(p));
	return p;
}

/* An integer role (I, I4, Z), zero-extended; 0 when the row has none. */
static inline uint64_t lb_ar_u64_in(lb_ar_tab_t t, int api, const void *args,
				    unsigned r)
{
	unsigned b = t[api][r];
	const char *p = (const char *)args + ((b & 63u) - 1u) * 4u;
	uint64_t v8;
	uint32_t v4;
	uint16_t v2;
	uint8_t v1;

	switch (b >> 6) {
	case 0:
		if (!b)
			return 0;
		memcpy(&v8, p, 8);
		return v8;
	case 1:
		memcpy(&v4, p, 4);
		return v4;
	case 2:
		memcpy(&v2, p, 2);
		return v2;
	default:
		memcpy(&v1, p, 1);
		return v1;
	}
}

/* A DIM role's x, y, z into d[3]; zeros when the row has none. */
static inline void lb_ar_dim_in(lb_ar_tab_t t, int api, const void *args,
				unsigned r, uint32_t d[3])
{
	const void *p = lb_ar_at_in(t, api, args, r);

	if (p)
		memcpy(d, p, 3 * sizeof(uint32_t));
	else
		d[0] = d[1] = d[2] = 0;
}

#define lb_ar_has(api, r) lb_ar_has_in(lb_arg_tab, api, r)
#define lb_ar_at(api, args, r) lb_ar_at_in(lb_arg_tab, api, args, r)
#define lb_ar_ptr(api, args, r) lb_ar_ptr_in(lb_arg_tab, api, args, r)
#define lb_ar_u64(api, args, r) lb_ar_u64_in(lb_arg_tab, api, args, r)
#define lb_ar_dim(api, args, r, d) lb_ar_dim_in(lb_arg_tab, api, args, r, d)
/* The same for a size_t role (Z), 0 when absent. */
#define lb_ar_size(api, args, r) ((uint64_t)(uintptr_t)lb_ar_ptr(api, args, r))

#endif
