#!/usr/bin/env python3
"""gen-cuda-rows.py CUDA_INCLUDE LIBCUDART LIBCUDA_STUB - a draft of the
CUDA rows of the API table (include/lbshim/cuda_api*.def), from NVIDIA's
headers (cuda_runtime_api.h, cuda.h, CUDA 13.0) preprocessed twice, the
second time with CUDA_API_PER_THREAD_DEFAULT_STREAM (the _ptsz/_ptds
names), keeping the functions the real libraries export.  A maintainer's
tool, not part of the build: its output was committed, then its roles
checked by hand; run it again when a new toolkit adds functions, and
compare.  The types the shim declares itself (include/lbshim/cuda_decls.h)
are kept; any other pointer becomes void * (const kept), any other enum
or integer typedef an integer of its size: the calling convention of
x86-64 passes them alike."""
import re, subprocess, sys

inc, cudart, stub = sys.argv[1:4]
RENAME = {'struct cudaExtent': 'cudaExtent',
          'struct cudaPitchedPtr': 'cudaPitchedPtr'}
KEEP = {'cudaExtent', 'cudaPitchedPtr', 'cudaStream_t', 'CUstream', 'cudaEvent_t', 'CUevent', 'CUdeviceptr',
        'CUfunction', 'CUmodule', 'CUlibrary', 'CUkernel', 'cudaGraphExec_t',
        'CUgraphExec', 'dim3', 'size_t', 'int', 'unsigned int', 'float',
        'unsigned long long', 'char', 'void', 'cuuint64_t', 'cuuint32_t',
        'struct cudaExtent', 'struct cudaPitchedPtr', 'struct cudaPos',
        'struct cudaMemLocation', 'CUmemLocation', 'enum cudaMemcpyKind',
        'cudaError_t', 'CUresult', 'unsigned short', 'unsigned char',
        'short', 'long', 'unsigned long', 'cudaHostFn_t', 'CUhostFn',
        'cudaStreamCallback_t', 'CUstreamCallback', 'CUdevice'}


def pp(extra):
    src = '#include <cuda.h>\n#include <cuda_runtime_api.h>\n'
    return subprocess.run(['cc', '-E', '-P'] + extra + ['-I' + inc, '-x',
                          'c', '-'], input=src, capture_output=True,
                          text=True, check=True).stdout


def exports(lib):
    out = subprocess.run(['nm', '-D', '--defined-only', lib],
                         capture_output=True, text=True).stdout
    return {l.split()[-1].split('@')[0] for l in out.splitlines()
            if ' T ' in l}


PROTO = re.compile(r'(?:extern\s+)?(CUresult|cudaError_t)\s+((?:__)?cu\w+)\s*'
                   r'\(([^;{}()]*(?:\([^()]*\)[^;{}()]*)*)\)\s*;')


def protos(text):
    d = {}
    for m in PROTO.finditer(text):
        d.setdefault(m.group(2), (m.group(1), ' '.join(m.group(3).split())))
    return d


def split_param(p):
    p = p.strip()
    m = re.match(r'(.*?)([A-Za-z_]\w*)\s*(\[\s*\])?$', p)
    ty, name = m.group(1).strip(), m.group(2)
    if m.group(3):
        ty += ' *'
    return ty, name


def map_type(ty, sizes):
    t = ' '.join(ty.replace('*', ' * ').split())
    npt = t.count('*')
    base = re.sub(r'\bconst\b', '', t.replace('*', '')).strip()
    base = ' '.join(base.split())
    const = t.startswith('const ')
    if base in RENAME:
        t = t.replace(base, RENAME[base])
        base = RENAME[base]
    if base in KEEP:
        return t.replace(' *', '*').replace('*', ' *').replace('  ', ' ')
    b = sizes.get(base, 'void')
    if npt:
        if b.startswith('XX') or b == 'void':
            b = 'void'
        if b == 'void *':
            return 'void ' + '*' * (npt + 1)
        return ('const ' if const else '') + b + ' ' + '*' * npt
    return b


