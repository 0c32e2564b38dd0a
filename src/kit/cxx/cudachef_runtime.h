/*
 * cudachef_runtime.h - the CUDA runtime's host calls with CUDA's C++ signatures, for a whole program
 * on the emulator (cudachef.h includes it). Each is the emulator's runtime (src/engine/
 * host_runtime.c, through ../emu_runtime.h): device memory between guard pages, copies checked
 * against where their pointers are, streams whose queues run when something waits for them, events,
 * the last error and sticky errors. What only this header adds: the typed templates CUDA C++ has
 * (cudaMalloc(&float_pointer, bytes)), the device's properties, symbols, and the calls that have
 * nothing to do on one CPU (cudaSetDevice(0), cudaDeviceReset, the profiler's start and stop).
 */
#ifndef CUDACHEF_CXX_RUNTIME_H
#define CUDACHEF_CXX_RUNTIME_H

/* the toolkit's own header guards, which helper headers (cuda-samples' helper_cuda.h) test */
#define __CUDA_RUNTIME_H__
#define __CUDA_RUNTIME_API_H__
#define __DRIVER_TYPES_H__
#define __VECTOR_TYPES_H__
#define CUDART_VERSION 13000
#define CUDA_VERSION 13000
#define __CUDART_API_VERSION 13000

typedef cudaError_t cudaError;
typedef struct emu_cuda_event *CUevent;
typedef cudaStream_t CUstream;
#define cudaEventDefault 0x00
#define cudaEventBlockingSync 0x01
#define cudaEventDisableTiming 0x02
#define cudaHostAllocPortable 0x01
#define cudaHostAllocMapped 0x02
#define cudaHostAllocWriteCombined 0x04
#define cudaHostRegisterDefault 0x00
#define cudaHostRegisterPortable 0x01
#define cudaHostRegisterMapped 0x02
#define cudaHostRegisterIoMemory 0x04
#define cudaHostRegisterReadOnly 0x08
#define cudaMemAttachHost 0x02
#define cudaMemAttachSingle 0x04
#define cudaDeviceScheduleAuto 0x00
#define cudaDeviceScheduleSpin 0x01
#define cudaDeviceScheduleYield 0x02
#define cudaDeviceScheduleBlockingSync 0x04
#define cudaDeviceBlockingSync 0x04
#define cudaDeviceScheduleMask 0x07
#define cudaDeviceMapHost 0x08
#define cudaDeviceLmemResizeToMax 0x10
#define cudaStreamLegacy ((cudaStream_t)0)
#define cudaStreamPerThread ((cudaStream_t)0)

/* The attributes cudaDeviceGetAttribute knows, with the runtime's names and numbers (the emulator
   answers those of emu_cuda_device_attribute, and cudaErrorInvalidValue for the others). */
