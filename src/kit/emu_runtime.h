/*
 * emu_runtime.h - the CUDA runtime's host words for the C compiler (the CPU emulator's side), so
 * that a learner's host code (the five steps: cudaMalloc, the copies, the launch, the checks,
 * cudaFree) builds with nvcc as real CUDA and with the C compiler against the emulator.
 *
 * Included by kernel.h when a file is compiled as C. Each name is a macro onto a function emu_cuda_*
 * that the program running the code defines (src/engine/host_runtime.c): device memory between
 * guard pages, copies that check where their pointers are, launches on the emulator, errors as
 * CUDA reports them (the last error, sticky errors after a kernel fault), and faults planned by
 * the grader (docs/EMULATOR.md, "Host code"). The launch `kernel<<<grid, block>>>(args)` is not C:
 * the emulator's source pass (emu_prep.c) rewrites it into a call of emu_launch_KERNEL (made by
 * emu_table.c from the .def list), and `dim3 grid(x, y)` into `dim3 grid = EMU_DIM3(x, y)`.
 */
#ifndef CUDACHEF_EMU_RUNTIME_H
#define CUDACHEF_EMU_RUNTIME_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" { /* CUDA C++ programs (src/kit/cxx/cudachef.h) call the same functions through C++ words */
#endif

/* The error codes, with the CUDA runtime's names and numbers. */
typedef enum cudaError {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
    cudaErrorInitializationError = 3,
    cudaErrorCudartUnloading = 4,
    cudaErrorProfilerDisabled = 5,
    cudaErrorProfilerNotInitialized = 6,
    cudaErrorProfilerAlreadyStarted = 7,
    cudaErrorProfilerAlreadyStopped = 8,
    cudaErrorInvalidConfiguration = 9,
    cudaErrorInvalidPitchValue = 12,
    cudaErrorInvalidSymbol = 13,
    cudaErrorInvalidHostPointer = 16,
    cudaErrorInvalidDevicePointer = 17,
    cudaErrorInvalidTexture = 18,
    cudaErrorInvalidTextureBinding = 19,
    cudaErrorInvalidChannelDescriptor = 20,
    cudaErrorInvalidMemcpyDirection = 21,
    cudaErrorAddressOfConstant = 22,
    cudaErrorTextureFetchFailed = 23,
    cudaErrorTextureNotBound = 24,
    cudaErrorSynchronizationError = 25,
    cudaErrorInvalidFilterSetting = 26,
    cudaErrorInvalidNormSetting = 27,
    cudaErrorMixedDeviceExecution = 28,
    cudaErrorNotYetImplemented = 31,
    cudaErrorMemoryValueTooLarge = 32,
    cudaErrorStubLibrary = 34,
    cudaErrorInsufficientDriver = 35,
    cudaErrorCallRequiresNewerDriver = 36,
    cudaErrorInvalidSurface = 37,
    cudaErrorDuplicateVariableName = 43,
    cudaErrorDuplicateTextureName = 44,
    cudaErrorDuplicateSurfaceName = 45,
    cudaErrorDevicesUnavailable = 46,
    cudaErrorIncompatibleDriverContext = 49,
    cudaErrorMissingConfiguration = 52,
    cudaErrorPriorLaunchFailure = 53,
    cudaErrorLaunchMaxDepthExceeded = 65,
    cudaErrorLaunchFileScopedTex = 66,
    cudaErrorLaunchFileScopedSurf = 67,
    cudaErrorSyncDepthExceeded = 68,
    cudaErrorLaunchPendingCountExceeded = 69,
    cudaErrorInvalidDeviceFunction = 98,
    cudaErrorNoDevice = 100,
    cudaErrorInvalidDevice = 101,
    cudaErrorDeviceNotLicensed = 102,
    cudaErrorSoftwareValidityNotEstablished = 103,
    cudaErrorStartupFailure = 127,
    cudaErrorInvalidKernelImage = 200,
    cudaErrorDeviceUninitialized = 201,
    cudaErrorMapBufferObjectFailed = 205,
    cudaErrorUnmapBufferObjectFailed = 206,
    cudaErrorArrayIsMapped = 207,
    cudaErrorAlreadyMapped = 208,
    cudaErrorNoKernelImageForDevice = 209,
    cudaErrorAlreadyAcquired = 210,
    cudaErrorNotMapped = 211,
    cudaErrorNotMappedAsArray = 212,
    cudaErrorNotMappedAsPointer = 213,
    cudaErrorECCUncorrectable = 214,
    cudaErrorUnsupportedLimit = 215,
    cudaErrorDeviceAlreadyInUse = 216,
    cudaErrorPeerAccessUnsupported = 217,
    cudaErrorInvalidPtx = 218,
    cudaErrorInvalidGraphicsContext = 219,
    cudaErrorNvlinkUncorrectable = 220,
    cudaErrorJitCompilerNotFound = 221,
    cudaErrorUnsupportedPtxVersion = 222,
    cudaErrorJitCompilationDisabled = 223,
    cudaErrorUnsupportedExecAffinity = 224,
    cudaErrorUnsupportedDevSideSync = 225,
    cudaErrorContained = 226,
    cudaErrorInvalidSource = 300,
    cudaErrorFileNotFound = 301,
    cudaErrorSharedObjectSymbolNotFound = 302,
    cudaErrorSharedObjectInitFailed = 303,
    cudaErrorOperatingSystem = 304,
    cudaErrorInvalidResourceHandle = 400,
    cudaErrorIllegalState = 401,
    cudaErrorLossyQuery = 402,
    cudaErrorSymbolNotFound = 500,
    cudaErrorNotReady = 600,
    cudaErrorIllegalAddress = 700,
    cudaErrorLaunchOutOfResources = 701,
    cudaErrorLaunchTimeout = 702,
    cudaErrorLaunchIncompatibleTexturing = 703,
    cudaErrorPeerAccessAlreadyEnabled = 704,
    cudaErrorPeerAccessNotEnabled = 705,
    cudaErrorSetOnActiveProcess = 708,
    cudaErrorContextIsDestroyed = 709,
    cudaErrorAssert = 710,
    cudaErrorTooManyPeers = 711,
    cudaErrorHostMemoryAlreadyRegistered = 712,
    cudaErrorHostMemoryNotRegistered = 713,
    cudaErrorHardwareStackError = 714,
    cudaErrorIllegalInstruction = 715,
    cudaErrorMisalignedAddress = 716,
    cudaErrorInvalidAddressSpace = 717,
    cudaErrorInvalidPc = 718,
    cudaErrorLaunchFailure = 719,
    cudaErrorCooperativeLaunchTooLarge = 720,
    cudaErrorTensorMemoryLeak = 721,
    cudaErrorNotPermitted = 800,
    cudaErrorNotSupported = 801,
    cudaErrorSystemNotReady = 802,
    cudaErrorSystemDriverMismatch = 803,
    cudaErrorCompatNotSupportedOnDevice = 804,
    cudaErrorMpsConnectionFailed = 805,
    cudaErrorMpsRpcFailure = 806,
    cudaErrorMpsServerNotReady = 807,
    cudaErrorMpsMaxClientsReached = 808,
    cudaErrorMpsMaxConnectionsReached = 809,
    cudaErrorMpsClientTerminated = 810,
    cudaErrorCdpNotSupported = 811,
    cudaErrorCdpVersionMismatch = 812,
    cudaErrorStreamCaptureUnsupported = 900,
    cudaErrorStreamCaptureInvalidated = 901,
    cudaErrorStreamCaptureMerge = 902,
    cudaErrorStreamCaptureUnmatched = 903,
    cudaErrorStreamCaptureUnjoined = 904,
    cudaErrorStreamCaptureIsolation = 905,
    cudaErrorStreamCaptureImplicit = 906,
    cudaErrorCapturedEvent = 907,
    cudaErrorStreamCaptureWrongThread = 908,
    cudaErrorTimeout = 909,
    cudaErrorGraphExecUpdateFailure = 910,
    cudaErrorExternalDevice = 911,
    cudaErrorInvalidClusterSize = 912,
    cudaErrorFunctionNotLoaded = 913,
    cudaErrorInvalidResourceType = 914,
    cudaErrorInvalidResourceConfiguration = 915,
    cudaErrorUnknown = 999,
    cudaErrorApiFailureBase = 10000
} cudaError_t;

