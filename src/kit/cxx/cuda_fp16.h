/*
 * cuda_fp16.h - CUDA's half precision for a whole program on the emulator: __half and __half2 with
 * the arithmetic, comparisons and conversions of the toolkit's cuda_fp16.h that programs use. Each
 * operation is done in float and rounded to half once (to the nearest, ties to even, as
 * ../emu_half.h converts): for +, - and * of two halves that is the GPU's correctly rounded result.
 */
#ifndef CUDACHEF_CXX_FP16_H
#define CUDACHEF_CXX_FP16_H

#include "cudachef.h"
#include "../emu_half.h"

struct __half2 {
    __half x, y;
    __half2() = default;
    __half2(__half a, __half b) : x(a), y(b) {}
};
typedef __half2 half2;
struct __half_raw {
    unsigned short x;
};

/* One operation of two halves (or pairs), in float, rounded once. */
#define CUDACHEF_HALF_OP(name, expr)                                                               \
    inline __half name(__half a, __half b) { float x = __half2float(a), y = __half2float(b); return __float2half(expr); } \
    inline __half2 name##2(__half2 a, __half2 b) { return __half2{name(a.x, b.x), name(a.y, b.y)}; }
CUDACHEF_HALF_OP(__hadd, x + y)
CUDACHEF_HALF_OP(__hsub, x - y)
CUDACHEF_HALF_OP(__hmul, x * y)
CUDACHEF_HALF_OP(__hdiv, x / y)
CUDACHEF_HALF_OP(__hmin, fminf(x, y))
CUDACHEF_HALF_OP(__hmax, fmaxf(x, y))
#undef CUDACHEF_HALF_OP
inline __half __hfma(__half a, __half b, __half c) { return __float2half(fmaf(__half2float(a), __half2float(b), __half2float(c))); }
inline __half2 __hfma2(__half2 a, __half2 b, __half2 c) { return __half2{__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y)}; }
inline __half __hneg(__half a) { a.__x ^= 0x8000u; return a; }
inline __half2 __hneg2(__half2 a) { return __half2{__hneg(a.x), __hneg(a.y)}; }
inline __half __habs(__half a) { a.__x &= 0x7fffu; return a; }
inline __half2 __habs2(__half2 a) { return __half2{__habs(a.x), __habs(a.y)}; }
inline __half operator+(__half a, __half b) { return __hadd(a, b); }
inline __half operator-(__half a, __half b) { return __hsub(a, b); }
inline __half operator*(__half a, __half b) { return __hmul(a, b); }
inline __half operator/(__half a, __half b) { return __hdiv(a, b); }
inline __half operator-(__half a) { return __hneg(a); }
inline __half &operator+=(__half &a, __half b) { return a = __hadd(a, b); }
inline __half &operator-=(__half &a, __half b) { return a = __hsub(a, b); }
inline __half &operator*=(__half &a, __half b) { return a = __hmul(a, b); }
inline __half &operator/=(__half &a, __half b) { return a = __hdiv(a, b); }
inline bool operator==(__half a, __half b) { return __half2float(a) == __half2float(b); }
inline bool operator!=(__half a, __half b) { return __half2float(a) != __half2float(b); }
inline bool operator<(__half a, __half b) { return __half2float(a) < __half2float(b); }
inline bool operator>(__half a, __half b) { return __half2float(a) > __half2float(b); }
inline bool operator<=(__half a, __half b) { return __half2float(a) <= __half2float(b); }
inline bool operator>=(__half a, __half b) { return __half2float(a) >= __half2float(b); }
inline __half2 operator+(__half2 a, __half2 b) { return __hadd2(a, b); }
inline __half2 operator-(__half2 a, __half2 b) { return __hsub2(a, b); }
inline __half2 operator*(__half2 a, __half2 b) { return __hmul2(a, b); }
inline __half2 &operator+=(__half2 &a, __half2 b) { return a = __hadd2(a, b); }
inline __half2 &operator*=(__half2 &a, __half2 b) { return a = __hmul2(a, b); }
inline bool __heq(__half a, __half b) { return a == b; }
inline bool __hne(__half a, __half b) { return a != b; }
inline bool __hlt(__half a, __half b) { return a < b; }
inline bool __hgt(__half a, __half b) { return a > b; }
inline bool __hle(__half a, __half b) { return a <= b; }
inline bool __hge(__half a, __half b) { return a >= b; }
inline bool __hisnan(__half a) { return (a.__x & 0x7fffu) > 0x7c00u; }
inline bool __hisinf(__half a) { return (a.__x & 0x7fffu) == 0x7c00u; }

/* conversions */
inline __half __float2half_rn(float f) { return __float2half(f); }
inline __half __double2half(double d) { return __float2half((float)d); }
inline __half __int2half_rn(int i) { return __float2half((float)i); }
inline int __half2int_rn(__half h) { return (int)nearbyintf(__half2float(h)); }
inline int __half2int_rz(__half h) { return (int)__half2float(h); }
inline __half __ushort_as_half(unsigned short u) { __half h; h.__x = u; return h; }
inline unsigned short __half_as_ushort(__half h) { return h.__x; }
inline short __half_as_short(__half h) { return (short)h.__x; }
inline __half __short_as_half(short s) { __half h; h.__x = (unsigned short)s; return h; }
inline __half2 __float2half2_rn(float f) { __half h = __float2half(f); return __half2{h, h}; }
inline __half2 __floats2half2_rn(float a, float b) { return __half2{__float2half(a), __float2half(b)}; }
inline __half2 __float22half2_rn(float2 f) { return __half2{__float2half(f.x), __float2half(f.y)}; }
inline float2 __half22float2(__half2 h) { return float2{__half2float(h.x), __half2float(h.y)}; }
inline __half2 __halves2half2(__half a, __half b) { return __half2{a, b}; }
inline __half2 __half2half2(__half a) { return __half2{a, a}; }
inline __half __low2half(__half2 h) { return h.x; }
inline __half __high2half(__half2 h) { return h.y; }
inline float __low2float(__half2 h) { return __half2float(h.x); }
inline float __high2float(__half2 h) { return __half2float(h.y); }
inline __half2 __lows2half2(__half2 a, __half2 b) { return __half2{a.x, b.x}; }
inline __half2 __highs2half2(__half2 a, __half2 b) { return __half2{a.y, b.y}; }
inline __half2 __lowhigh2highlow(__half2 h) { return __half2{h.y, h.x}; }
inline __half hsqrt(__half a) { return __float2half(sqrtf(__half2float(a))); }
inline __half hrsqrt(__half a) { return __float2half(1.0f / sqrtf(__half2float(a))); }
inline __half hexp(__half a) { return __float2half(expf(__half2float(a))); }
inline __half hlog(__half a) { return __float2half(logf(__half2float(a))); }
inline __half __ldg(const __half *p) { return *p; }
inline __half2 __ldg(const __half2 *p) { return *p; }

#endif