enum cudaDeviceAttr {
    cudaDevAttrMaxThreadsPerBlock = 1,
    cudaDevAttrMaxBlockDimX = 2,
    cudaDevAttrMaxBlockDimY = 3,
    cudaDevAttrMaxBlockDimZ = 4,
    cudaDevAttrMaxGridDimX = 5,
    cudaDevAttrMaxGridDimY = 6,
    cudaDevAttrMaxGridDimZ = 7,
    cudaDevAttrMaxSharedMemoryPerBlock = 8,
    cudaDevAttrTotalConstantMemory = 9,
    cudaDevAttrWarpSize = 10,
    cudaDevAttrMaxPitch = 11,
    cudaDevAttrMaxRegistersPerBlock = 12,
    cudaDevAttrClockRate = 13,
    cudaDevAttrTextureAlignment = 14,
    cudaDevAttrGpuOverlap = 15,
    cudaDevAttrMultiProcessorCount = 16,
    cudaDevAttrKernelExecTimeout = 17,
    cudaDevAttrIntegrated = 18,
    cudaDevAttrCanMapHostMemory = 19,
    cudaDevAttrComputeMode = 20,
    cudaDevAttrMaxTexture1DWidth = 21,
    cudaDevAttrMaxTexture2DWidth = 22,
    cudaDevAttrMaxTexture2DHeight = 23,
    cudaDevAttrMaxTexture3DWidth = 24,
    cudaDevAttrMaxTexture3DHeight = 25,
    cudaDevAttrMaxTexture3DDepth = 26,
    cudaDevAttrMaxTexture2DLayeredWidth = 27,
    cudaDevAttrMaxTexture2DLayeredHeight = 28,
    cudaDevAttrMaxTexture2DLayeredLayers = 29,
    cudaDevAttrSurfaceAlignment = 30,
    cudaDevAttrConcurrentKernels = 31,
    cudaDevAttrEccEnabled = 32,
    cudaDevAttrPciBusId = 33,
    cudaDevAttrPciDeviceId = 34,
    cudaDevAttrTccDriver = 35,
    cudaDevAttrMemoryClockRate = 36,
    cudaDevAttrGlobalMemoryBusWidth = 37,
    cudaDevAttrL2CacheSize = 38,
    cudaDevAttrMaxThreadsPerMultiProcessor = 39,
    cudaDevAttrAsyncEngineCount = 40,
    cudaDevAttrUnifiedAddressing = 41,
    cudaDevAttrMaxTexture1DLayeredWidth = 42,
    cudaDevAttrMaxTexture1DLayeredLayers = 43,
    cudaDevAttrMaxTexture2DGatherWidth = 45,
    cudaDevAttrMaxTexture2DGatherHeight = 46,
    cudaDevAttrMaxTexture3DWidthAlt = 47,
    cudaDevAttrMaxTexture3DHeightAlt = 48,
    cudaDevAttrMaxTexture3DDepthAlt = 49,
    cudaDevAttrPciDomainId = 50,
    cudaDevAttrTexturePitchAlignment = 51,
    cudaDevAttrMaxTextureCubemapWidth = 52,
    cudaDevAttrMaxTextureCubemapLayeredWidth = 53,
    cudaDevAttrMaxTextureCubemapLayeredLayers = 54,
    cudaDevAttrMaxSurface1DWidth = 55,
    cudaDevAttrMaxSurface2DWidth = 56,
    cudaDevAttrMaxSurface2DHeight = 57,
    cudaDevAttrMaxSurface3DWidth = 58,
    cudaDevAttrMaxSurface3DHeight = 59,
    cudaDevAttrMaxSurface3DDepth = 60,
    cudaDevAttrMaxSurface1DLayeredWidth = 61,
    cudaDevAttrMaxSurface1DLayeredLayers = 62,
    cudaDevAttrMaxSurface2DLayeredWidth = 63,
    cudaDevAttrMaxSurface2DLayeredHeight = 64,
    cudaDevAttrMaxSurface2DLayeredLayers = 65,
    cudaDevAttrMaxSurfaceCubemapWidth = 66,
    cudaDevAttrMaxSurfaceCubemapLayeredWidth = 67,
    cudaDevAttrMaxSurfaceCubemapLayeredLayers = 68,
    cudaDevAttrMaxTexture1DLinearWidth = 69,
    cudaDevAttrMaxTexture2DLinearWidth = 70,
    cudaDevAttrMaxTexture2DLinearHeight = 71,
    cudaDevAttrMaxTexture2DLinearPitch = 72,
    cudaDevAttrMaxTexture2DMipmappedWidth = 73,
    cudaDevAttrMaxTexture2DMipmappedHeight = 74,
    cudaDevAttrComputeCapabilityMajor = 75,
    cudaDevAttrComputeCapabilityMinor = 76,
    cudaDevAttrMaxTexture1DMipmappedWidth = 77,
    cudaDevAttrStreamPrioritiesSupported = 78,
    cudaDevAttrGlobalL1CacheSupported = 79,
    cudaDevAttrLocalL1CacheSupported = 80,
    cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
    cudaDevAttrMaxRegistersPerMultiprocessor = 82,
    cudaDevAttrManagedMemory = 83,
    cudaDevAttrIsMultiGpuBoard = 84,
    cudaDevAttrMultiGpuBoardGroupID = 85,
    cudaDevAttrHostNativeAtomicSupported = 86,
    cudaDevAttrSingleToDoublePrecisionPerfRatio = 87,
    cudaDevAttrPageableMemoryAccess = 88,
    cudaDevAttrConcurrentManagedAccess = 89,
    cudaDevAttrComputePreemptionSupported = 90,
    cudaDevAttrCanUseHostPointerForRegisteredMem = 91,
    cudaDevAttrReserved92 = 92,
    cudaDevAttrReserved93 = 93,
    cudaDevAttrReserved94 = 94,
    cudaDevAttrCooperativeLaunch = 95,
    cudaDevAttrReserved96 = 96,
    cudaDevAttrMaxSharedMemoryPerBlockOptin = 97,
    cudaDevAttrCanFlushRemoteWrites = 98,
    cudaDevAttrHostRegisterSupported = 99,
    cudaDevAttrPageableMemoryAccessUsesHostPageTables = 100,
    cudaDevAttrDirectManagedMemAccessFromHost = 101,
    cudaDevAttrMaxBlocksPerMultiprocessor = 106,
    cudaDevAttrMaxPersistingL2CacheSize = 108,
    cudaDevAttrMaxAccessPolicyWindowSize = 109,
    cudaDevAttrReservedSharedMemoryPerBlock = 111,
    cudaDevAttrSparseCudaArraySupported = 112,
    cudaDevAttrHostRegisterReadOnlySupported = 113,
    cudaDevAttrTimelineSemaphoreInteropSupported = 114,
    cudaDevAttrMemoryPoolsSupported = 115,
    cudaDevAttrGPUDirectRDMASupported = 116,
    cudaDevAttrGPUDirectRDMAFlushWritesOptions = 117,
    cudaDevAttrGPUDirectRDMAWritesOrdering = 118,
    cudaDevAttrMemoryPoolSupportedHandleTypes = 119,
    cudaDevAttrClusterLaunch = 120,
    cudaDevAttrDeferredMappingCudaArraySupported = 121,
    cudaDevAttrReserved122 = 122,
    cudaDevAttrReserved123 = 123,
    cudaDevAttrReserved124 = 124,
    cudaDevAttrIpcEventSupport = 125,
    cudaDevAttrMemSyncDomainCount = 126,
    cudaDevAttrReserved127 = 127,
    cudaDevAttrReserved128 = 128,
    cudaDevAttrReserved129 = 129,
    cudaDevAttrNumaConfig = 130,
    cudaDevAttrNumaId = 131,
    cudaDevAttrReserved132 = 132,
    cudaDevAttrMpsEnabled = 133,
    cudaDevAttrHostNumaId = 134,
    cudaDevAttrD3D12CigSupported = 135,
    cudaDevAttrVulkanCigSupported = 138,
    cudaDevAttrGpuPciDeviceId = 139,
    cudaDevAttrGpuPciSubsystemId = 140,
    cudaDevAttrReserved141 = 141,
    cudaDevAttrHostNumaMemoryPoolsSupported = 142,
    cudaDevAttrHostNumaMultinodeIpcSupported = 143,
    cudaDevAttrHostMemoryPoolsSupported = 144,
    cudaDevAttrReserved145 = 145,
    cudaDevAttrOnlyPartialHostNativeAtomicSupported = 147
};
enum cudaComputeMode { cudaComputeModeDefault = 0, cudaComputeModeProhibited = 2 };
enum cudaFuncCache { cudaFuncCachePreferNone = 0, cudaFuncCachePreferShared = 1, cudaFuncCachePreferL1 = 2 };
enum cudaSharedMemConfig { cudaSharedMemBankSizeDefault = 0, cudaSharedMemBankSizeFourByte = 1 };
enum cudaFuncAttribute {
    cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
    cudaFuncAttributePreferredSharedMemoryCarveout = 9
};
struct cudaFuncAttributes {
    size_t sharedSizeBytes, constSizeBytes, localSizeBytes;
    int maxThreadsPerBlock, numRegs, ptxVersion, binaryVersion, cacheModeCA, maxDynamicSharedSizeBytes,
        preferredShmemCarveout;
};
struct cudaPointerAttributes {
    int type, device;
    void *devicePointer, *hostPointer;
};


