#!/usr/bin/env python3
"""evaluate_torch.py - the embodied-evaluation pipeline as a PyTorch program.

The same three threads as evaluate.py (lbshim's hipemu demo), written the
way research code is, on one GPU (or the CPU):

  camera   30 Hz   grab a uint8 frame, upload it, resize and normalize,
                   a torchvision encoder (ResNet-18, or a small ViT) in
                   fp16, torch.cuda.synchronize() to time it, features
                   back to the host
  imu     200 Hz   upload a sample into a window of IMU samples, a tiny MLP
                   updates the fused state, a non-blocking copy of it to the
                   host, then torch.cuda.current_stream().synchronize()
  sampler  50 Hz   upload the latest features and IMU state, a policy head,
                   torch.multinomial(...).item(): the action

Everything is on the default stream, and every step allocates its tensors
from PyTorch's caching allocator.  The threads share no device tensor: what
one thread hands another goes through the host, as in evaluate.py.  Weights
are random (no download): the timing is what matters.

It prints each thread's step latency (p50, p99, how many steps overran the
thread's period) and the end-to-end time from the capture of a camera frame
to each action that used it, against the loop's 80 ms budget; --json FILE
writes the same, with every sample, as one JSON line.

Each thread gets its OS name (PR_SET_NAME: camera, imu, sampler, main), the
name lbshim's LBSHIM_STREAM0_THREADS globs and its traces see.

Runs with PyTorch 1.13 (Debian 12) and 2.x, on CUDA, ROCm or the CPU
(--device cpu: the same code, fp32, the syncs are no-ops there).

usage: evaluate_torch.py [--device cuda|cpu] [--seconds S | --short]
                         [--json FILE] [--seed N] [--threads LIST] ...
"""
import argparse
import ctypes
import json
import os
import sys
import threading
import time

import pacing
from pacing import percentile

PR_SET_NAME = 15


def set_os_thread_name(name):
    """Names the calling OS thread (Linux, 15 bytes at most).

    threading.Thread(name=...) names only Python's object; lbshim, ps and
    the trace see the kernel's name.  Harmless where prctl is missing.
    """
    try:
        ctypes.CDLL(None).prctl(PR_SET_NAME, name.encode()[:15], 0, 0, 0)
    except (OSError, AttributeError):
        pass


def os_thread_name(tid=None):
    """The kernel's name of thread tid (default: the calling one), or None."""
    if tid is None:
        tid = threading.get_native_id()
    try:
        with open(f"/proc/self/task/{tid}/comm") as f:
            return f.read().strip()
    except OSError:
        return None


def lbshim_loaded():
    """Whether lbshim's preload library is mapped in this process."""
    try:
        with open("/proc/self/maps") as f:
            return any("liblbshim" in line for line in f)
    except OSError:
        return None


def os_thread_names():
    """The kernel's names of all the process's threads, sorted."""
    try:
        tids = os.listdir("/proc/self/task")
    except OSError:
        return []
    return sorted(n for n in (os_thread_name(t) for t in tids) if n)


# Name the main thread before torch is imported: on a GPU, CUDA's and
# HIP's kernel registrations run while torch's libraries load, and a trace
# names each thread as it is then.  A thread inherits its creator's name:
# the threads torch starts while main warms up are "main" too; those it
# starts from a loop's thread (on the CPU, OpenMP's) carry that loop's.
set_os_thread_name("main")

import torch  # noqa: E402  (after the thread is named)
import torchvision  # noqa: E402

CAMERA_HZ, IMU_HZ, SAMPLER_HZ = 30, 200, 50
FRAME_H, FRAME_W = 480, 640       # the camera's uint8 frames, HWC
IMU_CH, IMU_WINDOW = 6, 50        # accelerometer + gyroscope, 250 ms
STATE_DIM, N_ACTIONS = 16, 16
MEAN, STD = (0.485, 0.456, 0.406), (0.229, 0.224, 0.225)  # ImageNet's


def sync(dev):
    """torch.cuda.synchronize(): waits for the whole GPU.  On the CPU,
    every op has finished when it returns: nothing to wait for."""
    if dev.type == "cuda":
        torch.cuda.synchronize()


def stream_sync(dev):
    """torch.cuda.current_stream().synchronize(): waits for the current
    stream, here the default (null) stream.  Nothing to do on the CPU."""
    if dev.type == "cuda":
        torch.cuda.current_stream().synchronize()



