#!/usr/bin/env python3
"""cuda_apis.py CC INCLUDE - the functions NVIDIA's cuda_runtime_api.h and
cuda.h declare that take a stream (a cudaStream_t or CUstream parameter)
or allocate or free memory (Malloc, Alloc or Free in the name), one
exported name a line.

The headers are read as a compiler reads them (CC -E), twice: as they
are, and with CUDA_API_PER_THREAD_DEFAULT_STREAM, which turns their
#defines into the per-thread names (cudaMemcpyAsync_ptsz, cuMemcpy_ptds)
and cuda.h's versioned ones (cuMemAlloc is cuMemAlloc_v2).  A
declaration is a prototype that returns cudaError_t or CUresult."""
import re
import subprocess
import sys

PROTO = re.compile(r'\b(CUresult|cudaError_t)\s+((?:__)?cu\w+)\s*'
                   r'\(([^;{}()]*(?:\([^()]*\)[^;{}()]*)*)\)\s*;')


def main():
    cc, inc = sys.argv[1:3]
    src = '#include <cuda.h>\n#include <cuda_runtime_api.h>\n'
    out = set()
    for extra in ([], ['-DCUDA_API_PER_THREAD_DEFAULT_STREAM']):
        text = subprocess.run([cc, '-E', '-P'] + extra + ['-I' + inc, '-x',
                              'c', '-'], input=src, capture_output=True,
                              text=True, check=True).stdout
        for m in PROTO.finditer(text):
            name, params = m.group(2), m.group(3)
            if re.search(r'\b(cudaStream_t|CUstream)\b', params) or \
                    re.search('Malloc|Alloc|Free', name):
                out.add(name)
    for n in sorted(out):
        print(n)


main()