inline cudaError_t cudaMalloc(void **ptr, size_t bytes) { return emu_cuda_malloc(ptr, bytes); }
template <class T> inline cudaError_t cudaMalloc(T **ptr, size_t bytes) { return emu_cuda_malloc((void **)ptr, bytes); }
/* A host function run by a cook (a kernel parameter's destructor, which nvcc never runs on the
   device): freeing there is not the program's doing on a GPU, so it does nothing. */
extern "C" int emu_on_cook(void);
inline cudaError_t cudaFree(void *ptr) { return emu_on_cook() ? cudaSuccess : emu_cuda_free(ptr); }
inline cudaError_t cudaMemcpy(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind)
{
    return emu_cuda_memcpy(dst, src, bytes, kind);
}
inline cudaError_t cudaMemset(void *ptr, int value, size_t bytes) { return emu_cuda_memset(ptr, value, bytes); }
inline cudaError_t cudaMemsetAsync(void *ptr, int value, size_t bytes, cudaStream_t stream = 0)
{
    return emu_cuda_memset_async(ptr, value, bytes, stream);
}
inline cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind, cudaStream_t stream = 0)
{
    return emu_cuda_memcpy_async(dst, src, bytes, kind, stream);
}
inline cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                                cudaMemcpyKind kind)
{
    for (size_t r = 0; r < height; r++) {
        cudaError_t e = emu_cuda_memcpy((char *)dst + r * dpitch, (const char *)src + r * spitch, width, kind);
        if (e != cudaSuccess)
            return e;
    }
    return cudaSuccess;
}
inline cudaError_t cudaMallocPitch(void **ptr, size_t *pitch, size_t width, size_t height)
{
    *pitch = (width + 511) / 512 * 512;
    return emu_cuda_malloc(ptr, *pitch * height);
}
template <class T> inline cudaError_t cudaMallocPitch(T **ptr, size_t *pitch, size_t width, size_t height)
{
    return cudaMallocPitch((void **)ptr, pitch, width, height);
}
inline cudaError_t cudaGetLastError() { return emu_cuda_get_last_error(); }
inline cudaError_t cudaPeekAtLastError() { return emu_cuda_peek_at_last_error(); }
inline cudaError_t cudaDeviceSynchronize() { return emu_cuda_device_synchronize(); }
inline cudaError_t cudaThreadSynchronize() { return emu_cuda_device_synchronize(); }
inline const char *cudaGetErrorString(cudaError_t error) { return emu_cuda_error_string(error); }
inline const char *cudaGetErrorName(cudaError_t error) { return emu_cuda_error_name(error); }

