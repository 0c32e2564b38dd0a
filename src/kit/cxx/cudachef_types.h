/*
 * cudachef_types.h - CUDA's vector types (char1 ... double4) and their make_* functions, for a
 * whole program on the emulator (cudachef.h includes it). Alignment as CUDA's vector_types.h: a
 * 1- or 3-vector is aligned as its element, a 2-vector to twice it, a 4-vector to four times it
 * (16 bytes at most); each may alias memory of its element type, as CUDA code reads a float array
 * through float4 pointers. uint3 is the emulator's own (../emu_kernel.h), dim3 is cudachef.h's.
 */
#ifndef CUDACHEF_CXX_TYPES_H
#define CUDACHEF_CXX_TYPES_H

#define CUDACHEF_MIN16(n) ((n) < 16 ? (n) : 16)

/* One vector type and its make_ function. */
#define CUDACHEF_VEC1(T, V) \
    struct __attribute__((may_alias, aligned(sizeof(T)))) V { T x; }; \
    inline V make_##V(T x) { return V{x}; }
#define CUDACHEF_VEC2(T, V) \
    struct __attribute__((may_alias, aligned(CUDACHEF_MIN16(2 * sizeof(T))))) V { T x, y; }; \
    inline V make_##V(T x, T y) { return V{x, y}; }
#define CUDACHEF_VEC3(T, V) \
    struct __attribute__((may_alias, aligned(sizeof(T)))) V { T x, y, z; }; \
    inline V make_##V(T x, T y, T z) { return V{x, y, z}; }
#define CUDACHEF_VEC4(T, V) \
    struct __attribute__((may_alias, aligned(CUDACHEF_MIN16(4 * sizeof(T))))) V { T x, y, z, w; }; \
    inline V make_##V(T x, T y, T z, T w) { return V{x, y, z, w}; }
/* The four widths of one element type. */
#define CUDACHEF_VECS(T, name) \
    CUDACHEF_VEC1(T, name##1) CUDACHEF_VEC2(T, name##2) CUDACHEF_VEC3(T, name##3) CUDACHEF_VEC4(T, name##4)

CUDACHEF_VECS(signed char, char)
CUDACHEF_VECS(unsigned char, uchar)
CUDACHEF_VECS(short, short)
CUDACHEF_VECS(unsigned short, ushort)
CUDACHEF_VECS(int, int)
CUDACHEF_VEC1(unsigned int, uint1)
CUDACHEF_VEC2(unsigned int, uint2)
CUDACHEF_VEC4(unsigned int, uint4)
inline uint3 make_uint3(unsigned int x, unsigned int y, unsigned int z) { return uint3{x, y, z}; }
CUDACHEF_VECS(long, long)
CUDACHEF_VECS(unsigned long, ulong)
CUDACHEF_VECS(long long, longlong)
CUDACHEF_VECS(unsigned long long, ulonglong)
CUDACHEF_VECS(float, float)
CUDACHEF_VECS(double, double)

#undef CUDACHEF_VECS
#undef CUDACHEF_VEC1
#undef CUDACHEF_VEC2
#undef CUDACHEF_VEC3
#undef CUDACHEF_VEC4
#undef CUDACHEF_MIN16

#endif
