/*
 * pp.h - preprocessor helpers used to expand hip_api.def.
 *
 * LB_NARGS counts a parenthesised list's elements (0 for "()"), LB_MAP
 * applies a macro to each element.  Up to 16 elements, which covers the
 * longest HIP launch signature (14 parameters).
 */
#ifndef LB_PP_H
#define LB_PP_H

#define LB_CAT_(a, b) a##b
#define LB_CAT(a, b) LB_CAT_(a, b)
#define LB_STR_(x) #x
#define LB_STR(x) LB_STR_(x)
#define LB_UNPAREN(...) __VA_ARGS__

/* GNU ", ##__VA_ARGS__" swallows the comma when the list is empty. */
#define LB_NARGS_(_0, _1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, \
		  _13, _14, _15, _16, N, ...) N
#define LB_NARGS__(...) LB_NARGS_(0, ##__VA_ARGS__, 16, 15, 14, 13, 12, 11, \
				  10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define LB_NARGS(list) LB_NARGS__ list

#define LB_MAP_0(m, d, ...)
#define LB_MAP_1(m, d, x) m(d, x)
#define LB_MAP_2(m, d, x, ...) m(d, x) LB_MAP_1(m, d, __VA_ARGS__)
#define LB_MAP_3(m, d, x, ...) m(d, x) LB_MAP_2(m, d, __VA_ARGS__)
#define LB_MAP_4(m, d, x, ...) m(d, x) LB_MAP_3(m, d, __VA_ARGS__)
#define LB_MAP_5(m, d, x, ...) m(d, x) LB_MAP_4(m, d, __VA_ARGS__)
#define LB_MAP_6(m, d, x, ...) m(d, x) LB_MAP_5(m, d, __VA_ARGS__)
#define LB_MAP_7(m, d, x, ...) m(d, x) LB_MAP_6(m, d, __VA_ARGS__)
#define LB_MAP_8(m, d, x, ...) m(d, x) LB_MAP_7(m, d, __VA_ARGS__)
#define LB_MAP_9(m, d, x, ...) m(d, x) LB_MAP_8(m, d, __VA_ARGS__)
#define LB_MAP_10(m, d, x, ...) m(d, x) LB_MAP_9(m, d, __VA_ARGS__)
#define LB_MAP_11(m, d, x, ...) m(d, x) LB_MAP_10(m, d, __VA_ARGS__)
#define LB_MAP_12(m, d, x, ...) m(d, x) LB_MAP_11(m, d, __VA_ARGS__)
#define LB_MAP_13(m, d, x, ...) m(d, x) LB_MAP_12(m, d, __VA_ARGS__)
#define LB_MAP_14(m, d, x, ...) m(d, x) LB_MAP_13(m, d, __VA_ARGS__)
#define LB_MAP_15(m, d, x, ...) m(d, x) LB_MAP_14(m, d, __VA_ARGS__)
#define LB_MAP_16(m, d, x, ...) m(d, x) LB_MAP_15(m, d, __VA_ARGS__)

/*
 * LB_MAP(m, d, list): m(d, x) for each x of list.  The count comes from
 * CLIST so that "(void)" parameter lists can be mapped with the count of
 * their "()" argument list.
 */
#define LB_APPLY_(f, args) f args
#define LB_MAP_N(n, m, d, list) \
	LB_APPLY_(LB_CAT(LB_MAP_, n), (m, d, LB_UNPAREN list))
#define LB_MAP(m, d, list) LB_MAP_N(LB_NARGS(list), m, d, list)

/* LB_MAPC: like LB_MAP, with the results separated by commas. */
#define LB_MAPC_0(m, d, ...)
#define LB_MAPC_1(m, d, x) m(d, x)
#define LB_MAPC_2(m, d, x, ...) m(d, x), LB_MAPC_1(m, d, __VA_ARGS__)
#define LB_MAPC_3(m, d, x, ...) m(d, x), LB_MAPC_2(m, d, __VA_ARGS__)
#define LB_MAPC_4(m, d, x, ...) m(d, x), LB_MAPC_3(m, d, __VA_ARGS__)
#define LB_MAPC_5(m, d, x, ...) m(d, x), LB_MAPC_4(m, d, __VA_ARGS__)
#define LB_MAPC_6(m, d, x, ...) m(d, x), LB_MAPC_5(m, d, __VA_ARGS__)
#define LB_MAPC_7(m, d, x, ...) m(d, x), LB_MAPC_6(m, d, __VA_ARGS__)
#define LB_MAPC_8(m, d, x, ...) m(d, x), LB_MAPC_7(m, d, __VA_ARGS__)
#define LB_MAPC_9(m, d, x, ...) m(d, x), LB_MAPC_8(m, d, __VA_ARGS__)
#define LB_MAPC_10(m, d, x, ...) m(d, x), LB_MAPC_9(m, d, __VA_ARGS__)
#define LB_MAPC_11(m, d, x, ...) m(d, x), LB_MAPC_10(m, d, __VA_ARGS__)
#define LB_MAPC_12(m, d, x, ...) m(d, x), LB_MAPC_11(m, d, __VA_ARGS__)
#define LB_MAPC_13(m, d, x, ...) m(d, x), LB_MAPC_12(m, d, __VA_ARGS__)
#define LB_MAPC_14(m, d, x, ...) m(d, x), LB_MAPC_13(m, d, __VA_ARGS__)
#define LB_MAPC_15(m, d, x, ...) m(d, x), LB_MAPC_14(m, d, __VA_ARGS__)
#define LB_MAPC_16(m, d, x, ...) m(d, x), LB_MAPC_15(m, d, __VA_ARGS__)
#define LB_MAPC_N(n, m, d, list) \
	LB_APPLY_(LB_CAT(LB_MAPC_, n), (m, d, LB_UNPAREN list))
#define LB_MAPC(m, d, list) LB_MAPC_N(LB_NARGS(list), m, d, list)

#endif