def build_encoder(name):
    """A torchvision encoder with random weights, its head removed, and the
    size of the features it returns."""
    if name == "resnet18":
        m = torchvision.models.resnet18(weights=None)
        m.fc = torch.nn.Identity()
        return m, 512
    # ViT-Ti/16's shape (DeiT-Tiny), torchvision's own ViT class.
    m = torchvision.models.VisionTransformer(
        image_size=224, patch_size=16, num_layers=12, num_heads=3,
        hidden_dim=192, mlp_dim=768)
    m.heads = torch.nn.Identity()
    return m, 192


class Pipeline:
    """The models, the inputs and what the threads hand each other."""

    def __init__(self, a, dev):
        self.dev = dev
        self.dtype = torch.float16 if a.dtype == "fp16" else torch.float32
        self.size = a.size
        torch.manual_seed(a.seed)
        enc, feat_dim = build_encoder(a.model)
        self.encoder = enc.eval().to(dev, self.dtype)
        self.fusion = torch.nn.Sequential(
            torch.nn.Linear(IMU_WINDOW * IMU_CH, 128), torch.nn.ReLU(),
            torch.nn.Linear(128, STATE_DIM)).eval().to(dev)
        self.policy = torch.nn.Sequential(
            torch.nn.Linear(feat_dim + STATE_DIM, 256), torch.nn.ReLU(),
            torch.nn.Linear(256, N_ACTIONS)).eval().to(dev)
        self.mean = torch.tensor(MEAN, device=dev).view(1, 3, 1, 1)
        self.std = torch.tensor(STD, device=dev).view(1, 3, 1, 1)
        # What the sensors deliver, on the host, made once: a few frames
        # and a few seconds of IMU samples, replayed in a loop.
        g = torch.Generator().manual_seed(a.seed)
        self.frames = [torch.randint(0, 256, (FRAME_H, FRAME_W, 3),
                                     dtype=torch.uint8, generator=g)
                       for _ in range(4)]
        self.imu_samples = torch.randn(4 * IMU_HZ, IMU_CH, generator=g)
        self.window = torch.zeros(IMU_WINDOW, IMU_CH, device=dev)
        self.state = torch.zeros(STATE_DIM, device=dev)
        # Handed between threads, on the host, under the lock.
        self.lock = threading.Lock()
        self.latest_feat = None       # (features, frame number, capture time)
        self.latest_state = torch.zeros(STATE_DIM)
        self.frame_no = 0
        self.encoder_ms = []          # the camera's encoder alone, synced
        self.e2e_ms = []              # frame capture -> action, per action
        self.frames_used = set()

    @torch.inference_mode()
    def camera_step(self, i):
        t_capture = time.perf_counter()
        frame = self.frames[i % len(self.frames)].to(self.dev)
        x = frame.permute(2, 0, 1).unsqueeze(0).float().div_(255)
        x = torchvision.transforms.functional.resize(
            x, [self.size, self.size], antialias=True)
        x = ((x - self.mean) / self.std).to(self.dtype)
        t0 = time.perf_counter()
        feat = self.encoder(x)
        sync(self.dev)  # time the encoder, as everyone does
        self.encoder_ms.append((time.perf_counter() - t0) * 1e3)
        feat = feat.float().cpu()
        with self.lock:
            self.frame_no += 1
            self.latest_feat = (feat, self.frame_no, t_capture)

    @torch.inference_mode()
    def imu_step(self, i):
        sample = self.imu_samples[i % len(self.imu_samples)].to(self.dev)
        self.window = torch.cat((self.window[1:], sample.unsqueeze(0)))
        delta = self.fusion(self.window.flatten())
        self.state = 0.9 * self.state + 0.1 * torch.tanh(delta)
        state = self.state.to("cpu", non_blocking=True)
        stream_sync(self.dev)  # the copy above has landed
        with self.lock:
            self.latest_state = state

    @torch.inference_mode()
    def sampler_step(self, i):
        with self.lock:
            feat, frame_no, t_capture = self.latest_feat
            state = self.latest_state
        x = torch.cat((feat, state.unsqueeze(0)), dim=1).to(self.dev)
        probs = torch.softmax(self.policy(x), dim=-1)
        action = torch.multinomial(probs, 1).item()
        self.e2e_ms.append((time.perf_counter() - t_capture) * 1e3)
        self.frames_used.add(frame_no)
        return action