def main():
    d = protos(pp([]))
    d2 = protos(pp(['-DCUDA_API_PER_THREAD_DEFAULT_STREAM']))
    for k, v in d2.items():
        d.setdefault(k, v)
    rt, drv = exports(cudart), exports(stub)
    rows = []
    unknown = set()
    for name, (ret, params) in sorted(d.items()):
        lib = 'rt' if name.startswith('cuda') else 'drv'
        if name not in (rt if lib == 'rt' else drv):
            continue
        ps = [] if params in ('', 'void') else \
            [split_param(p) for p in params.split(',')]
        for ty, _ in ps:
            t = ' '.join(re.sub(r'\bconst\b', '', ty.replace('*', ' ')).split())
            if t not in KEEP and t != 'void':
                unknown.add(t)
        rows.append((lib, ret, name, ps))
    # sizes of the other by-value types, from the compiler
    src = '#include <cuda.h>\n#include <cuda_runtime_api.h>\n'
    un = sorted(unknown)
    for i, t in enumerate(un):
        src += 'char s%d[sizeof(%s)]; char c%d[__builtin_classify_type' \
               '(*(%s *)0)];\n' % (i, t, i, t)
    r = subprocess.run(["cc", "-S", "-o", "-", "-I" + inc, "-x", "c", "-"],
                       input=src, capture_output=True, text=True)
    if r.returncode:
        sys.exit(r.stderr[:3000])
    sizes = {}
    for i, t in enumerate(un):
        sz = int(re.search(r'\.size\s+s%d, (\d+)' % i, r.stdout).group(1))
        cl = int(re.search(r'\.size\s+c%d, (\d+)' % i, r.stdout).group(1))
        if cl == 5:
            sizes[t] = 'void *'
            continue
        if cl == 12 or cl == 13:
            sizes[t] = 'XX' + t
            continue
        if cl not in (1, 3):
            print('by-value type %s is no integer: declare it' % t, file=sys.stderr); sizes[t]='XX'+t; continue
            sys.exit('by-value type %s is no integer: declare it' % t)
        sizes[t] = {4: 'int', 8: 'unsigned long long'}[sz] \
            if cl == 1 else {4: 'unsigned int', 8: 'unsigned long long'}[sz]
    emit(rows, sizes)


# base name (less _ptsz/_ptds, then less _v2/_v3) -> (HIP twin, roles).
# Roles name the headers' parameters (CUDA 13.0).
L = 'LAUNCH, KERNEL(func), GRID(gridDim), BLOCK(blockDim), KARGS(args), ' \
    'SHMEM(sharedMem)'
LM = 'LAUNCH_MODULE, KERNEL(f), GRID(gridDimX, gridDimY, gridDimZ), ' \
     'BLOCK(blockDimX, blockDimY, blockDimZ), SHMEM(sharedMemBytes), ' \
     'KARGS(kernelParams)'