/* events */
inline cudaError_t cudaEventCreate(cudaEvent_t *event) { return emu_cuda_event_create(event); }
inline cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned) { return emu_cuda_event_create(event); }
inline cudaError_t cudaEventCreate(cudaEvent_t *event, unsigned) { return emu_cuda_event_create(event); }
inline cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = 0) { return emu_cuda_event_record_on(event, stream); }
inline cudaError_t cudaEventSynchronize(cudaEvent_t event) { return emu_cuda_event_synchronize(event); }
inline cudaError_t cudaEventQuery(cudaEvent_t event) { return emu_cuda_event_query(event); }
inline cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t stop)
{
    return emu_cuda_event_elapsed_time(ms, start, stop);
}
inline cudaError_t cudaEventDestroy(cudaEvent_t event) { return emu_cuda_event_destroy(event); }

/* streams */
inline cudaError_t cudaStreamCreate(cudaStream_t *stream) { return emu_cuda_stream_create(stream, cudaStreamDefault); }
inline cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned flags)
{
    return emu_cuda_stream_create(stream, flags);
}
inline cudaError_t cudaStreamCreateWithPriority(cudaStream_t *stream, unsigned flags, int)
{
    return emu_cuda_stream_create(stream, flags);
}
inline cudaError_t cudaStreamDestroy(cudaStream_t stream) { return emu_cuda_stream_destroy(stream); }
inline cudaError_t cudaStreamSynchronize(cudaStream_t stream) { return emu_cuda_stream_synchronize(stream); }
inline cudaError_t cudaStreamQuery(cudaStream_t stream) { return emu_cuda_stream_query(stream); }
inline cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned = 0)
{
    return emu_cuda_stream_wait_event(stream, event);
}
inline cudaError_t cudaDeviceGetStreamPriorityRange(int *least, int *greatest)
{
    if (least)
        *least = 0;
    if (greatest)
        *greatest = 0;
    return cudaSuccess;
}

