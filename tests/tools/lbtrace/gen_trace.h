/*
 * gen_trace.h - what gen_trace.c's writers share with gen_crash.c (the
 * traces of processes that died): the trace being built and the helpers
 * that append to it.  Test code; see gen_trace.c for the kinds.
 */
#ifndef GEN_TRACE_H
#define GEN_TRACE_H

#include <stdint.h>
#include <stddef.h>
#include "lbshim/trace_format.h"

#define BS 4096u /* small blocks: chains appear quickly */
#define SLOTS (BS / 64 - 1)
#define MAXT 8

struct gthread {
	uint32_t tid, index;
	char name[16];
	long blk;     /* offset of its current block, -1 none */
	uint32_t pos; /* next slot in it */
	uint64_t ordinal;
	int ring;
};

struct gen {
	uint8_t *buf;
	size_t size, cap;
	struct lb_trace_header *h;
	struct gthread t[MAXT];
	int nt;
	uint32_t next_sid;
	uint64_t now; /* ticks */
	uint64_t rate;
	int ring;
};

/* Streams and pointers the generated calls use. */
#define S1 0x5555000100ull
#define S0R 0x5555009900ull
#define P(n) (0x7f0000000000ull + (uint64_t)(n)*0x100000)

/* A new thread of the trace; returns its index for the others. */
int thread(struct gen *g, uint32_t tid, const char *name);

/* Appends record SRC to thread TI's block (a new block when full). */
void emit(struct gen *g, int ti, const struct lb_trace_rec *src);

/* Writes S as STRING records of thread TI; returns its string id. */
uint32_t string(struct gen *g, int ti, const char *s);

/* One call of DUR ticks at g->now, then a 500-tick gap. */
void call(struct gen *g, int ti, int api, int ret, uint64_t dur,
	  uint64_t stream, uint64_t used, uint64_t a0, uint64_t a1,
	  uint64_t a2, int note, int flags);

/* a[2] of a launch: grid.z and the block, 16 bits each. */
uint64_t dims(uint32_t gz, uint32_t bx, uint32_t by, uint32_t bz);

/* Calls of every kind on 3 threads (gen_trace.c: gen_trace basic). */
void write_basic(struct gen *g);

/* The version 2 kinds (gen_v2.c): fills the fresh trace G as KIND;
 * -1 when KIND is none of them. */
int gen_v2(struct gen *g, const char *kind);

/* The evaluation pipeline simulated (gen_pipe.c): legacy null stream or,
 * STREAM0 set, a queue per thread; SECONDS of it. */
void write_pipeline(struct gen *g, int stream0, unsigned seconds);

/* The crash family (gen_crash.c): each fills the fresh trace G. */
void write_crash(struct gen *g);
void write_crashreg(struct gen *g);
void write_crashblk(struct gen *g);
void write_hang(struct gen *g);
void write_term(struct gen *g);

#endif
