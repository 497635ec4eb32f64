"""pacing.py - what the two pipeline programs (evaluate.py on hipemu,
evaluate_torch.py on PyTorch) share: a thread that calls a step at a fixed
rate and measures it, and the nearest-rank percentile they report.

Imported from the programs' own directory (Python puts a script's
directory first on sys.path), so either program runs by its path alone.
"""
import threading
import time


def percentile(sorted_ms, q):
    """Nearest-rank quantile q (0..1] of an ascending list."""
    if not sorted_ms:
        return float("nan")
    k = max(1, min(len(sorted_ms), int(-(-q * len(sorted_ms) // 1))))
    return sorted_ms[k - 1]


class Loop(threading.Thread):
    """Calls step(i) every 1/hz seconds until stop is set; a step that is
    late starts at once, without trying to catch up.  name_thread(name),
    if given, runs first on the thread (the OS name traces see).  Each
    step's latency goes to lat_ms, a step longer than the period counts
    in overruns; an exception stops every loop (stop is set) and is kept
    in error for main to report."""

    def __init__(self, name, hz, step, stop, name_thread=None):
        super().__init__(name=name, daemon=True)
        self.hz, self.step, self.stop = hz, step, stop
        self.name_thread = name_thread
        self.lat_ms, self.overruns, self.error = [], 0, None

    def run(self):
        if self.name_thread:
            self.name_thread(self.name)
        period = 1.0 / self.hz
        nxt = time.perf_counter()
        i = 0
        try:
            while not self.stop.is_set():
                t0 = time.perf_counter()
                self.step(i)
                dt = time.perf_counter() - t0
                self.lat_ms.append(dt * 1e3)
                if dt > period:
                    self.overruns += 1
                i += 1
                nxt += period
                wait = nxt - time.perf_counter()
                if wait > 0:
                    time.sleep(wait)
                else:
                    nxt = time.perf_counter()  # late: do not catch up
        except Exception as e:  # reported by main, which exits non-zero
            self.error = e
            self.stop.set()
