# mk/lint.mk - static analysis of shim/, policies/ and tools/ in make check,
# and the checks of the tree's shape: file lengths, the man pages.
#
# cppcheck reads gcc's preprocessed output: its own preprocessor does not
# know GNU ", ##__VA_ARGS__", which hip_api.def's expansion relies on.
# clang-tidy: the analyzer and bugprone checks, minus the ones that only
# argue style (swappable parameters, reserved __hip names we must define),
# valist.Uninitialized, a false positive of clang 14 on glibc's va_list,
# and the analyzer's checkers of other platforms' APIs, which cannot fire
# on this C code and cost about a tenth of the analyzer's time: Apple's
# (osx.*, optin.osx.*), Fuchsia's handles, WebKit's and C++'s
# (cplusplus.*, optin.cplusplus.*), MPI, and the models of GTest and LLVM.

LINT_SRCS = $(wildcard shim/*.c policies/*/*.c tools/*/*.c)
LINT_CPPFLAGS = -std=gnu11 -D__HIP_PLATFORM_AMD__ -Iinclude -Ishim -Itools \
	$(UNWIND_CFLAGS)
TIDY_NOT_HERE := -clang-analyzer-osx.*,-clang-analyzer-optin.osx.*,-clang-analyzer-fuchsia.*,-clang-analyzer-webkit.*,-clang-analyzer-cplusplus.*,-clang-analyzer-optin.cplusplus.*,-clang-analyzer-optin.mpi.*,-clang-analyzer-apiModeling.google.*,-clang-analyzer-apiModeling.llvm.*
TIDY_CHECKS := -*,clang-analyzer-*,bugprone-*,-bugprone-easily-swappable-parameters,-bugprone-reserved-identifier,-bugprone-macro-parentheses,-bugprone-narrowing-conversions,-bugprone-assignment-in-if-condition,-clang-analyzer-security.insecureAPI.DeprecatedOrUnsafeBufferHandling,-clang-analyzer-valist.Uninitialized,-bugprone-sizeof-expression,$(TIDY_NOT_HERE)

CHECK_GROUPS += lint
# cppcheck, clang-tidy, file lengths (file_length.sh), the man pages
# (man_pages.sh: no groff warning, no words glued by a font macro), the
# policies naming no runtime (runtime_seam.sh: shim/rt.h is the seam)
LINT_TESTS := $(sort $(wildcard tests/lint/*.sh))

check-lint:
	@BUILD=$(BUILD) LINT_SRCS="$(LINT_SRCS)" LINT_CPPFLAGS="$(LINT_CPPFLAGS)" \
	  TIDY_CHECKS="$(TIDY_CHECKS)" CC="$(CC)" \
	  sh mk/run-tests.sh lint $(BUILD)/results $(LINT_TESTS)
