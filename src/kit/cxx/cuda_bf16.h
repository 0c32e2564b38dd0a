/*
 * cuda_bf16.h - CUDA's bfloat16 for a whole program on the emulator: __nv_bfloat16 and its pair,
 * their arithmetic (in float, rounded once to the nearest, ties to even, as ../emu_half.h
 * converts) and conversions.
 */
#ifndef CUDACHEF_CXX_BF16_H
#define CUDACHEF_CXX_BF16_H

#include "cudachef.h"
#include "../emu_half.h"

struct __nv_bfloat162 {
    __nv_bfloat16 x, y;
    __nv_bfloat162() = default;
    __nv_bfloat162(__nv_bfloat16 a, __nv_bfloat16 b) : x(a), y(b) {}
};
typedef __nv_bfloat162 nv_bfloat162;

#define CUDACHEF_BF16_OP(name, op)                                                                 \
    inline __nv_bfloat16 name(__nv_bfloat16 a, __nv_bfloat16 b)                                   \
    {                                                                                              \
        return __float2bfloat16(__bfloat162float(a) op __bfloat162float(b));                       \
    }                                                                                              \
    inline __nv_bfloat16 operator op(__nv_bfloat16 a, __nv_bfloat16 b) { return name(a, b); }
CUDACHEF_BF16_OP(__hadd, +)
CUDACHEF_BF16_OP(__hsub, -)
CUDACHEF_BF16_OP(__hmul, *)
CUDACHEF_BF16_OP(__hdiv, /)
#undef CUDACHEF_BF16_OP
inline __nv_bfloat16 &operator+=(__nv_bfloat16 &a, __nv_bfloat16 b) { return a = a + b; }
inline __nv_bfloat16 &operator*=(__nv_bfloat16 &a, __nv_bfloat16 b) { return a = a * b; }
inline __nv_bfloat16 __hfma(__nv_bfloat16 a, __nv_bfloat16 b, __nv_bfloat16 c)
{
    return __float2bfloat16(fmaf(__bfloat162float(a), __bfloat162float(b), __bfloat162float(c)));
}
inline bool operator<(__nv_bfloat16 a, __nv_bfloat16 b) { return __bfloat162float(a) < __bfloat162float(b); }
inline bool operator>(__nv_bfloat16 a, __nv_bfloat16 b) { return __bfloat162float(a) > __bfloat162float(b); }
inline __nv_bfloat16 __float2bfloat16_rn(float f) { return __float2bfloat16(f); }
inline __nv_bfloat162 __floats2bfloat162_rn(float a, float b) { return __nv_bfloat162{__float2bfloat16(a), __float2bfloat16(b)}; }
inline __nv_bfloat162 __float2bfloat162_rn(float a) { return __nv_bfloat162{__float2bfloat16(a), __float2bfloat16(a)}; }
inline float2 __bfloat1622float2(__nv_bfloat162 h) { return float2{__bfloat162float(h.x), __bfloat162float(h.y)}; }
inline float __low2float(__nv_bfloat162 h) { return __bfloat162float(h.x); }
inline float __high2float(__nv_bfloat162 h) { return __bfloat162float(h.y); }
inline __nv_bfloat16 __ushort_as_bfloat16(unsigned short u) { __nv_bfloat16 b; b.__x = u; return b; }
inline unsigned short __bfloat16_as_ushort(__nv_bfloat16 b) { return b.__x; }

#endif
