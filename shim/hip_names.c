/*
 * hip_names.c - names of the numbers a trace holds: hipError_t (from the
 * enum in /usr/include/hip/hip_runtime_api.h, ROCm 5.2, which is the
 * truth: tests/tools/lbtrace/test_errnames.sh compares this table with it),
 * hipMemcpyKind, signals and their si_code values.  lbtrace does not link
 * the HIP runtime, so the names live here.
 */
#include <signal.h>
#include <stddef.h>
#include "lbshim/names.h"

struct code_name {
	int code;
	const char *name;
};

/* First name of each value, as hipGetErrorName() reports it. */
static const struct code_name hip_errors[] = {
    {0, "hipSuccess"},
    {1, "hipErrorInvalidValue"},
    {2, "hipErrorOutOfMemory"},
    {3, "hipErrorNotInitialized"},
    {4, "hipErrorDeinitialized"},
    {5, "hipErrorProfilerDisabled"},
    {6, "hipErrorProfilerNotInitialized"},
    {7, "hipErrorProfilerAlreadyStarted"},
    {8, "hipErrorProfilerAlreadyStopped"},
    {9, "hipErrorInvalidConfiguration"},
    {12, "hipErrorInvalidPitchValue"},
    {13, "hipErrorInvalidSymbol"},
    {17, "hipErrorInvalidDevicePointer"},
    {21, "hipErrorInvalidMemcpyDirection"},
    {35, "hipErrorInsufficientDriver"},
    {52, "hipErrorMissingConfiguration"},
    {53, "hipErrorPriorLaunchFailure"},
    {98, "hipErrorInvalidDeviceFunction"},
    {100, "hipErrorNoDevice"},
    {101, "hipErrorInvalidDevice"},
    {200, "hipErrorInvalidImage"},
    {201, "hipErrorInvalidContext"},
    {202, "hipErrorContextAlreadyCurrent"},
    {205, "hipErrorMapFailed"},
    {206, "hipErrorUnmapFailed"},
    {207, "hipErrorArrayIsMapped"},
    {208, "hipErrorAlreadyMapped"},
    {209, "hipErrorNoBinaryForGpu"},
    {210, "hipErrorAlreadyAcquired"},
    {211, "hipErrorNotMapped"},
    {212, "hipErrorNotMappedAsArray"},
    {213, "hipErrorNotMappedAsPointer"},
    {214, "hipErrorECCNotCorrectable"},
    {215, "hipErrorUnsupportedLimit"},
    {216, "hipErrorContextAlreadyInUse"},
    {217, "hipErrorPeerAccessUnsupported"},
    {218, "hipErrorInvalidKernelFile"},
    {219, "hipErrorInvalidGraphicsContext"},
    {300, "hipErrorInvalidSource"},
    {301, "hipErrorFileNotFound"},
    {302, "hipErrorSharedObjectSymbolNotFound"},
    {303, "hipErrorSharedObjectInitFailed"},
    {304, "hipErrorOperatingSystem"},
    {400, "hipErrorInvalidHandle"},
    {401, "hipErrorIllegalState"},
    {500, "hipErrorNotFound"},
    {600, "hipErrorNotReady"},
    {700, "hipErrorIllegalAddress"},
    {701, "hipErrorLaunchOutOfResources"},
    {702, "hipErrorLaunchTimeOut"},
    {704, "hipErrorPeerAccessAlreadyEnabled"},
    {705, "hipErrorPeerAccessNotEnabled"},
    {708, "hipErrorSetOnActiveProcess"},
    {709, "hipErrorContextIsDestroyed"},
    {710, "hipErrorAssert"},
    {712, "hipErrorHostMemoryAlreadyRegistered"},
    {713, "hipErrorHostMemoryNotRegistered"},
    {719, "hipErrorLaunchFailure"},
    {720, "hipErrorCooperativeLaunchTooLarge"},
    {801, "hipErrorNotSupported"},
    {900, "hipErrorStreamCaptureUnsupported"},
    {901, "hipErrorStreamCaptureInvalidated"},
    {902, "hipErrorStreamCaptureMerge"},
    {903, "hipErrorStreamCaptureUnmatched"},
    {904, "hipErrorStreamCaptureUnjoined"},
    {905, "hipErrorStreamCaptureIsolation"},
    {906, "hipErrorStreamCaptureImplicit"},
    {907, "hipErrorCapturedEvent"},
    {908, "hipErrorStreamCaptureWrongThread"},
    {910, "hipErrorGraphExecUpdateFailure"},
    {999, "hipErrorUnknown"},
    {1052, "hipErrorRuntimeMemory"},
    {1053, "hipErrorRuntimeOther"},
};

