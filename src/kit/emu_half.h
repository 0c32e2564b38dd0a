/*
 * emu_half.h - CUDA's 16-bit floats and TF32 rounding for the C compiler: half (FP16),
 * __nv_bfloat16 (BF16), their conversions from and to float, and __float_to_tf32.
 *
 * half and __nv_bfloat16 are storage types (16 bits in a struct: no C arithmetic on them by
 * mistake). The conversions round as CUDA's do, to the nearest and ties to even, with subnormals,
 * infinities and NaN (0x7fff, the GPU's one NaN) as the GPU makes them. __float_to_tf32 rounds as
 * cvt.rna.tf32.f32 does: to the nearest, ties away from zero. Kernels get this header through
 * emu_wmma.h; the recipes' CPU references use it too, to round their inputs as the kernels do.
 */
#ifndef CUDACHEF_EMU_HALF_H
#define CUDACHEF_EMU_HALF_H

#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
/* In C++ (a whole program, src/kit/cxx/cuda_fp16.h) the types convert to and from float as CUDA's
   do; their bits and every conversion below are the same. */
struct __half;
struct __nv_bfloat16;
static inline __half __float2half(float f);
static inline float __half2float(__half h);
static inline __nv_bfloat16 __float2bfloat16(float f);
static inline float __bfloat162float(__nv_bfloat16 b);
struct __half {
    unsigned short __x;
    __half() = default;
    __half(float f) { *this = __float2half(f); }
    __half(double d) { *this = __float2half((float)d); }
    __half(int i) { *this = __float2half((float)i); }
    operator float() const { return __half2float(*this); }
};
struct __nv_bfloat16 {
    unsigned short __x;
    __nv_bfloat16() = default;
    __nv_bfloat16(float f) { *this = __float2bfloat16(f); }
    __nv_bfloat16(double d) { *this = __float2bfloat16((float)d); }
    __nv_bfloat16(int i) { *this = __float2bfloat16((float)i); }
    operator float() const { return __bfloat162float(*this); }
};
#else
typedef struct __half {
    unsigned short __x;
} __half;
typedef struct __nv_bfloat16 {
    unsigned short __x;
} __nv_bfloat16;
#endif
typedef __half half;
typedef __nv_bfloat16 nv_bfloat16;

/* The bits of a float, and back. */
static inline uint32_t emu_float_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}
static inline float emu_bits_float(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* f rounded to FP16 (1 sign, 5 exponent, 10 mantissa bits), to the nearest and ties to even. Every
   case is computed and one chosen, without branches: on a GPU this is one instruction, and a branch
   here would count as divergence in the emulator's counts. */
static inline __half __float2half(float f)
{
    uint32_t u = emu_float_bits(f), a = u & 0x7fffffffu, sign = (u >> 16) & 0x8000u;
    /* 2^-14 and above: a normal half, the exponent moved from float's bias (127) to half's (15) */
    uint32_t r = a - (112u << 23), normal = r >> 13, rest = r & 0x1fffu;
    normal += rest > 0x1000u || (rest == 0x1000u && (normal & 1));
    /* below: a subnormal half, in steps of 2^-24 (the shift kept in range for every input) */
    uint32_t e = a >> 23, m = (a & 0x7fffffu) | 0x800000u, shift = e >= 112 ? 14 : e <= 95 ? 31 : 126 - e;
    uint32_t sub = m >> shift, srest = m & ((1u << shift) - 1), tie = 1u << (shift - 1);
    sub += srest > tie || (srest == tie && (sub & 1));
    uint32_t bits = a >= 0x38800000u ? normal : a > 0x33000000u ? sub : 0; /* 2^-25 and below: zero */
    bits = a >= 0x477ff000u ? 0x7c00u : bits; /* 65520 and above round to infinity */
    __half h;
    h.__x = (unsigned short)(a > 0x7f800000u ? 0x7fffu : sign | bits); /* NaN: the GPU's one NaN */
    return h;
}

/* h as a float (exact). */
static inline float __half2float(__half h)
{
    uint32_t sign = (uint32_t)(h.__x & 0x8000u) << 16, e = (h.__x >> 10) & 0x1fu, m = h.__x & 0x3ffu;
    if (e == 0x1f)
        return emu_bits_float(sign | 0x7f800000u | (m << 13));
    if (e == 0) {
        float v = (float)m * 0x1p-24f;
        return sign ? -v : v;
    }
    return emu_bits_float(sign | ((e + 112) << 23) | (m << 13));
}

/* f rounded to BF16 (a float's 8 exponent bits, 7 mantissa bits), to the nearest and ties to even. */
static inline __nv_bfloat16 __float2bfloat16(float f)
{
    uint32_t u = emu_float_bits(f);
    __nv_bfloat16 b;
    if ((u & 0x7fffffffu) > 0x7f800000u)
        b.__x = 0x7fff;
    else
        b.__x = (unsigned short)((u + 0x7fffu + ((u >> 16) & 1)) >> 16);
    return b;
}

/* b as a float (exact). */
static inline float __bfloat162float(__nv_bfloat16 b)
{
    return emu_bits_float((uint32_t)b.__x << 16);
}

#ifndef __cplusplus /* C++ has them as functions (src/kit/cxx/cuda_fp16.h, cuda_bf16.h) */
#define __float2half_rn(f) __float2half(f)
#define __float2bfloat16_rn(f) __float2bfloat16(f)
#endif

/* f rounded to TF32 (10 mantissa bits) as cvt.rna.tf32.f32 does: to the nearest, ties away from zero. */
static inline float __float_to_tf32(float f)
{
    uint32_t u = emu_float_bits(f);
    if ((u & 0x7f800000u) != 0x7f800000u)
        u = (u + 0x1000u) & 0xffffe000u;
    return emu_bits_float(u);
}

#endif