SPEC = {
    'cudaLaunchKernel': ('hipLaunchKernel', L),
    'cudaLaunchCooperativeKernel': ('hipLaunchCooperativeKernel', L),
    'cudaLaunchKernelExC': ('-', 'LAUNCH, KERNEL(func), KARGS(args)'),
    'cudaLaunchHostFunc': ('hipLaunchHostFunc',
                           'HOST_FN, FN(fn), USERDATA(userData)'),
    'cudaStreamAddCallback': ('hipStreamAddCallback', 'CALLBACK, FN(callback), '
                              'USERDATA(userData), FLAGS(flags)'),
    'cudaGraphLaunch': ('hipGraphLaunch', 'GRAPH_LAUNCH, GRAPH(graphExec)'),
    'cudaMalloc': ('hipMalloc', 'ALLOC, OUT(devPtr), BYTES(size)'),
    'cudaMallocManaged': ('hipMallocManaged', 'ALLOC_MANAGED, OUT(devPtr), '
                          'BYTES(size), FLAGS(flags)'),
    'cudaMallocHost': ('hipHostMalloc', 'ALLOC_HOST, OUT(ptr), BYTES(size)'),
    'cudaHostAlloc': ('hipHostAlloc', 'ALLOC_HOST, OUT(pHost), BYTES(size), '
                      'FLAGS(flags)'),
    'cudaMallocPitch': ('hipMallocPitch', 'ALLOC_PITCH, OUT(devPtr), '
                        'PITCH_OUT(pitch), WIDTH(width), HEIGHT(height)'),
    'cudaMalloc3D': ('hipMalloc3D', 'ALLOC_3D, PITCHED_OUT(pitchedDevPtr), '
                     'EXTENT(extent)'),
    'cudaMallocAsync': ('hipMallocAsync', 'ALLOC_ASYNC, OUT(devPtr), '
                        'BYTES(size)'),
    'cudaFree': ('hipFree', 'FREE, PTR(devPtr)'),
    'cudaFreeHost': ('hipHostFree', 'FREE_HOST, PTR(ptr)'),
    'cudaFreeAsync': ('hipFreeAsync', 'FREE_ASYNC, PTR(devPtr)'),
    'cudaMemcpy': ('hipMemcpy', 'COPY, DST(dst), SRC(src), BYTES(count), '
                   'KIND(kind)'),
    'cudaMemcpyAsync': ('hipMemcpyAsync', 'COPY, DST(dst), SRC(src), '
                        'BYTES(count), KIND(kind)'),
    'cudaMemcpy2D': ('hipMemcpy2D', 'COPY, DST(dst), DPITCH(dpitch), SRC(src), '
                     'SPITCH(spitch), WIDTH(width), HEIGHT(height), '
                     'KIND(kind)'),
    'cudaMemcpy2DAsync': ('hipMemcpy2DAsync', 'COPY, DST(dst), DPITCH(dpitch), '
                          'SRC(src), SPITCH(spitch), WIDTH(width), '
                          'HEIGHT(height), KIND(kind)'),
    'cudaMemcpyPeerAsync': ('hipMemcpyPeerAsync', 'COPY_PEER, DST(dst), '
                            'SRC(src), BYTES(count)'),
    'cudaMemset': ('hipMemset', 'SET, DST(devPtr), VALUE(value), BYTES(count)'),
    'cudaMemsetAsync': ('hipMemsetAsync', 'SET, DST(devPtr), VALUE(value), '
                        'BYTES(count)'),
    'cudaStreamCreate': ('hipStreamCreate', 'STREAM_CREATE, OUT(pStream)'),
    'cudaStreamCreateWithFlags': ('hipStreamCreateWithFlags',
                                  'STREAM_CREATE, OUT(pStream), FLAGS(flags)'),
    'cudaStreamCreateWithPriority': ('hipStreamCreateWithPriority',
                                     'STREAM_CREATE, OUT(pStream), '
                                     'FLAGS(flags), PRIORITY(priority)'),
    'cudaStreamDestroy': ('hipStreamDestroy', 'STREAM_DESTROY'),
    'cudaStreamSynchronize': ('hipStreamSynchronize', 'STREAM_SYNC'),
    'cudaStreamQuery': ('hipStreamQuery', 'STREAM_QUERY'),
    'cudaStreamWaitEvent': ('hipStreamWaitEvent', 'STREAM_WAIT, EVENT(event), '
                            'FLAGS(flags)'),
    'cudaStreamGetFlags': ('hipStreamGetFlags', 'STREAM_GET, FLAGS_OUT(flags)'),
    'cudaStreamGetPriority': ('hipStreamGetPriority',
                              'STREAM_GET, PRIORITY_OUT(priority)'),
    'cudaStreamBeginCapture': ('hipStreamBeginCapture',
                               'CAPTURE_BEGIN, MODE(mode)'),
    'cudaStreamEndCapture': ('hipStreamEndCapture', 'CAPTURE_END, OUT(pGraph)'),
    'cudaStreamIsCapturing': ('hipStreamIsCapturing',
                              'CAPTURE_STATUS, STATUS_OUT(pCaptureStatus)'),
    'cudaDeviceSynchronize': ('hipDeviceSynchronize', 'DEVICE_SYNC'),
    'cudaDeviceReset': ('hipDeviceReset', 'DEVICE_RESET'),
    'cudaSetDevice': ('hipSetDevice', 'DEVICE_SET, DEVICE(device)'),
    'cudaEventCreate': ('hipEventCreate', 'EVENT_CREATE, OUT(event)'),
    'cudaEventCreateWithFlags': ('hipEventCreateWithFlags',
                                 'EVENT_CREATE, OUT(event), FLAGS(flags)'),
    'cudaEventRecord': ('hipEventRecord', 'EVENT_RECORD, EVENT(event)'),
    'cudaEventRecordWithFlags': ('-', 'EVENT_RECORD, EVENT(event), '
                                 'FLAGS(flags)'),
    'cudaEventSynchronize': ('hipEventSynchronize', 'EVENT_SYNC, EVENT(event)'),
    'cudaEventQuery': ('hipEventQuery', 'EVENT_QUERY, EVENT(event)'),
    'cudaEventDestroy': ('hipEventDestroy', 'EVENT_DESTROY, EVENT(event)'),
    'cudaEventElapsedTime': ('hipEventElapsedTime', 'EVENT_ELAPSED, MS_OUT(ms), '
                             'EVENT(start), EVENT_END(end)'),
    'cudaGetLastError': ('hipGetLastError', 'LASTERR_GET'),
    'cudaPeekAtLastError': ('hipPeekAtLastError', 'LASTERR_PEEK'),
    'cudaGetDriverEntryPoint': ('hipGetProcAddress', 'PROC_ADDRESS, '
                                'NAME(symbol), OUT(funcPtr)'),
    'cudaGetDriverEntryPointByVersion': ('hipGetProcAddress', 'PROC_ADDRESS, '
                                         'NAME(symbol), OUT(funcPtr), '
                                         'VERSION(cudaVersion)'),
    'cudaMemGetInfo': ('hipMemGetInfo', 'MEM_INFO, FREE_OUT(free), '
                       'TOTAL_OUT(total)'),
    # the driver
    'cuLaunchKernel': ('hipModuleLaunchKernel', LM + ', EXTRA(extra)'),
    'cuLaunchCooperativeKernel': ('-', LM),
    'cuLaunchKernelEx': ('-', 'LAUNCH_MODULE, KERNEL(f), KARGS(kernelParams), '
                         'EXTRA(extra)'),
    'cuLaunchHostFunc': ('hipLaunchHostFunc', 'HOST_FN, FN(fn), '
                         'USERDATA(userData)'),
    'cuStreamAddCallback': ('hipStreamAddCallback', 'CALLBACK, FN(callback), '
                            'USERDATA(userData), FLAGS(flags)'),
    'cuGraphLaunch': ('hipGraphLaunch', 'GRAPH_LAUNCH, GRAPH(hGraphExec)'),
    'cuMemAlloc': ('hipMalloc', 'ALLOC, OUT(dptr), BYTES(bytesize)'),
    'cuMemAllocManaged': ('hipMallocManaged', 'ALLOC_MANAGED, OUT(dptr), '
                          'BYTES(bytesize), FLAGS(flags)'),
    'cuMemAllocHost': ('hipHostMalloc', 'ALLOC_HOST, OUT(pp), BYTES(bytesize)'),
    'cuMemHostAlloc': ('hipHostAlloc', 'ALLOC_HOST, OUT(pp), BYTES(bytesize), '
                       'FLAGS(Flags)'),
    'cuMemAllocPitch': ('hipMallocPitch', 'ALLOC_PITCH, OUT(dptr), '
                        'PITCH_OUT(pPitch), WIDTH(WidthInBytes), '
                        'HEIGHT(Height)'),
    'cuMemAllocAsync': ('hipMallocAsync', 'ALLOC_ASYNC, OUT(dptr), '
                        'BYTES(bytesize)'),
    'cuMemFree': ('hipFree', 'FREE, PTR(dptr)'),
    'cuMemFreeHost': ('hipHostFree', 'FREE_HOST, PTR(p)'),
    'cuMemFreeAsync': ('hipFreeAsync', 'FREE_ASYNC, PTR(dptr)'),
    'cuMemcpy': ('-', 'COPY_DTOD, DST(dst), SRC(src), BYTES(ByteCount)'),
    'cuMemcpyAsync': ('-', 'COPY_DTOD, DST(dst), SRC(src), BYTES(ByteCount)'),
    'cuMemcpyHtoD': ('hipMemcpyHtoD', 'COPY_HTOD, DST(dstDevice), '
                     'SRC(srcHost), BYTES(ByteCount)'),
    'cuMemcpyDtoH': ('hipMemcpyDtoH', 'COPY_DTOH, DST(dstHost), '
                     'SRC(srcDevice), BYTES(ByteCount)'),
    'cuMemcpyDtoD': ('hipMemcpyDtoD', 'COPY_DTOD, DST(dstDevice), '
                     'SRC(srcDevice), BYTES(ByteCount)'),
    'cuMemcpyHtoDAsync': ('hipMemcpyHtoDAsync', 'COPY_HTOD, DST(dstDevice), '
                          'SRC(srcHost), BYTES(ByteCount)'),
    'cuMemcpyDtoHAsync': ('hipMemcpyDtoHAsync', 'COPY_DTOH, DST(dstHost), '
                          'SRC(srcDevice), BYTES(ByteCount)'),
    'cuMemcpyDtoDAsync': ('hipMemcpyDtoDAsync', 'COPY_DTOD, DST(dstDevice), '
                          'SRC(srcDevice), BYTES(ByteCount)'),
    'cuMemsetD8': ('hipMemsetD8', 'SET, DST(dstDevice), VALUE(uc), BYTES(N)'),
    'cuMemsetD8Async': ('hipMemsetD8Async', 'SET, DST(dstDevice), VALUE(uc), '
                        'BYTES(N)'),
    'cuMemsetD16': ('hipMemsetD16', 'SET16, DST(dstDevice), VALUE(us), NUM(N)'),
    'cuMemsetD16Async': ('hipMemsetD16Async', 'SET16, DST(dstDevice), '
                         'VALUE(us), NUM(N)'),
    'cuMemsetD32': ('hipMemsetD32', 'SET32, DST(dstDevice), VALUE(ui), NUM(N)'),
    'cuMemsetD32Async': ('hipMemsetD32Async', 'SET32, DST(dstDevice), '
                         'VALUE(ui), NUM(N)'),
    'cuStreamCreate': ('hipStreamCreateWithFlags', 'STREAM_CREATE, '
                       'OUT(phStream), FLAGS(Flags)'),
    'cuStreamCreateWithPriority': ('hipStreamCreateWithPriority',
                                   'STREAM_CREATE, OUT(phStream), '
                                   'FLAGS(flags), PRIORITY(priority)'),
    'cuStreamDestroy': ('hipStreamDestroy', 'STREAM_DESTROY'),
    'cuStreamSynchronize': ('hipStreamSynchronize', 'STREAM_SYNC'),
    'cuStreamQuery': ('hipStreamQuery', 'STREAM_QUERY'),
    'cuStreamWaitEvent': ('hipStreamWaitEvent', 'STREAM_WAIT, EVENT(hEvent), '
                          'FLAGS(Flags)'),
    'cuStreamGetFlags': ('hipStreamGetFlags', 'STREAM_GET, FLAGS_OUT(flags)'),
    'cuStreamGetPriority': ('hipStreamGetPriority',
                            'STREAM_GET, PRIORITY_OUT(priority)'),
    'cuStreamBeginCapture': ('hipStreamBeginCapture',
                             'CAPTURE_BEGIN, MODE(mode)'),
    'cuStreamEndCapture': ('hipStreamEndCapture', 'CAPTURE_END, OUT(phGraph)'),
    'cuStreamIsCapturing': ('hipStreamIsCapturing',
                            'CAPTURE_STATUS, STATUS_OUT(captureStatus)'),
    'cuCtxSynchronize': ('hipDeviceSynchronize', 'DEVICE_SYNC'),
    'cuEventCreate': ('hipEventCreateWithFlags', 'EVENT_CREATE, '
                      'OUT(phEvent), FLAGS(Flags)'),
    'cuEventRecord': ('hipEventRecord', 'EVENT_RECORD, EVENT(hEvent)'),
    'cuEventRecordWithFlags': ('-', 'EVENT_RECORD, EVENT(hEvent), '
                               'FLAGS(flags)'),
    'cuEventSynchronize': ('hipEventSynchronize', 'EVENT_SYNC, EVENT(hEvent)'),
    'cuEventQuery': ('hipEventQuery', 'EVENT_QUERY, EVENT(hEvent)'),
    'cuEventDestroy': ('hipEventDestroy', 'EVENT_DESTROY, EVENT(hEvent)'),
    'cuEventElapsedTime': ('hipEventElapsedTime', 'EVENT_ELAPSED, '
                           'MS_OUT(pMilliseconds), EVENT(hStart), '
                           'EVENT_END(hEnd)'),
    'cuModuleLoad': ('hipModuleLoad', 'MODULE_LOAD, OUT(module), '
                     'FNAME(fname)'),
    'cuModuleLoadData': ('hipModuleLoadData', 'MODULE_LOAD, OUT(module), '
                         'IMAGE(image)'),
    'cuModuleLoadDataEx': ('hipModuleLoadDataEx', 'MODULE_LOAD, OUT(module), '
                           'IMAGE(image)'),
    'cuModuleUnload': ('hipModuleUnload', 'MODULE_UNLOAD, MODULE(hmod)'),
    'cuModuleGetFunction': ('hipModuleGetFunction', 'MODULE_FUNCTION, '
                            'OUT(hfunc), MODULE(hmod), NAME(name)'),
    'cuLibraryGetKernel': ('-', 'MODULE_FUNCTION, OUT(pKernel), '
                           'MODULE(library), NAME(name)'),
    'cuGetProcAddress': ('hipGetProcAddress', 'PROC_ADDRESS, NAME(symbol), '
                         'OUT(pfn), VERSION(cudaVersion)'),
    'cuMemGetInfo': ('hipMemGetInfo', 'MEM_INFO, FREE_OUT(free), '
                     'TOTAL_OUT(total)'),
    'cuCtxSetCurrent': ('-', ''),
}
# Rows beyond those the coverage test asks for (stream, alloc, free).
EXTRA = set("""cudaLaunchKernelExC cudaMemcpy cudaMemcpy_ptds cudaMemcpy2D
cudaMemcpy2D_ptds cudaMemset cudaMemset_ptds cudaStreamCreate
cudaStreamCreateWithFlags cudaStreamCreateWithPriority cuStreamCreate
cuStreamCreateWithPriority cuGreenCtxStreamCreate
cudaDeviceSynchronize cudaDeviceReset cudaSetDevice cudaEventCreate
cudaEventCreateWithFlags cudaEventSynchronize cudaEventQuery cudaEventDestroy
cudaEventElapsedTime cudaGetLastError cudaPeekAtLastError
cudaGetDriverEntryPoint cudaGetDriverEntryPoint_ptsz
cudaGetDriverEntryPointByVersion cudaGetDriverEntryPointByVersion_ptsz
cudaMemGetInfo cudaLaunchKernelExC_ptsz cuLaunchKernelEx cuLaunchKernelEx_ptsz
cuCtxSynchronize cuMemcpy cuMemcpy_ptds cuMemcpyHtoD_v2 cuMemcpyHtoD_v2_ptds
cuMemcpyDtoH_v2 cuMemcpyDtoH_v2_ptds cuMemcpyDtoD_v2 cuMemcpyDtoD_v2_ptds
cuMemsetD8_v2 cuMemsetD8_v2_ptds cuMemsetD16_v2 cuMemsetD16_v2_ptds
cuMemsetD32_v2 cuMemsetD32_v2_ptds cuEventCreate cuEventSynchronize
cuEventQuery cuEventDestroy_v2 cuEventElapsedTime_v2 cuModuleLoad
cuModuleLoadData cuModuleLoadDataEx cuModuleUnload cuModuleGetFunction
cuLibraryGetKernel cuGetProcAddress_v2 cuMemGetInfo_v2""".split())
# Functions that match the coverage test's pattern but allocate or free no
# memory the policies track (read by tests/shim/t_cuda_coverage.sh too).
NOT_MEMORY = ['cuMemGetAllocationGranularity',
              'cuMemGetAllocationPropertiesFromHandle',
              'cuMemRetainAllocationHandle',
              'cudaGraphMemAllocNodeGetParams', 'cudaGraphMemFreeNodeGetParams',
              'cuGraphMemAllocNodeGetParams', 'cuGraphMemFreeNodeGetParams']


