/* nvToolsExt.h - NVTX, the marks and ranges a program leaves for a profiler's timeline (Nsight
   Systems). The emulator has no such profiler: every mark is accepted and does nothing, and a
   range's depth is still counted as NVTX counts it. */
#ifndef CUDACHEF_NVTOOLSEXT_H
#define CUDACHEF_NVTOOLSEXT_H

#include <stdint.h>

typedef uint64_t nvtxRangeId_t;
typedef struct nvtxDomainRegistration_st *nvtxDomainHandle_t;
typedef struct nvtxStringRegistration_st *nvtxStringHandle_t;
typedef enum nvtxColorType_t { NVTX_COLOR_UNKNOWN = 0, NVTX_COLOR_ARGB = 1 } nvtxColorType_t;
typedef enum nvtxMessageType_t { NVTX_MESSAGE_UNKNOWN = 0, NVTX_MESSAGE_TYPE_ASCII = 1, NVTX_MESSAGE_TYPE_UNICODE = 2,
                                 NVTX_MESSAGE_TYPE_REGISTERED = 3 } nvtxMessageType_t;
typedef union nvtxMessageValue_t {
    const char *ascii;
    const wchar_t *unicode;
    nvtxStringHandle_t registered;
} nvtxMessageValue_t;
typedef struct nvtxEventAttributes_v2 {
    uint16_t version, size;
    uint32_t category;
    int32_t colorType;
    uint32_t color;
    int32_t payloadType, reserved0;
    union {
        uint64_t ullValue;
        int64_t llValue;
        double dValue;
        uint32_t uiValue;
        int32_t iValue;
        float fValue;
    } payload;
    int32_t messageType;
    nvtxMessageValue_t message;
} nvtxEventAttributes_t;
#define NVTX_VERSION 3
#define NVTX_EVENT_ATTRIB_STRUCT_SIZE ((uint16_t)sizeof(nvtxEventAttributes_t))

/* how deep the ranges pushed and not yet popped go, as nvtxRangePush returns it */
static inline int cudachef_nvtx_depth(int change)
{
    static int depth;
    depth += change;
    return depth;
}
static inline void nvtxMarkA(const char *) {}
static inline void nvtxMarkEx(const nvtxEventAttributes_t *) {}
static inline nvtxRangeId_t nvtxRangeStartA(const char *) { return 1; }
static inline nvtxRangeId_t nvtxRangeStartEx(const nvtxEventAttributes_t *) { return 1; }
static inline void nvtxRangeEnd(nvtxRangeId_t) {}
static inline int nvtxRangePushA(const char *) { return cudachef_nvtx_depth(1) - 1; }
static inline int nvtxRangePushEx(const nvtxEventAttributes_t *) { return cudachef_nvtx_depth(1) - 1; }
static inline int nvtxRangePop(void) { return cudachef_nvtx_depth(0) > 0 ? cudachef_nvtx_depth(-1) : -1; }
static inline void nvtxNameOsThreadA(uint32_t, const char *) {}
static inline nvtxDomainHandle_t nvtxDomainCreateA(const char *) { return 0; }
static inline void nvtxDomainDestroy(nvtxDomainHandle_t) {}
static inline int nvtxDomainRangePushEx(nvtxDomainHandle_t, const nvtxEventAttributes_t *) { return cudachef_nvtx_depth(1) - 1; }
static inline int nvtxDomainRangePop(nvtxDomainHandle_t) { return nvtxRangePop(); }
#define nvtxMark nvtxMarkA
#define nvtxRangeStart nvtxRangeStartA
#define nvtxRangePush nvtxRangePushA
#define nvtxNameOsThread nvtxNameOsThreadA
#define nvtxDomainCreate nvtxDomainCreateA

#endif