/* pinned, mapped and managed memory */
inline cudaError_t cudaMallocHost(void **ptr, size_t bytes) { return emu_cuda_malloc_host(ptr, bytes); }
template <class T> inline cudaError_t cudaMallocHost(T **ptr, size_t bytes, unsigned = 0)
{
    return emu_cuda_malloc_host((void **)ptr, bytes);
}
inline cudaError_t cudaHostAlloc(void **ptr, size_t bytes, unsigned) { return emu_cuda_malloc_host(ptr, bytes); }
template <class T> inline cudaError_t cudaHostAlloc(T **ptr, size_t bytes, unsigned)
{
    return emu_cuda_malloc_host((void **)ptr, bytes);
}
inline cudaError_t cudaFreeHost(void *ptr) { return emu_on_cook() ? cudaSuccess : emu_cuda_free_host(ptr); }
inline cudaError_t cudaHostGetDevicePointer(void **device, void *host, unsigned)
{
    return emu_cuda_host_device_pointer(device, host);
}
template <class T> inline cudaError_t cudaHostGetDevicePointer(T **device, void *host, unsigned flags)
{
    return cudaHostGetDevicePointer((void **)device, host, flags);
}
inline cudaError_t cudaHostRegister(void *, size_t, unsigned) { return cudaSuccess; }
inline cudaError_t cudaHostUnregister(void *) { return cudaSuccess; }
inline cudaError_t cudaMallocManaged(void **ptr, size_t bytes, unsigned = cudaMemAttachGlobal)
{
    return emu_cuda_malloc_managed(ptr, bytes);
}
template <class T> inline cudaError_t cudaMallocManaged(T **ptr, size_t bytes, unsigned = cudaMemAttachGlobal)
{
    return emu_cuda_malloc_managed((void **)ptr, bytes);
}
inline cudaError_t cudaMemPrefetchAsync(const void *ptr, size_t bytes, struct cudaMemLocation location, unsigned flags,
                                        cudaStream_t stream = 0)
{
    return emu_cuda_mem_prefetch_async(ptr, bytes, location, flags, stream);
}
/* the form before CUDA 13 (a device number, cudaCpuDeviceId for the head chef), which tutorials use */
inline cudaError_t cudaMemPrefetchAsync(const void *ptr, size_t bytes, int device, cudaStream_t stream = 0)
{
    struct cudaMemLocation location;
    memset(&location, 0, sizeof location);
    location.type = device == cudaCpuDeviceId ? cudaMemLocationTypeHost : cudaMemLocationTypeDevice;
    location.id = device == cudaCpuDeviceId ? 0 : device;
    return emu_cuda_mem_prefetch_async(ptr, bytes, location, 0, stream);
}
inline cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total) { return emu_cuda_mem_get_info(free_bytes, total); }

/* symbols: __device__ and __constant__ variables are the program's own memory on the emulator */
template <class T>
inline cudaError_t cudaMemcpyToSymbol(const T &symbol, const void *src, size_t bytes, size_t offset = 0,
                                      cudaMemcpyKind = cudaMemcpyHostToDevice)
{
    if (offset + bytes > sizeof(T))
        return emu_cuda_note_refused("cudaMemcpyToSymbol past the end of its symbol", cudaErrorInvalidValue);
    return emu_cuda_memcpy_symbol((char *)&symbol + offset, src, bytes);
}
template <class T>
inline cudaError_t cudaMemcpyFromSymbol(void *dst, const T &symbol, size_t bytes, size_t offset = 0,
                                        cudaMemcpyKind = cudaMemcpyDeviceToHost)
{
    if (offset + bytes > sizeof(T))
        return emu_cuda_note_refused("cudaMemcpyFromSymbol past the end of its symbol", cudaErrorInvalidValue);
    return emu_cuda_memcpy_symbol(dst, (const char *)&symbol + offset, bytes);
}
template <class T>
inline cudaError_t cudaMemcpyToSymbolAsync(const T &symbol, const void *src, size_t bytes, size_t offset = 0,
                                           cudaMemcpyKind kind = cudaMemcpyHostToDevice, cudaStream_t = 0)
{
    return cudaMemcpyToSymbol(symbol, src, bytes, offset, kind);
}
template <class T> inline cudaError_t cudaGetSymbolAddress(void **address, const T &symbol)
{
    *address = (void *)&symbol;
    return cudaSuccess;
}
template <class T> inline cudaError_t cudaGetSymbolSize(size_t *size, const T &)
{
    *size = sizeof(T);
    return cudaSuccess;
}

