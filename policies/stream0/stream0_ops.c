/*
 * stream0_ops.c - which calls stream0 remaps, serves or observes: each
 * row's op (enum s0_op, stream0.h) in either mode, decided once at init
 * from the row's stream parameter, kind, twin and flags and from its role
 * (include/lbshim/roles.h), never from the row itself but for one named
 * exception.
 */
#include "stream0.h"

uint8_t s0_op[LB_API_COUNT];

/* The op of a row's role in both modes (S0_NONE: the mode decides). */
static unsigned s0_role_op(int i, int devsync, int syncs)
{
	switch (lb_api_info[i].role) {
	case LB_ROLE_STREAM_DESTROY:
		/* Destroy(0) gets the runtime's answer; S is never the
		 * program's */
		return S0_DESTROY;
	case LB_ROLE_DEVICE_SYNC:
		if (syncs)
			return devsync == S0_DEVSYNC_THREAD ? S0_SY_DEVSYNC
							    : S0_NONE;
		return devsync == S0_DEVSYNC_THREAD ? S0_DEVSYNC
						    : S0_DEVSYNC_OBS;
	case LB_ROLE_DEVICE_SET:
		return S0_SETDEV;
	case LB_ROLE_DEVICE_GET:
		return S0_GETDEV;
	case LB_ROLE_DEVICE_RESET:
		return S0_RESET;
	default:
		return S0_NONE;
	}
}

/*
 * syncs mode: the ops of each row.  The legacy null stream is reached by 0
 * and hipStreamLegacy in a plain row and by hipStreamLegacy in an _spt row
 * (there 0 is the runtime's per-thread stream, not ours to follow, nor
 * its captures).
 */
void s0_build_sy_ops(int devsync)
{
	int i, spt;

	for (i = 0; i < LB_API_COUNT; i++) {
		s0_op[i] = S0_NONE;
		if (lb_api_info[i].stream_idx >= 0)
			s0_op[i] = S0_SY_SUBMIT;
		if (lb_api_info[i].flags & LB_F_NULLSYNC)
			s0_op[i] = S0_SY_NULLSYNC;
		spt = !!(lb_api_info[i].flags & LB_F_SPT);
		switch (lb_api_info[i].role) {
		case LB_ROLE_STREAM_SYNC:
			s0_op[i] = S0_SY_SYNC;
			break;
		case LB_ROLE_STREAM_QUERY:
			s0_op[i] = S0_SY_QUERY;
			break;
		case LB_ROLE_COPY_WAIT:
			/* synchronous on its stream: waits for it all, as
			 * the runtime does */
			s0_op[i] = S0_SY_NULLSYNC;
			break;
		case LB_ROLE_STREAM_GET:
		case LB_ROLE_CONFIG_PUSH:
			/* these name a stream but put no work on it */
			s0_op[i] = S0_NONE;
			break;
		case LB_ROLE_CAPTURE_STATUS:
			if (!spt)
				s0_op[i] = S0_NONE;
			break;
		case LB_ROLE_CAPTURE_BEGIN:
			if (!spt)
				s0_op[i] = S0_CAPBEGIN;
			break;
		case LB_ROLE_CAPTURE_END:
			if (!spt)
				s0_op[i] = S0_CAPEND;
			break;
		default:
			if (s0_role_op(i, devsync, 1) != S0_NONE)
				s0_op[i] = (uint8_t)s0_role_op(i, devsync, 1);
			break;
		}
	}
	/*
	 * The exception, by id (and its twins'): in this mode
	 * hipStreamBeginCaptureToGraph is followed as a submission, as it
	 * was before the roles, where its role would make it a capture's
	 * beginning as hipStreamBeginCapture is (an oversight, it seems:
	 * left for whoever owns this mode).
	 */
	for (i = 0; i < LB_API_COUNT; i++)
		if (i == LB_ID_hipStreamBeginCaptureToGraph ||
		    lb_api_hip_twin(i) == LB_ID_hipStreamBeginCaptureToGraph)
			s0_op[i] = S0_SY_SUBMIT;
}

/* remap mode: the ops of each row. */
void s0_build_ops(int devsync)
{
	int i;

	for (i = 0; i < LB_API_COUNT; i++) {
		unsigned role = lb_api_info[i].role;

		if (lb_api_info[i].stream_idx >= 0)
			s0_op[i] = S0_SUBMIT;
		/*
		 * A query or setting of the stream puts no work on it.  The
		 * program's null stream is S now, as it would be if built
		 * with -fgpu-default-stream=per-thread: its flags and
		 * priority are S's.
		 */
		if (lb_api_info[i].stream_idx >= 0 &&
		    lb_api_info[i].kind == LB_KIND_STREAM)
			s0_op[i] = S0_REMAP;
		/*
		 * Synchronous on the null stream (the _spt forms too, on
		 * S): served by the Async twin on S.  One with no twin
		 * stays on the legacy null stream.
		 */
		if (lb_api_info[i].twin >= 0)
			s0_op[i] = S0_NULLSYNC;
		switch (role) {
		case LB_ROLE_KERNEL_NAME:
			/* a name looked up by the stream's device: no work */
			s0_op[i] = S0_REMAP;
			break;
		case LB_ROLE_STREAM_SYNC:
		case LB_ROLE_COPY_WAIT:
			/* synchronous on its stream: a copy also waits for
			 * what S had */
			s0_op[i] = S0_SYNC;
			break;
		case LB_ROLE_STREAM_QUERY:
			s0_op[i] = S0_QUERY;
			break;
		case LB_ROLE_CAPTURE_BEGIN:
			s0_op[i] = S0_CAPBEGIN;
			break;
		case LB_ROLE_CAPTURE_END:
			s0_op[i] = S0_CAPEND;
			break;
		case LB_ROLE_CALLBACK:
			/* the _spt form is left alone (struct s0_cb) */
			if (!(lb_api_info[i].flags & LB_F_SPT))
				s0_op[i] = S0_CALLBACK;
			break;
		case LB_ROLE_CONFIG_PUSH:
			/*
			 * The <<<>>> configuration is handed back to the
			 * launch, which is remapped itself; S is not shown to
			 * the program through it.
			 */
			s0_op[i] = S0_NONE;
			break;
		case LB_ROLE_FREE:
		case LB_ROLE_FREE_HOST:
			/*
			 * The runtime's hipFree, hipHostFree and hipFreeHost
			 * wait for every stream of the device first (clr
			 * hipamd/src/hip_memory.cpp ihipFree, SyncAllStreams,
			 * rocm-6.2.0): to the hazard check, a device sync.
			 */
			s0_op[i] = S0_FREE;
			break;
		default:
			if (s0_role_op(i, devsync, 0) != S0_NONE)
				s0_op[i] = (uint8_t)s0_role_op(i, devsync, 0);
			break;
		}
		/*
		 * Where the runtime's per-thread rows already run on the
		 * thread's own default stream (CUDA's _ptsz/_ptds: rt.h,
		 * spt_alone), they are left to it, their syncs too.
		 */
		if (lb_rt->spt_alone && (lb_api_info[i].flags & LB_F_SPT) &&
		    lb_api_info[i].role != LB_ROLE_DEVICE_SYNC)
			s0_op[i] = S0_NONE;
	}
}