class Loop(pacing.Loop):
    """pacing.Loop, its thread named for the OS (and the name read back),
    with its figures as the JSON line reports them."""

    def __init__(self, name, hz, step, stop):
        super().__init__(name, hz, step, stop, name_thread=self._name_os)
        self.os_name = None

    def _name_os(self, name):
        set_os_thread_name(name)
        self.os_name = os_thread_name()

    def result(self):
        lat = sorted(self.lat_ms)
        return {
            "hz": self.hz,
            "period_ms": round(1e3 / self.hz, 3),
            "os_name": self.os_name,
            "steps": len(lat),
            "p50_ms": round(percentile(lat, 0.5), 4),
            "p99_ms": round(percentile(lat, 0.99), 4),
            "max_ms": round(lat[-1], 4) if lat else None,
            "overruns": self.overruns,
            "overrun_pct": round(100.0 * self.overruns / max(1, len(lat)), 2),
            "error": (f"{type(self.error).__name__}: {self.error}"
                      if self.error else None),
            "samples_ms": [round(x, 4) for x in self.lat_ms],
        }


def summary_of(values, budget_ms=None):
    """p50, p99, max and the count of values (ms), with how many exceeded
    budget_ms where one is given."""
    s = sorted(values)
    out = {"count": len(s), "p50_ms": round(percentile(s, 0.5), 4),
           "p99_ms": round(percentile(s, 0.99), 4),
           "max_ms": round(s[-1], 4) if s else None}
    if budget_ms is not None:
        over = sum(1 for x in s if x > budget_ms)
        out.update(budget_ms=budget_ms, over_budget=over,
                   over_budget_pct=round(100.0 * over / max(1, len(s)), 2))
    return out


def parse_args(argv):
    ap = argparse.ArgumentParser(
        description=__doc__.splitlines()[0].split(" - ", 1)[1])
    ap.add_argument("--device", choices=("cuda", "cpu"),
                    help="default: cuda when PyTorch sees a GPU, else cpu")
    ap.add_argument("--seconds", type=float,
                    default=float(os.environ.get("EVAL_SECONDS", "10")),
                    help="measured time (default: $EVAL_SECONDS or 10)")
    ap.add_argument("--short", action="store_true",
                    help="a 3-second run, for tests")
    ap.add_argument("--seed", type=int, default=0,
                    help="weights and inputs (not the timing)")
    ap.add_argument("--threads", default="camera,imu,sampler",
                    help="comma list of the threads to run")
    ap.add_argument("--model", choices=("resnet18", "vit-tiny"),
                    default="resnet18", help="the camera's encoder")
    ap.add_argument("--dtype", choices=("auto", "fp16", "fp32"),
                    default="auto",
                    help="the encoder's (auto: fp16 on a GPU, fp32 on the "
                    "CPU, where fp16 convolutions are not supported "
                    "everywhere)")
    ap.add_argument("--size", type=int, default=224,
                    help="the encoder's input, square (default 224)")
    ap.add_argument("--budget-ms", type=float, default=80.0,
                    help="the loop's end-to-end budget (default 80)")
    ap.add_argument("--warmup", type=int, default=3,
                    help="unmeasured steps of each thread, run by main "
                    "first (cuDNN's autotuning, the allocator's first "
                    "blocks)")
    ap.add_argument("--json", metavar="FILE",
                    help="write the results as one JSON line ('-': stdout)")
    ap.add_argument("--quiet", action="store_true",
                    help="no header line, only the results")
    a = ap.parse_args(argv)
    if a.short:
        a.seconds = 3.0
    if a.device is None:
        a.device = "cuda" if torch.cuda.is_available() else "cpu"
    if a.device == "cuda" and not torch.cuda.is_available():
        ap.error("--device cuda: this PyTorch sees no GPU "
                 f"(torch {torch.__version__}, CUDA {torch.version.cuda})")
    if a.dtype == "auto":
        a.dtype = "fp16" if a.device == "cuda" else "fp32"
    a.threads = [t for t in a.threads.split(",") if t]
    bad = set(a.threads) - {"camera", "imu", "sampler"}
    if bad or not a.threads:
        ap.error(f"--threads: {','.join(sorted(bad)) or 'none'}: "
                 "choose among camera, imu, sampler")
    return a


def describe(a, dev):
    """What ran where: versions and the device, for the JSON's reader."""
    d = {"torch": torch.__version__, "torchvision": torchvision.__version__,
         "python": sys.version.split()[0], "device": a.device,
         "cuda": torch.version.cuda,
         "hip": getattr(torch.version, "hip", None),
         "cpu_threads": torch.get_num_threads()}
    if dev.type == "cuda":
        d["device_name"] = torch.cuda.get_device_name(dev)
    else:
        d["device_name"] = "cpu"
    return d