/* the device: one, the emulator */
inline cudaError_t cudaGetDeviceCount(int *count)
{
    *count = 1;
    return cudaSuccess;
}
inline cudaError_t cudaGetDevice(int *device) { return emu_cuda_get_device(device); }
inline cudaError_t cudaSetDevice(int device)
{
    return device == 0 ? cudaSuccess : emu_cuda_note_refused("cudaSetDevice: the emulator is device 0", cudaErrorInvalidDevice);
}
inline cudaError_t cudaGetDeviceProperties(cudaDeviceProp *prop, int device)
{
    if (device != 0)
        return emu_cuda_note_refused("cudaGetDeviceProperties: the emulator is device 0", cudaErrorInvalidDevice);
    return emu_cuda_device_properties(prop, sizeof *prop);
}
inline cudaError_t cudaDeviceGetAttribute(int *value, cudaDeviceAttr attr, int device)
{
    if (device != 0)
        return emu_cuda_note_refused("cudaDeviceGetAttribute: the emulator is device 0", cudaErrorInvalidDevice);
    return emu_cuda_device_attribute(value, (int)attr);
}
inline cudaError_t cudaDeviceReset() { return emu_cuda_device_synchronize(); }
inline cudaError_t cudaThreadExit() { return emu_cuda_device_synchronize(); }
inline cudaError_t cudaSetDeviceFlags(unsigned) { return cudaSuccess; }
/* The device that best matches prop: the emulator is the only one. */
inline cudaError_t cudaChooseDevice(int *device, const cudaDeviceProp *)
{
    *device = 0;
    return cudaSuccess;
}
inline cudaError_t cudaFree0() { return cudaSuccess; }
inline cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache) { return cudaSuccess; }
inline cudaError_t cudaDeviceSetSharedMemConfig(cudaSharedMemConfig) { return cudaSuccess; }
inline cudaError_t cudaDeviceCanAccessPeer(int *can, int, int)
{
    *can = 0;
    return cudaSuccess;
}
inline cudaError_t cudaDriverGetVersion(int *version)
{
    *version = CUDART_VERSION;
    return cudaSuccess;
}
inline cudaError_t cudaRuntimeGetVersion(int *version)
{
    *version = CUDART_VERSION;
    return cudaSuccess;
}
inline cudaError_t cudaPointerGetAttributes(cudaPointerAttributes *attributes, const void *ptr)
{
    attributes->type = 2;
    attributes->device = 0;
    attributes->devicePointer = (void *)ptr;
    attributes->hostPointer = (void *)ptr;
    return cudaSuccess;
}
/* a kernel's attributes and cache preferences: nothing to set on the emulator */
template <class F> inline cudaError_t cudaFuncSetAttribute(F, cudaFuncAttribute, int) { return cudaSuccess; }
template <class F> inline cudaError_t cudaFuncSetCacheConfig(F, cudaFuncCache) { return cudaSuccess; }
template <class F> inline cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *a, F)
{
    memset(a, 0, sizeof *a);
    a->maxThreadsPerBlock = 1024;
    a->binaryVersion = a->ptxVersion = 90;
    return cudaSuccess;
}
template <class F>
inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, F, int block_size, size_t)
{
    *blocks = block_size > 0 ? 2048 / block_size : 0;
    return cudaSuccess;
}
template <class F>
inline cudaError_t cudaOccupancyMaxPotentialBlockSize(int *min_grid, int *block_size, F, size_t = 0, int limit = 0)
{
    int stations = 1;
    emu_cuda_device_attribute(&stations, cudaDevAttrMultiProcessorCount);
    *block_size = limit > 0 && limit < 1024 ? limit : 1024;
    *min_grid = stations * (2048 / *block_size);
    return cudaSuccess;
}
/* the device's limits: its malloc heap and stack are the CPU's on the emulator */
enum cudaLimit {
    cudaLimitStackSize = 0x00,
    cudaLimitPrintfFifoSize = 0x01,
    cudaLimitMallocHeapSize = 0x02,
    cudaLimitDevRuntimeSyncDepth = 0x03,
    cudaLimitDevRuntimePendingLaunchCount = 0x04,
    cudaLimitMaxL2FetchGranularity = 0x05,
    cudaLimitPersistingL2CacheSize = 0x06
};
inline cudaError_t cudaDeviceSetLimit(cudaLimit, size_t) { return cudaSuccess; }
inline cudaError_t cudaDeviceGetLimit(size_t *value, cudaLimit limit)
{
    *value = limit == cudaLimitStackSize ? 1024 : limit == cudaLimitPrintfFifoSize ? (1u << 20) : (8u << 20);
    return cudaSuccess;
}

