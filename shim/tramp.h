/*
 * tramp.h - the slow path shared by the shim's assembly wrappers of
 * dlopen (dlopen.c) and dlsym (cuda_procaddr.c): they must reach the
 * next function with the caller's arguments and return address
 * untouched, so they are assembly that jumps, and on their slow path
 * they ask a C function where to jump.
 */
#ifndef LB_TRAMP_H
#define LB_TRAMP_H

/*
 * x86-64 assembly text: keeps the first two arguments (%rdi, %rsi), runs
 * SETUP (more argument registers for FN, as assembly text; "" for none)
 * with the stack 16-byte aligned, calls FN (a string: the C function's
 * name), puts the two arguments back and jumps to the address FN
 * returned.  The CFI notes follow every push and pop, so an unwinder
 * inside FN still finds the caller.  Put a label in front of it when a
 * branch goes there ("1:" LB_TRAMP_CALL("", "f")).
 */
#define LB_TRAMP_CALL(setup, fn)                                        \
	"	pushq %rdi\n"                                               \
	"	.cfi_adjust_cfa_offset 8\n"                                 \
	"	pushq %rsi\n"                                               \
	"	.cfi_adjust_cfa_offset 8\n"                                 \
	"	subq $8, %rsp\n"                                            \
	"	.cfi_adjust_cfa_offset 8\n"                                 \
	setup                                                             \
	"	call " fn "\n"                                              \
	"	addq $8, %rsp\n"                                            \
	"	.cfi_adjust_cfa_offset -8\n"                                \
	"	popq %rsi\n"                                                \
	"	.cfi_adjust_cfa_offset -8\n"                                \
	"	popq %rdi\n"                                                \
	"	.cfi_adjust_cfa_offset -8\n"                                \
	"	jmp *%rax\n"

#endif