/* Which way a copy goes. */
typedef enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault = 4
} cudaMemcpyKind;

typedef struct emu_cuda_event *cudaEvent_t;

/* Streams, pinned and managed memory (host_runtime.c keeps each stream's queue: work runs, in
   stream order, when something waits for it). */
typedef struct emu_cuda_stream *cudaStream_t;
struct emu_cuda_stream; /* the default stream is 0 (CUDA's legacy default stream) */
enum cudaMemLocationType {
    cudaMemLocationTypeInvalid = 0,
    cudaMemLocationTypeDevice = 1,
    cudaMemLocationTypeHost = 2
};
struct cudaMemLocation {
    enum cudaMemLocationType type;
    int id;
};
#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01
#define cudaHostAllocDefault 0x00
#define cudaMemAttachGlobal 0x01
#define cudaCpuDeviceId ((int)-1)

/* A launch's configuration, as the rewritten <<<grid, block, shared, stream>>> gives it. */
typedef struct emu_cuda_config {
    unsigned grid[3], block[3];
    size_t shared;
    cudaStream_t stream;
} emu_cuda_config;

cudaError_t emu_cuda_malloc(void **ptr, size_t bytes);
cudaError_t emu_cuda_free(void *ptr);
cudaError_t emu_cuda_memcpy(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind);
cudaError_t emu_cuda_memset(void *ptr, int value, size_t bytes);
cudaError_t emu_cuda_get_last_error(void);
cudaError_t emu_cuda_peek_at_last_error(void);
cudaError_t emu_cuda_device_synchronize(void);
const char *emu_cuda_error_string(cudaError_t error);
const char *emu_cuda_error_name(cudaError_t error);
cudaError_t emu_cuda_event_create(cudaEvent_t *event);
cudaError_t emu_cuda_event_record(cudaEvent_t event);
cudaError_t emu_cuda_event_synchronize(cudaEvent_t event);
cudaError_t emu_cuda_event_elapsed_time(float *ms, cudaEvent_t start, cudaEvent_t stop);
cudaError_t emu_cuda_event_destroy(cudaEvent_t event);
/* Launches the kernel registered as name with args packed as for cudaLaunchKernel, at once. */
cudaError_t emu_cuda_launch(const char *name, emu_cuda_config config, void **args);
/* The same, queued on the configuration's stream: the nargs arguments' values (sizes[i] bytes
   each) are kept until the launch runs. */