/* host functions in a stream's order: called when the stream's work before them has run */
#define CUDART_CB
typedef void (*cudaStreamCallback_t)(cudaStream_t stream, cudaError_t status, void *data);
typedef void (*cudaHostFn_t)(void *data);
inline cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void *data, unsigned)
{
    cudaError_t e = emu_cuda_stream_synchronize(stream);
    callback(stream, e, data);
    return cudaSuccess;
}
inline cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *data)
{
    cudaError_t e = emu_cuda_stream_synchronize(stream);
    if (e == cudaSuccess)
        fn(data);
    return e;
}

/* stream-ordered allocation: memory the stream's later work may use (the emulator allocates at once) */
inline cudaError_t cudaMallocAsync(void **ptr, size_t bytes, cudaStream_t = 0) { return emu_cuda_malloc(ptr, bytes); }
template <class T> inline cudaError_t cudaMallocAsync(T **ptr, size_t bytes, cudaStream_t stream = 0)
{
    return cudaMallocAsync((void **)ptr, bytes, stream);
}
inline cudaError_t cudaFreeAsync(void *ptr, cudaStream_t stream = 0)
{
    cudaError_t e = emu_cuda_stream_synchronize(stream);
    return e == cudaSuccess ? emu_cuda_free(ptr) : e;
}

/* memory pools: the emulator's allocations are cudaMalloc's; a pool's attributes change nothing */
typedef struct cudachef_mem_pool *cudaMemPool_t;
enum cudaMemPoolAttr {
    cudaMemPoolReuseFollowEventDependencies = 1,
    cudaMemPoolReuseAllowOpportunistic = 2,
    cudaMemPoolReuseAllowInternalDependencies = 3,
    cudaMemPoolAttrReleaseThreshold = 4,
    cudaMemPoolAttrReservedMemCurrent = 5,
    cudaMemPoolAttrReservedMemHigh = 6,
    cudaMemPoolAttrUsedMemCurrent = 7,
    cudaMemPoolAttrUsedMemHigh = 8
};
inline cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *pool, int device)
{
    *pool = (cudaMemPool_t)nullptr;
    return device == 0 ? cudaSuccess : cudaErrorInvalidDevice;
}
inline cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *pool, int device) { return cudaDeviceGetDefaultMemPool(pool, device); }
inline cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t, cudaMemPoolAttr, void *) { return cudaSuccess; }
inline cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t, cudaMemPoolAttr, void *value)
{
    *(unsigned long long *)value = 0;
    return cudaSuccess;
}
inline cudaError_t cudaMemPoolTrimTo(cudaMemPool_t, size_t) { return cudaSuccess; }

/* a cooperative launch needs every team resident at once (grid.sync()): not emulated */
template <class F>
cudaError_t cudaLaunchCooperativeKernel(F, dim3, dim3, void **, size_t = 0, cudaStream_t = 0)
    __attribute__((error("cudaLaunchCooperativeKernel (a cooperative launch) is not emulated: run this program on a GPU (--backend gpu)")));