static const char *find(const struct code_name *t, size_t n, int code)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (t[i].code == code)
			return t[i].name;
	return NULL;
}

const char *lbt_hip_error_name(int code)
{
	return find(hip_errors, sizeof(hip_errors) / sizeof(hip_errors[0]),
		    code);
}

int lbt_hip_error_count(void)
{
	return sizeof(hip_errors) / sizeof(hip_errors[0]);
}

int lbt_hip_error_at(int i, const char **name)
{
	*name = hip_errors[i].name;
	return hip_errors[i].code;
}

const char *lbt_memcpy_kind_name(unsigned kind)
{
	static const char *const names[] = {
	    "hipMemcpyHostToHost",   "hipMemcpyHostToDevice",
	    "hipMemcpyDeviceToHost", "hipMemcpyDeviceToDevice",
	    "hipMemcpyDefault",
	};

	return kind < 5 ? names[kind] : NULL;
}

const char *lbt_signal_name(int signo)
{
	static const struct code_name sigs[] = {
	    {SIGHUP, "SIGHUP"},	  {SIGINT, "SIGINT"},	{SIGQUIT, "SIGQUIT"},
	    {SIGILL, "SIGILL"},	  {SIGTRAP, "SIGTRAP"}, {SIGABRT, "SIGABRT"},
	    {SIGBUS, "SIGBUS"},	  {SIGFPE, "SIGFPE"},	{SIGKILL, "SIGKILL"},
	    {SIGUSR1, "SIGUSR1"}, {SIGSEGV, "SIGSEGV"}, {SIGUSR2, "SIGUSR2"},
	    {SIGPIPE, "SIGPIPE"}, {SIGALRM, "SIGALRM"}, {SIGTERM, "SIGTERM"},
	    {SIGSYS, "SIGSYS"},
	};

	return find(sigs, sizeof(sigs) / sizeof(sigs[0]), signo);
}

const char *lbt_si_code_name(int signo, int code)
{
	static const struct code_name segv[] = {
	    {SEGV_MAPERR, "SEGV_MAPERR"},
	    {SEGV_ACCERR, "SEGV_ACCERR"},
	};
	static const struct code_name bus[] = {
	    {BUS_ADRALN, "BUS_ADRALN"},
	    {BUS_ADRERR, "BUS_ADRERR"},
	    {BUS_OBJERR, "BUS_OBJERR"},
	};
	static const struct code_name fpe[] = {
	    {FPE_INTDIV, "FPE_INTDIV"}, {FPE_INTOVF, "FPE_INTOVF"},
	    {FPE_FLTDIV, "FPE_FLTDIV"}, {FPE_FLTOVF, "FPE_FLTOVF"},
	    {FPE_FLTUND, "FPE_FLTUND"}, {FPE_FLTRES, "FPE_FLTRES"},
	    {FPE_FLTINV, "FPE_FLTINV"}, {FPE_FLTSUB, "FPE_FLTSUB"},
	};
	static const struct code_name ill[] = {
	    {ILL_ILLOPC, "ILL_ILLOPC"}, {ILL_ILLOPN, "ILL_ILLOPN"},
	    {ILL_ILLADR, "ILL_ILLADR"}, {ILL_ILLTRP, "ILL_ILLTRP"},
	    {ILL_PRVOPC, "ILL_PRVOPC"}, {ILL_PRVREG, "ILL_PRVREG"},
	    {ILL_COPROC, "ILL_COPROC"}, {ILL_BADSTK, "ILL_BADSTK"},
	};
	static const struct code_name any[] = {
	    {SI_USER, "SI_USER"},
	    {SI_KERNEL, "SI_KERNEL"},
	    {SI_QUEUE, "SI_QUEUE"},
	    {SI_TKILL, "SI_TKILL"},
	};
	const char *n = find(any, sizeof(any) / sizeof(any[0]), code);

	if (n || code <= 0)
		return n;
	switch (signo) {
	case SIGSEGV:
		return find(segv, sizeof(segv) / sizeof(segv[0]), code);
	case SIGBUS:
		return find(bus, sizeof(bus) / sizeof(bus[0]), code);
	case SIGFPE:
		return find(fpe, sizeof(fpe) / sizeof(fpe[0]), code);
	case SIGILL:
		return find(ill, sizeof(ill) / sizeof(ill[0]), code);
	}
	return NULL;
}
