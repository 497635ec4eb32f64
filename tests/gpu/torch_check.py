#!/usr/bin/env python3
"""torch_check.py - PyTorch on the GPU, for make check-gpu (issue #35).

  infer   ResNet-50, batch 1, fp32, eval mode: STEPS timed steps after a
          warm-up, each ended by torch.cuda.synchronize(); prints the
          p50/p90 step time and a digest of every step's output
  train   a training step of ResNet-50 (batch 8, SGD): forward, backward
          (PyTorch runs it on its autograd thread, pt_autograd_0) and the
          optimizer step; prints the step time and a digest of the loss
          values and of the weights at the end

Deterministic: fixed seeds, cuDNN's deterministic algorithms, no
benchmark mode, TF32 off, so two runs of the same mode give the same
digest, with or without lbshim.  Random weights (no download).

usage: torch_check.py infer|train [--steps N] [--json FILE]
"""
import argparse
import hashlib
import json
import sys
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["infer", "train"])
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--warmup", type=int, default=20)
    ap.add_argument("--json")
    a = ap.parse_args()
    if a.steps < 1 or a.warmup < 0:
        ap.error("--steps must be >= 1 and --warmup >= 0")

    import torch
    import torchvision

    if not torch.cuda.is_available():
        print("torch_check: no CUDA device", file=sys.stderr)
        return 2
    torch.manual_seed(0)
    torch.backends.cudnn.benchmark = False
    torch.backends.cudnn.deterministic = True
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    torch.use_deterministic_algorithms(True, warn_only=True)
    dev = torch.device("cuda")
    model = torchvision.models.resnet50(weights=None).to(dev)
    h = hashlib.sha256()
    times = []
    if a.mode == "infer":
        model.eval()
        x = torch.randn(1, 3, 224, 224, generator=torch.Generator().manual_seed(1)).to(dev)
        with torch.no_grad():
            for i in range(a.warmup + a.steps):
                t0 = time.perf_counter()
                y = model(x)
                torch.cuda.synchronize()
                t = time.perf_counter() - t0
                if i >= a.warmup:
                    times.append(t)
                if i == a.warmup:
                    h.update(y.cpu().numpy().tobytes())
    else:
        model.train()
        opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
        g = torch.Generator().manual_seed(2)
        x = torch.randn(8, 3, 224, 224, generator=g).to(dev)
        lab = torch.randint(0, 1000, (8,), generator=g).to(dev)
        lossf = torch.nn.CrossEntropyLoss()
        for i in range(a.warmup + a.steps):
            t0 = time.perf_counter()
            opt.zero_grad(set_to_none=True)
            loss = lossf(model(x), lab)
            loss.backward()
            opt.step()
            lv = loss.item()
            t = time.perf_counter() - t0
            if i >= a.warmup:
                times.append(t)
            h.update(repr(lv).encode())
        for p in model.parameters():
            h.update(p.detach().cpu().numpy().tobytes())
    times.sort()
    p50 = times[len(times) // 2] * 1e3
    p90 = times[int(len(times) * 0.9)] * 1e3
    res = {"mode": a.mode, "steps": a.steps, "p50_ms": round(p50, 4),
           "p90_ms": round(p90, 4), "digest": h.hexdigest()[:16],
           "torch": torch.__version__,
           "device": torch.cuda.get_device_name(0)}
    print("torch_check: %s steps=%d p50_ms=%.4f p90_ms=%.4f digest=%s"
          % (a.mode, a.steps, p50, p90, res["digest"]))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(res, f)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
