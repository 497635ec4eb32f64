# mk/lint.mk - static analysis of shim/, policies/ and tools/ in make check,
# and the checks of the tree's shape: file lengths, the man pages.
#
# cppcheck reads gcc's preprocessed output: its own preprocessor does not
# know GNU ", ##__VA_ARGS__", which hip_api.def's expansion relies on.
# clang-tidy: the analyzer and bugprone checks, minus the ones that only
# argue style (swappable parameters, reserved __hip names we must define),
# and valist.Uninitialized, a false positive of clang 14 on glibc's va_list.

LINT_SRCS = $(wildcard shim/*.c policies/*/*.c tools/*/*.c)
LINT_CPPFLAGS = -std=gnu11 -D__HIP_PLATFORM_AMD__ -Iinclude -Ishim -Itools \
	$(UNWIND_CFLAGS)
TIDY_CHECKS := -*,clang-analyzer-*,bugprone-*,-bugprone-easily-swappable-parameters,-bugprone-reserved-identifier,-bugprone-macro-parentheses,-bugprone-narrowing-conversions,-bugprone-assignment-in-if-condition,-clang-analyzer-security.insecureAPI.DeprecatedOrUnsafeBufferHandling,-clang-analyzer-valist.Uninitialized,-bugprone-sizeof-expression

CHECK_GROUPS += lint
# cppcheck, clang-tidy, file lengths (file_length.sh), the man pages
# (man_pages.sh: no groff warning, no words glued by a font macro)
LINT_TESTS := $(sort $(wildcard tests/lint/*.sh))

check-lint:
	@BUILD=$(BUILD) LINT_SRCS="$(LINT_SRCS)" LINT_CPPFLAGS="$(LINT_CPPFLAGS)" \
	  TIDY_CHECKS="$(TIDY_CHECKS)" CC="$(CC)" \
	  sh mk/run-tests.sh lint $(BUILD)/results $(LINT_TESTS)
