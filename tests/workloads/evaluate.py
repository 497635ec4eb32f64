#!/usr/bin/env python3
"""evaluate.py - a small embodied-evaluation pipeline, lbshim's demo.

Three threads share one GPU through the evalpipe extension (evalpipe.hip):

  camera   30 Hz   vision encoder: preprocess -> encode -> pool (12 ms)
  imu     200 Hz   fusion kernel (0.3 ms) then hipStreamSynchronize(0),
                   what torch.cuda.current_stream().synchronize() becomes
                   on PyTorch's default stream
  sampler  50 Hz   policy head (1 ms) -> action

written as quick research code is: everything on the null stream, scratch
buffers hipMalloc'ed and hipFree'd every step.  At the end it prints each
thread's per-step latency (p50, p99) and how many steps overran their
period.  Runs on hipemu (DEVELOPING.md, "What the demo runs on") or,
unchanged, on a real ROCm GPU once evalpipe.so is built there
(DEVELOPING.md, "The same evaluate.py on a real GPU").

usage: evaluate.py [--seconds S] [--quiet]   (EVAL_SECONDS sets the default)
"""
import argparse
import os
import sys
import threading

# Name the main thread before the import: the extension's first HIP call
# (its kernel registration) happens at import, and a trace names each
# thread as it is then.  Linux only; harmless where it fails.
try:
    import ctypes
    ctypes.CDLL(None).prctl(15, b"main", 0, 0, 0)  # PR_SET_NAME
except (OSError, AttributeError):
    pass

here = os.path.dirname(os.path.abspath(__file__))
for d in (os.environ.get("EVALPIPE_DIR"), here,
          os.path.join(here, "..", "..", "build", "workloads")):
    if d and os.path.exists(os.path.join(d, "evalpipe.so")):
        sys.path.insert(0, d)
        break
import evalpipe  # noqa: E402  (after the path is set)
from pacing import Loop, percentile  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float,
                    default=float(os.environ.get("EVAL_SECONDS", "10")))
    ap.add_argument("--quiet", action="store_true",
                    help="no header line, only the per-thread results")
    a = ap.parse_args()

    evalpipe.set_thread_name("main")
    evalpipe.init()
    stop = threading.Event()
    loops = [
        Loop("camera", 30, evalpipe.camera_step, stop,
             name_thread=evalpipe.set_thread_name),
        Loop("imu", 200, evalpipe.imu_step, stop,
             name_thread=evalpipe.set_thread_name),
        Loop("sampler", 50, lambda i: evalpipe.sample_step(), stop,
             name_thread=evalpipe.set_thread_name),
    ]
    if not a.quiet:
        print(f"evaluate.py: {a.seconds:g} s, threads: "
              + ", ".join(f"{x.name} {x.hz} Hz" for x in loops), flush=True)
    for x in loops:
        x.start()
    stop.wait(a.seconds)
    stop.set()
    for x in loops:
        x.join()
    failed = [x for x in loops if x.error]
    for x in loops:
        lat = sorted(x.lat_ms)
        print(f"  {x.name:8s} {len(lat):5d} steps  p50 {percentile(lat, .5):7.2f} ms"
              f"  p99 {percentile(lat, .99):7.2f} ms"
              f"  overran {x.overruns} ({100.0 * x.overruns / max(1, len(lat)):.0f}%)",
              flush=True)
    for x in failed:
        print(f"evaluate.py: {x.name} failed: {x.error}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