def base_of(name):
    b = re.sub(r'_(ptsz|ptds)$', '', name)
    return b, re.sub(r'_v[23]$', '', b)


def kind_of(name, role):
    r = role.split(',')[0].strip()
    byrole = {'LAUNCH': 'LAUNCH', 'LAUNCH_MODULE': 'LAUNCH', 'HOST_FN': 'LAUNCH',
              'CALLBACK': 'LAUNCH', 'GRAPH_LAUNCH': 'LAUNCH',
              'STREAM_SYNC': 'SYNC', 'STREAM_QUERY': 'SYNC',
              'DEVICE_SYNC': 'SYNC', 'EVENT_SYNC': 'SYNC',
              'STREAM_WAIT': 'EVENT', 'PROC_ADDRESS': 'OTHER',
              'MEM_INFO': 'OTHER', 'LASTERR_GET': 'OTHER',
              'LASTERR_PEEK': 'OTHER'}
    if r in byrole:
        return byrole[r]
    for pre, k in (('ALLOC', 'ALLOC'), ('FREE', 'FREE'), ('COPY', 'COPY'),
                   ('SET', 'SET'), ('STREAM', 'STREAM'), ('CAPTURE', 'STREAM'),
                   ('EVENT', 'EVENT'), ('DEVICE', 'DEVICE'),
                   ('MODULE', 'REG')):
        if r.startswith(pre):
            return k
    n = re.sub(r'^cuda|^cu', '', name)
    for pat, k in (('Free', 'FREE'), ('Alloc', 'ALLOC'), ('Malloc', 'ALLOC'),
                   ('Memcpy', 'COPY'), ('Memset', 'SET'), ('Launch', 'LAUNCH'),
                   ('EventRecord', 'EVENT'), ('Stream', 'STREAM')):
        if pat in n:
            return k
    return 'OTHER'