/* The L2 cache's persistence hints and a stream's attributes: accepted, with nothing to set (the
   emulator has no L2 to keep lines in). */
enum cudaAccessProperty { cudaAccessPropertyNormal = 0, cudaAccessPropertyStreaming = 1, cudaAccessPropertyPersisting = 2 };
struct cudaAccessPolicyWindow {
    void *base_ptr;
    size_t num_bytes;
    float hitRatio;
    cudaAccessProperty hitProp, missProp;
};
enum cudaStreamAttrID { cudaStreamAttributeAccessPolicyWindow = 1, cudaStreamAttributeSynchronizationPolicy = 3,
                        cudaStreamAttributePriority = 8 };
union cudaStreamAttrValue {
    cudaAccessPolicyWindow accessPolicyWindow;
    int syncPolicy;
    int priority;
};
typedef cudaStreamAttrID cudaLaunchAttributeID;
typedef cudaStreamAttrValue cudaLaunchAttributeValue;
inline cudaError_t cudaStreamSetAttribute(cudaStream_t, cudaStreamAttrID, const cudaStreamAttrValue *) { return cudaSuccess; }
inline cudaError_t cudaStreamGetAttribute(cudaStream_t, cudaStreamAttrID, cudaStreamAttrValue *value)
{
    memset(value, 0, sizeof *value);
    return cudaSuccess;
}
inline cudaError_t cudaCtxResetPersistingL2Cache() { return cudaSuccess; }
inline cudaError_t cudaGetDeviceFlags(unsigned *flags)
{
    *flags = cudaDeviceMapHost;
    return cudaSuccess;
}
/* Advice on managed memory's pages: where they should live, who reads them. The emulator's one
   memory has every page everywhere: the advice is checked and kept by no one. */
enum cudaMemoryAdvise {
    cudaMemAdviseSetReadMostly = 1,
    cudaMemAdviseUnsetReadMostly = 2,
    cudaMemAdviseSetPreferredLocation = 3,
    cudaMemAdviseUnsetPreferredLocation = 4,
    cudaMemAdviseSetAccessedBy = 5,
    cudaMemAdviseUnsetAccessedBy = 6
};
inline cudaError_t cudaMemAdvise(const void *ptr, size_t bytes, cudaMemoryAdvise advice, int)
{
    return ptr && bytes && advice >= cudaMemAdviseSetReadMostly && advice <= cudaMemAdviseUnsetAccessedBy ? cudaSuccess
                                                                                                     : cudaErrorInvalidValue;
}
inline cudaError_t cudaMemAdvise(const void *ptr, size_t bytes, cudaMemoryAdvise advice, struct cudaMemLocation)
{
    return cudaMemAdvise(ptr, bytes, advice, 0);
}

/* Which stream may reach managed memory: the emulator's one memory serves every stream. */
inline cudaError_t cudaStreamAttachMemAsync(cudaStream_t, void *ptr, size_t = 0, unsigned = cudaMemAttachSingle)
{
    return ptr ? cudaSuccess : cudaErrorInvalidValue;
}
/* One device: no peer to reach (a program asks cudaDeviceCanAccessPeer first, and is told no). */
inline cudaError_t cudaDeviceEnablePeerAccess(int, unsigned) { return cudaErrorInvalidDevice; }
inline cudaError_t cudaDeviceDisablePeerAccess(int) { return cudaErrorInvalidDevice; }
inline cudaError_t cudaMemcpyPeer(void *dst, int dst_device, const void *src, int src_device, size_t bytes)
{
    return dst_device == 0 && src_device == 0 ? cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToDevice) : cudaErrorInvalidDevice;
}
inline cudaError_t cudaMemcpyPeerAsync(void *dst, int dst_device, const void *src, int src_device, size_t bytes,
                                       cudaStream_t stream = 0)
{
    return dst_device == 0 && src_device == 0 ? cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, stream)
                                              : cudaErrorInvalidDevice;
}

/* the profiler's marks: nothing to mark */
inline cudaError_t cudaProfilerStart() { return cudaSuccess; }
inline cudaError_t cudaProfilerStop() { return cudaSuccess; }

#endif