cudaError_t emu_cuda_launch_queued(const char *name, emu_cuda_config config, void **args, const size_t *sizes,
                                   int nargs);
cudaError_t emu_cuda_stream_create(cudaStream_t *stream, unsigned flags);
cudaError_t emu_cuda_stream_destroy(cudaStream_t stream);
cudaError_t emu_cuda_stream_synchronize(cudaStream_t stream);
cudaError_t emu_cuda_stream_query(cudaStream_t stream);
cudaError_t emu_cuda_memcpy_async(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind, cudaStream_t stream);
cudaError_t emu_cuda_malloc_host(void **ptr, size_t bytes);
cudaError_t emu_cuda_free_host(void *ptr);
cudaError_t emu_cuda_malloc_managed(void **ptr, size_t bytes);
cudaError_t emu_cuda_mem_prefetch_async(const void *ptr, size_t bytes, struct cudaMemLocation location,
                                        unsigned flags, cudaStream_t stream);
cudaError_t emu_cuda_get_device(int *device);

/* What cudaGetDeviceProperties tells: the emulator's own limits (as an H100/H200's where it has
   the same rule), its stations (workers) as multiprocessors, and a name that says what it is. */
typedef struct cudaDeviceProp {
    char name[256];
    char uuid[16];
    char luid[8];
    unsigned int luidDeviceNodeMask;
    size_t totalGlobalMem;
    size_t sharedMemPerBlock;
    int regsPerBlock;
    int warpSize;
    size_t memPitch;
    int maxThreadsPerBlock;
    int maxThreadsDim[3];
    int maxGridSize[3];
    size_t totalConstMem;
    int major;
    int minor;
    size_t textureAlignment;
    size_t texturePitchAlignment;
    int multiProcessorCount;
    int integrated;
    int canMapHostMemory;
    int maxTexture1D;
    int maxTexture1DMipmap;
    int maxTexture2D[2];
    int maxTexture2DMipmap[2];
    int maxTexture2DLinear[3];
    int maxTexture2DGather[2];
    int maxTexture3D[3];
    int maxTexture3DAlt[3];
    int maxTextureCubemap;
    int maxTexture1DLayered[2];
    int maxTexture2DLayered[3];
    int maxTextureCubemapLayered[2];
    int maxSurface1D;
    int maxSurface2D[2];
    int maxSurface3D[3];
    int maxSurface1DLayered[2];
    int maxSurface2DLayered[3];
    int maxSurfaceCubemap;
    int maxSurfaceCubemapLayered[2];
    size_t surfaceAlignment;
    int concurrentKernels;
    int ECCEnabled;
    int pciBusID;
    int pciDeviceID;
    int pciDomainID;
    int tccDriver;
    int asyncEngineCount;
    int unifiedAddressing;
    int memoryBusWidth;
    int l2CacheSize;
    int persistingL2CacheMaxSize;
    int maxThreadsPerMultiProcessor;
    int streamPrioritiesSupported;
    int globalL1CacheSupported;
    int localL1CacheSupported;
    size_t sharedMemPerMultiprocessor;
    int regsPerMultiprocessor;
    int managedMemory;
    int isMultiGpuBoard;
    int multiGpuBoardGroupID;
    int hostNativeAtomicSupported;
    int pageableMemoryAccess;
    int concurrentManagedAccess;
    int computePreemptionSupported;
    int canUseHostPointerForRegisteredMem;
    int cooperativeLaunch;
    size_t sharedMemPerBlockOptin;
    int pageableMemoryAccessUsesHostPageTables;
    int directManagedMemAccessFromHost;
    int maxBlocksPerMultiProcessor;
    int accessPolicyMaxWindowSize;
    size_t reservedSharedMemPerBlock;
    int hostRegisterSupported;
    int sparseCudaArraySupported;
    int hostRegisterReadOnlySupported;
    int timelineSemaphoreInteropSupported;
    int memoryPoolsSupported;
    int gpuDirectRDMASupported;
    unsigned int gpuDirectRDMAFlushWritesOptions;
    int gpuDirectRDMAWritesOrdering;
    unsigned int memoryPoolSupportedHandleTypes;
    int deferredMappingCudaArraySupported;
    int ipcEventSupported;
    int clusterLaunch;
    int unifiedFunctionPointers;
    int deviceNumaConfig;
    int deviceNumaId;
    int mpsEnabled;
    int hostNumaId;
    unsigned int gpuPciDeviceID;
    unsigned int gpuPciSubsystemID;
    int hostNumaMultinodeIpcSupported;
    int reserved[56];
    /* fields CUDA 13 took out, which older programs and books (CUDA by Example) still read: kept so
       that they build on the emulator, with what the emulator is (see host_runtime.c) */
    int clockRate;
    int memoryClockRate;
    int deviceOverlap;
    int kernelExecTimeoutEnabled;
    int computeMode;
    int maxTexture1DLinear;
    int cooperativeMultiDeviceLaunch;
    int singleToDoublePrecisionPerfRatio;
} cudaDeviceProp;

