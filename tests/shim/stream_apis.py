#!/usr/bin/env python3
"""stream_apis.py HEADER... - the functions HIP's headers declare that take
a stream (a hipStream_t or hipStream_t * parameter) or are _spt variants,
one name a line.

A declaration is a prototype ending in ';': inline functions and templates
(hipLaunchKernelGGL, which have a body) are not entry points of the
runtime.  Comments are removed first; C++ default arguments (__dparm)
and attributes stay inside the parameter list and do not matter."""
import re
import sys

PROTO = re.compile(
    r'\b((?:__)?hip\w+)\s*\(([^;{}()]*(?:\([^()]*\)[^;{}()]*)*)\)\s*'
    r'(?:__attribute__\s*\(\([^;{]*?\)\)\s*)?;')


def names(paths):
    out = set()
    for path in paths:
        with open(path, errors='replace') as f:
            text = f.read()
        text = re.sub(r'/\*.*?\*/', '', text, flags=re.S)
        text = re.sub(r'//[^\n]*', '', text)
        for m in PROTO.finditer(text):
            name, params = m.group(1), m.group(2)
            if re.search(r'\bhipStream_t\b', params) or name.endswith('_spt'):
                out.add(name)
    return out


if __name__ == '__main__':
    for n in sorted(names(sys.argv[1:])):
        print(n)