def report(a, loops, pipe, info, wall_s):
    """The results as one dict (the JSON line) and the human summary."""
    e2e = None
    if "sampler" in a.threads:
        e2e = summary_of(pipe.e2e_ms, a.budget_ms)
        e2e["frames"] = pipe.frame_no
        e2e["frames_used"] = len(pipe.frames_used)
        e2e["samples_ms"] = [round(x, 4) for x in pipe.e2e_ms]
    camera = next((x for x in loops if x.name == "camera"), None)
    res = {
        "program": "evaluate_torch.py", "format": 1,
        "time": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "seconds": a.seconds, "wall_s": round(wall_s, 3), "seed": a.seed,
        "model": a.model, "dtype": a.dtype, "size": a.size,
        **info,
        "lbshim": {"loaded": lbshim_loaded(),
                   "env": {k: v for k, v in os.environ.items()
                           if k.startswith("LBSHIM_")}},
        "threads": {x.name: x.result() for x in loops},
        "encoder": summary_of(pipe.encoder_ms) if camera else None,
        "e2e": e2e,
        "os_threads": os_thread_names(),
        "ok": not any(x.error for x in loops),
    }
    lines = []
    for x in loops:
        lat = sorted(x.lat_ms)
        lines.append(
            f"  {x.name:8s} {len(lat):5d} steps  p50 {percentile(lat, .5):7.2f} ms"
            f"  p99 {percentile(lat, .99):7.2f} ms"
            f"  overran {x.overruns} ({100.0 * x.overruns / max(1, len(lat)):.0f}%)")
    if res["encoder"]:
        r = res["encoder"]
        lines.append(f"  {'encoder':8s} {r['count']:5d} calls  "
                     f"p50 {r['p50_ms']:7.2f} ms  p99 {r['p99_ms']:7.2f} ms"
                     f"  ({a.model} {a.dtype}, synced)")
    if e2e:
        lines.append(
            f"  {'e2e':8s} {e2e['count']:5d} actions p50 {e2e['p50_ms']:7.2f} ms"
            f"  p99 {e2e['p99_ms']:7.2f} ms  over {a.budget_ms:g} ms: "
            f"{e2e['over_budget']} ({e2e['over_budget_pct']:.0f}%)"
            f"  (frame capture -> action)")
    return res, lines


def main(argv=None):
    a = parse_args(argv)
    dev = torch.device(a.device)
    if dev.type == "cuda":
        torch.backends.cudnn.benchmark = True
    pipe = Pipeline(a, dev)
    info = describe(a, dev)
    # Warm up in main: the CUDA context, cuDNN's choice of algorithms and
    # the CPU's thread pool are made here, and the sampler has features
    # and an IMU state before its first step.
    for i in range(max(1, a.warmup)):
        pipe.camera_step(i)
        pipe.imu_step(i)
        pipe.sampler_step(i)
    sync(dev)
    pipe.encoder_ms.clear()
    pipe.e2e_ms.clear()
    pipe.frames_used.clear()
    pipe.frame_no = 0

    stop = threading.Event()
    steps = {"camera": (CAMERA_HZ, pipe.camera_step),
             "imu": (IMU_HZ, pipe.imu_step),
             "sampler": (SAMPLER_HZ, pipe.sampler_step)}
    loops = [Loop(n, *steps[n], stop) for n in ("camera", "imu", "sampler")
             if n in a.threads]
    if not a.quiet:
        print(f"evaluate_torch.py: {a.seconds:g} s on {info['device_name']}"
              f" ({a.device}), {a.model} {a.dtype}, torch {torch.__version__}"
              "; threads: " + ", ".join(f"{x.name} {x.hz} Hz" for x in loops),
              flush=True)
    t0 = time.perf_counter()
    for x in loops:
        x.start()
    stop.wait(a.seconds)
    stop.set()
    for x in loops:
        x.join()
    sync(dev)
    res, lines = report(a, loops, pipe, info, time.perf_counter() - t0)
    print("\n".join(lines), flush=True)
    for x in loops:
        if x.error:
            print(f"evaluate_torch.py: {x.name} failed: "
                  f"{type(x.error).__name__}: {x.error}",
                  file=sys.stderr)
    if a.json == "-":
        print(json.dumps(res), flush=True)
    elif a.json:
        with open(a.json, "w") as f:
            f.write(json.dumps(res) + "\n")
    return 0 if res["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