/* A launch site of a whole program (src/kit/cxx/cudachef.h): the entry that cooks a team by calling
   the launch's closure; the program's plain and checked builds each hold one under the same name. */
typedef struct emu_site {
    void (*entry)(void **args);
} emu_site;

/* kernel<<<config>>>(args) of a whole program: call (size bytes, the kernel's closure with its
   arguments' values) is kept and queued on the configuration's stream; the first launch at each site
   runs the checked build (host_runtime.c). kernel, file and line name it in reports. */
cudaError_t emu_cuda_launch_site(const emu_site *site, const char *kernel, const char *file, int line,
                                 emu_cuda_config config, const void *call, size_t size);
/* cudaGetDeviceProperties of the emulator (size: the caller's struct's, for a check). */
cudaError_t emu_cuda_device_properties(cudaDeviceProp *prop, size_t size);
/* The calls only programs make (src/kit/cxx/cudachef_runtime.h gives them CUDA's names). */
cudaError_t emu_cuda_device_attribute(int *value, int attr);
cudaError_t emu_cuda_memset_async(void *ptr, int value, size_t bytes, cudaStream_t stream);
cudaError_t emu_cuda_mem_get_info(size_t *free_bytes, size_t *total);
cudaError_t emu_cuda_event_query(cudaEvent_t event);
cudaError_t emu_cuda_stream_wait_event(cudaStream_t stream, cudaEvent_t event);
cudaError_t emu_cuda_event_record_on(cudaEvent_t event, cudaStream_t stream);
cudaError_t emu_cuda_memcpy_symbol(void *dst, const void *src, size_t bytes);
cudaError_t emu_cuda_host_device_pointer(void **device, void *host);
cudaError_t emu_cuda_note_refused(const char *what, cudaError_t error);