def fmt_type(t):
    t = ' '.join(t.split())
    while ' * *' in t:
        t = t.replace(' * *', ' **')
    return t


def emit(rows, sizes):
    names = {r[2] for r in rows}
    out = {'rt': [], 'drv': []}
    for lib, ret, name, ps in rows:
        st = [i for i, (t, _) in enumerate(ps)
              if ' '.join(re.sub(r'\bconst\b', '', t).split()) in
              ('cudaStream_t', 'CUstream')]
        mem = re.search('(Malloc|Alloc|Free)', name) and \
            name not in NOT_MEMORY
        if not (st or mem or name in EXTRA):
            continue
        b, bb = base_of(name)
        hip, roles = SPEC.get(b, SPEC.get(bb, ('-', '')))
        flags = []
        if name != b:
            flags.append('LB_F_SPT')
        sidx = st[0] if st else -1
        if ('Launch' in name and sidx < 0) or name.startswith('cudaLaunchKernelEx') \
                or name.startswith('cuLaunchKernelEx'):
            flags.append('LB_F_INDIRECT')
        if b.startswith('cuGetProcAddress') or 'EntryPoint' in b:
            flags.append('LB_F_PROCADDR')
        twin = '()'
        if not st and name.endswith('_ptds') or (name == b and not st and (
                'Memcpy' in name or 'Memset' in name)):
            a = re.sub(r'(_v2)?$', r'Async\1', b, count=1)
            if a in names:
                twin = '(%s)' % a
                if name == b:
                    flags.append('LB_F_NULLSYNC')
        kind = kind_of(b, roles)
        ver = '"libcudart.so.13"' if lib == 'rt' else '""'
        par = ', '.join('%s%s%s' % (fmt_type(map_type(t, sizes)),
                                    '' if map_type(t, sizes).endswith('*')
                                    else ' ', n) for t, n in ps)
        args = ', '.join(n for _, n in ps)
        row = 'LB_API_CU(%s, %s,' % (hip if hip != '-' else 'none', ret)
        row += (' ' if len(row) + len(name) < 79 else '\n\t  ') + name + ',\n'
        row += wrap('(%s),' % (par or 'void'))
        row += wrap('(%s), %d, %s, %s, %s, %s%s' % (
            args, sidx, kind, ver, ' | '.join(flags) or '0', twin,
            ',' if roles else ')'))
        if roles:
            row += wrap('(%s))' % roles)
        mem = kind in ('ALLOC', 'FREE', 'COPY', 'SET')
        order = ['LAUNCH', 'REG', 'STREAM', 'SYNC', 'EVENT', 'DEVICE', 'OTHER',
                 'ALLOC', 'FREE', 'COPY', 'SET'].index(kind)
        out[lib].append((mem, order, bb, name, row))
    for lib in ('rt', 'drv'):
        for mem in (0, 1):
            fn = 'cuda_api_%s%s.def' % (lib, '_mem' if mem else '')
            with open(fn, 'w') as f:
                f.write(HEAD % fn)
                for r in sorted(x for x in out[lib] if x[0] == mem):
                    f.write(r[4])


HEAD = '''/*
 * %s - CUDA rows of the API table (see cuda_api.def).
 * Drafted by mk/gen-cuda-rows.py from NVIDIA's CUDA 13.0 headers, roles
 * then checked by hand: edit here, and compare with a new draft when a
 * toolkit adds functions.
 */
'''


def wrap(text):
    """text as lines of at most 80 columns, each indented one tab and
    two spaces, broken after commas."""
    out, line = '', '\t  '
    for i, part in enumerate(text.split(', ')):
        piece = part + (', ' if i < len(text.split(', ')) - 1 else '')
        if len(line.expandtabs(8)) + len(piece.rstrip()) > 80 and \
                line.strip():
            out += line.rstrip() + '\n'
            line = '\t  '
        line += piece
    return out + line.rstrip() + '\n'



main()