#ifdef __cplusplus
}
#else
#define cudaMalloc(ptr, bytes) emu_cuda_malloc((void **)(ptr), (bytes))
#define cudaFree(ptr) emu_cuda_free((void *)(ptr))
#define cudaMemcpy(dst, src, bytes, kind) emu_cuda_memcpy((dst), (src), (bytes), (kind))
#define cudaMemset(ptr, value, bytes) emu_cuda_memset((ptr), (value), (bytes))
#define cudaGetLastError() emu_cuda_get_last_error()
#define cudaPeekAtLastError() emu_cuda_peek_at_last_error()
#define cudaDeviceSynchronize() emu_cuda_device_synchronize()
#define cudaGetErrorString(error) emu_cuda_error_string(error)
#define cudaGetErrorName(error) emu_cuda_error_name(error)
#define cudaEventCreate(event) emu_cuda_event_create(event)
#define cudaEventRecord(event, ...) emu_cuda_event_record(event)
#define cudaEventSynchronize(event) emu_cuda_event_synchronize(event)
#define cudaEventElapsedTime(ms, start, stop) emu_cuda_event_elapsed_time((ms), (start), (stop))
#define cudaEventDestroy(event) emu_cuda_event_destroy(event)
#define cudaStreamCreate(stream) emu_cuda_stream_create((stream), cudaStreamDefault)
#define cudaStreamCreateWithFlags(stream, flags) emu_cuda_stream_create((stream), (flags))
#define cudaStreamDestroy(stream) emu_cuda_stream_destroy(stream)
#define cudaStreamSynchronize(stream) emu_cuda_stream_synchronize(stream)
#define cudaStreamQuery(stream) emu_cuda_stream_query(stream)
#define EMU_STREAM_ARG(...) EMU_SECOND(0 __VA_OPT__(, __VA_ARGS__), 0)
#define cudaMemcpyAsync(dst, src, bytes, kind, ...)                                                \
    emu_cuda_memcpy_async((dst), (src), (bytes), (kind), (cudaStream_t)(EMU_STREAM_ARG(__VA_ARGS__)))
#define cudaMallocHost(ptr, bytes) emu_cuda_malloc_host((void **)(ptr), (bytes))
#define cudaHostAlloc(ptr, bytes, flags) emu_cuda_malloc_host((void **)(ptr), (bytes))
#define cudaFreeHost(ptr) emu_cuda_free_host((void *)(ptr))
#define cudaMallocManaged(ptr, ...) emu_cuda_malloc_managed((void **)(ptr), EMU_FIRST(__VA_ARGS__, 0))
#define cudaMemPrefetchAsync(ptr, bytes, location, flags, ...)                                     \
    emu_cuda_mem_prefetch_async((ptr), (bytes), (location), (flags), (cudaStream_t)(EMU_STREAM_ARG(__VA_ARGS__)))
#define cudaGetDevice(device) emu_cuda_get_device(device)

/* dim3 as CUDA C++ constructs it: dim3(x), dim3(x, y), dim3(x, y, z); the source pass writes
   `dim3 grid(x, y);` as `dim3 grid = EMU_DIM3(x, y);`. */
static inline dim3 emu_dim3_xyz(unsigned x, unsigned y, unsigned z)
{
    dim3 d = {x, y, z};
    return d;
}
#define EMU_DIM3_ARGS(x, y, z, ...) (x), (y), (z)
#define EMU_DIM3(...) emu_dim3_xyz(EMU_DIM3_ARGS(__VA_ARGS__, 1, 1))

/* A launch's grid or block from a dim3 or a number. */
static inline dim3 emu_dim3_same(dim3 d)
{
    return d;
}
static inline dim3 emu_dim3_count(unsigned long long x)
{
    return emu_dim3_xyz((unsigned)x, 1, 1);
}
#define EMU_DIM3_OF(x) _Generic((x), dim3: emu_dim3_same, default: emu_dim3_count)(x)
static inline emu_cuda_config emu_cuda_config_make(dim3 grid, dim3 block, size_t shared, cudaStream_t stream)
{
    emu_cuda_config c = {{grid.x, grid.y, grid.z}, {block.x, block.y, block.z}, shared, stream};
    return c;
}
#define EMU_FIRST(a, ...) (a)
#define EMU_SECOND(a, b, ...) (b)
#define EMU_THIRD(a, b, c, ...) (c)
/* What the source pass writes for <<<grid, block>>> and <<<grid, block, shared[, stream]>>>. */
#define EMU_CONFIG(grid, block, ...)                                                               \
    emu_cuda_config_make(EMU_DIM3_OF(grid), EMU_DIM3_OF(block), (size_t)(0 __VA_OPT__(+EMU_FIRST(__VA_ARGS__, 0))), \
                         (cudaStream_t)(EMU_THIRD(0 __VA_OPT__(, __VA_ARGS__), 0, 0, 0)))
#endif

#endif
