/*
 * cudachef_device.h - what CUDA C++ code calls inside a kernel, for a whole program on the
 * emulator (cudachef.h includes it): the barrier, the warp collectives (each a rendezvous of its
 * mask's lanes, naming the caller's line), every atomic on every type CUDA has it for, min and max
 * for every type, and the intrinsics and memory-order calls of the CUDA Math API and the
 * Programming Guide that learners' programs use. Each takes the caller's line with
 * __builtin_LINE(), so no CUDA word is a macro.
 */
#ifndef CUDACHEF_CXX_DEVICE_H
#define CUDACHEF_CXX_DEVICE_H

/* --- the barrier and the warp collectives --- */

inline void __syncthreads(int line = __builtin_LINE()) { emu_syncthreads(line); }
/* __syncthreads_count/and/or: the barrier, and the team's count of cooks whose predicate holds
   (three barriers: the count is cleared, added to by every cook, and read before the next use). */
inline int __syncthreads_count(int predicate, int line = __builtin_LINE())
{
    static thread_local int count;
    if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0)
        count = 0;
    emu_syncthreads(line);
    if (predicate)
        __atomic_fetch_add(&count, 1, __ATOMIC_RELAXED);
    emu_syncthreads(line);
    int total = count;
    emu_syncthreads(line);
    return total;
}
inline int __syncthreads_and(int predicate, int line = __builtin_LINE())
{
    return __syncthreads_count(predicate != 0, line) == (int)(blockDim.x * blockDim.y * blockDim.z);
}
inline int __syncthreads_or(int predicate, int line = __builtin_LINE()) { return __syncthreads_count(predicate != 0, line) > 0; }

inline void __syncwarp(unsigned mask = 0xffffffffu, int line = __builtin_LINE())
{
    (void)emu_warp_op(EMU_WARP_SYNC, mask, 0, 0, 32, line);
}
inline unsigned __ballot_sync(unsigned mask, int pred, int line = __builtin_LINE())
{
    return (unsigned)emu_warp_op(EMU_WARP_BALLOT, mask, pred != 0, 0, 32, line);
}
inline int __any_sync(unsigned mask, int pred, int line = __builtin_LINE())
{
    return (int)emu_warp_op(EMU_WARP_ANY, mask, pred != 0, 0, 32, line);
}
inline int __all_sync(unsigned mask, int pred, int line = __builtin_LINE())
{
    return (int)emu_warp_op(EMU_WARP_ALL, mask, pred != 0, 0, 32, line);
}
inline unsigned __activemask(int line = __builtin_LINE())
{
    return (unsigned)emu_warp_op(EMU_WARP_ACTIVE, 0, 0, 0, 32, line);
}

namespace cudachef {
/* A shuffle of any value of up to 8 bytes (ints, floats, half pairs, small structs): its bits go
   through one rendezvous; a larger value goes 8 bytes at a time, one rendezvous each. */
template <class T> inline T shuffle(int kind, unsigned mask, T var, int operand, int width, int line)
{
    static_assert(std::is_trivially_copyable_v<T>, "a shuffled value must be trivially copyable");
    unsigned char bytes[sizeof(T)];
    __builtin_memcpy(bytes, &var, sizeof(T));
    for (size_t at = 0; at < sizeof(T); at += 8) {
        uint64_t part = 0;
        size_t n = sizeof(T) - at < 8 ? sizeof(T) - at : 8;
        __builtin_memcpy(&part, bytes + at, n);
        part = emu_warp_op(kind, mask, part, operand, width, line);
        __builtin_memcpy(bytes + at, &part, n);
    }
    __builtin_memcpy(&var, bytes, sizeof(T));
    return var;
}
} // namespace cudachef

template <class T> inline T __shfl_sync(unsigned mask, T var, int src, int width = 32, int line = __builtin_LINE())
{
    return cudachef::shuffle(EMU_WARP_SHFL_IDX, mask, var, src, width, line);
}
template <class T>
inline T __shfl_up_sync(unsigned mask, T var, unsigned delta, int width = 32, int line = __builtin_LINE())
{
    return cudachef::shuffle(EMU_WARP_SHFL_UP, mask, var, (int)delta, width, line);
}
template <class T>
inline T __shfl_down_sync(unsigned mask, T var, unsigned delta, int width = 32, int line = __builtin_LINE())
{
    return cudachef::shuffle(EMU_WARP_SHFL_DOWN, mask, var, (int)delta, width, line);
}
template <class T> inline T __shfl_xor_sync(unsigned mask, T var, int lane_mask, int width = 32, int line = __builtin_LINE())
{
    return cudachef::shuffle(EMU_WARP_SHFL_XOR, mask, var, lane_mask, width, line);
}

/* --- atomics: real atomic operations on the address (teams run on several workers at once); the
   checked build checks and counts the address first, and the operation itself is not
   instrumented (CUDACHEF_PLAIN) --- */
namespace cudachef {
template <class T> CUDACHEF_PLAIN inline T *atomic_at(T *address)
{
#ifdef EMU_CHECKED
    emu_check_atomic((void *)address, sizeof *address);
#endif
    return address;
}
/* An operation done by compare-and-swap (floats' min and max, atomicInc/Dec, CAS on any width). */
template <class T, class Op> CUDACHEF_PLAIN inline T atomic_update(T *address, Op op)
{
    T old = __atomic_load_n(address, __ATOMIC_RELAXED), next;
    do
        next = op(old);
    while (!__atomic_compare_exchange_n(address, &old, next, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
    return old;
}
template <class T> CUDACHEF_PLAIN inline T atomic_float_update(T *address, T (*op)(T, T), T value)
{
    using Bits = std::conditional_t<sizeof(T) == 8, unsigned long long, unsigned int>;
    Bits *bits = reinterpret_cast<Bits *>(address);
    Bits old = __atomic_load_n(bits, __ATOMIC_RELAXED), next;
    T was;
    do {
        __builtin_memcpy(&was, &old, sizeof was);
        T now = op(was, value);
        __builtin_memcpy(&next, &now, sizeof next);
    } while (!__atomic_compare_exchange_n(bits, &old, next, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
    return was;
}
template <class T> inline T add(T a, T b) { return a + b; }
template <class T> inline T least(T a, T b) { return b < a ? b : a; }
template <class T> inline T most(T a, T b) { return b > a ? b : a; }
} // namespace cudachef

/* The integer atomics CUDA has for int, unsigned int, unsigned long long (and long long for min,
   max and the bitwise ones). */
#define CUDACHEF_ATOMIC_INT(T)                                                                     \
    CUDACHEF_PLAIN inline T atomicAdd(T *a, T v) { return __atomic_fetch_add(cudachef::atomic_at(a), v, __ATOMIC_RELAXED); } \
    CUDACHEF_PLAIN inline T atomicSub(T *a, T v) { return __atomic_fetch_sub(cudachef::atomic_at(a), v, __ATOMIC_RELAXED); } \
    CUDACHEF_PLAIN inline T atomicExch(T *a, T v) { return __atomic_exchange_n(cudachef::atomic_at(a), v, __ATOMIC_RELAXED); } \
    CUDACHEF_PLAIN inline T atomicAnd(T *a, T v) { return __atomic_fetch_and(cudachef::atomic_at(a), v, __ATOMIC_RELAXED); } \
    CUDACHEF_PLAIN inline T atomicOr(T *a, T v) { return __atomic_fetch_or(cudachef::atomic_at(a), v, __ATOMIC_RELAXED); } \
    CUDACHEF_PLAIN inline T atomicXor(T *a, T v) { return __atomic_fetch_xor(cudachef::atomic_at(a), v, __ATOMIC_RELAXED); } \
    CUDACHEF_PLAIN inline T atomicMin(T *a, T v) { return cudachef::atomic_update(cudachef::atomic_at(a), [v](T o) { return v < o ? v : o; }); } \
    CUDACHEF_PLAIN inline T atomicMax(T *a, T v) { return cudachef::atomic_update(cudachef::atomic_at(a), [v](T o) { return v > o ? v : o; }); } \
    CUDACHEF_PLAIN inline T atomicCAS(T *a, T compare, T v)                                        \
    {                                                                                              \
        __atomic_compare_exchange_n(cudachef::atomic_at(a), &compare, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED); \
        return compare;                                                                            \
    }
CUDACHEF_ATOMIC_INT(int)
CUDACHEF_ATOMIC_INT(unsigned int)
CUDACHEF_ATOMIC_INT(unsigned long long)
CUDACHEF_ATOMIC_INT(long long)
#undef CUDACHEF_ATOMIC_INT
CUDACHEF_PLAIN inline unsigned short atomicCAS(unsigned short *a, unsigned short compare, unsigned short v)
{
    __atomic_compare_exchange_n(cudachef::atomic_at(a), &compare, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    return compare;
}
/* atomicInc and atomicDec wrap around at limit, as CUDA's. */
CUDACHEF_PLAIN inline unsigned int atomicInc(unsigned int *a, unsigned int limit)
{
    return cudachef::atomic_update(cudachef::atomic_at(a), [limit](unsigned o) { return o >= limit ? 0u : o + 1; });
}
CUDACHEF_PLAIN inline unsigned int atomicDec(unsigned int *a, unsigned int limit)
{
    return cudachef::atomic_update(cudachef::atomic_at(a),
                                   [limit](unsigned o) { return (o == 0 || o > limit) ? limit : o - 1; });
}
/* Floating-point atomics: add, exchange, and (sm_90's) min and max. */
#define CUDACHEF_ATOMIC_FLOAT(T)                                                                   \
    CUDACHEF_PLAIN inline T atomicAdd(T *a, T v) { return cudachef::atomic_float_update<T>(cudachef::atomic_at(a), cudachef::add<T>, v); } \
    CUDACHEF_PLAIN inline T atomicMin(T *a, T v) { return cudachef::atomic_float_update<T>(cudachef::atomic_at(a), cudachef::least<T>, v); } \
    CUDACHEF_PLAIN inline T atomicMax(T *a, T v) { return cudachef::atomic_float_update<T>(cudachef::atomic_at(a), cudachef::most<T>, v); } \
    CUDACHEF_PLAIN inline T atomicExch(T *a, T v)                                                  \
    {                                                                                              \
        return cudachef::atomic_float_update<T>(cudachef::atomic_at(a), [](T, T n) { return n; }, v); \
    }
CUDACHEF_ATOMIC_FLOAT(float)
CUDACHEF_ATOMIC_FLOAT(double)
#undef CUDACHEF_ATOMIC_FLOAT
/* The _block and _system forms are the same operation on the emulator (one memory). */
#define atomicAdd_block atomicAdd
#define atomicAdd_system atomicAdd
#define atomicCAS_block atomicCAS
#define atomicCAS_system atomicCAS
#define atomicExch_block atomicExch
#define atomicExch_system atomicExch
#define atomicMax_block atomicMax
#define atomicMax_system atomicMax
#define atomicMin_block atomicMin
#define atomicMin_system atomicMin
#define atomicSub_block atomicSub
#define atomicSub_system atomicSub
#define atomicAnd_block atomicAnd
#define atomicAnd_system atomicAnd
#define atomicOr_block atomicOr
#define atomicOr_system atomicOr
#define atomicXor_block atomicXor
#define atomicXor_system atomicXor
#define atomicInc_block atomicInc
#define atomicInc_system atomicInc
#define atomicDec_block atomicDec
#define atomicDec_system atomicDec

/* --- min and max for every type CUDA has them for (a float is never cut to an int) --- */
#define CUDACHEF_MINMAX(A, B, R)                                                                   \
    inline R min(A a, B b) { return (R)a < (R)b ? (R)a : (R)b; }                                   \
    inline R max(A a, B b) { return (R)a > (R)b ? (R)a : (R)b; }
CUDACHEF_MINMAX(int, int, int)
CUDACHEF_MINMAX(unsigned int, unsigned int, unsigned int)
CUDACHEF_MINMAX(int, unsigned int, unsigned int)
CUDACHEF_MINMAX(unsigned int, int, unsigned int)
CUDACHEF_MINMAX(long, long, long)
CUDACHEF_MINMAX(unsigned long, unsigned long, unsigned long)
CUDACHEF_MINMAX(long, unsigned long, unsigned long)
CUDACHEF_MINMAX(unsigned long, long, unsigned long)
CUDACHEF_MINMAX(long long, long long, long long)
CUDACHEF_MINMAX(unsigned long long, unsigned long long, unsigned long long)
CUDACHEF_MINMAX(long long, unsigned long long, unsigned long long)
CUDACHEF_MINMAX(unsigned long long, long long, unsigned long long)
inline float min(float a, float b) { return fminf(a, b); }
inline float max(float a, float b) { return fmaxf(a, b); }
inline double min(double a, double b) { return fmin(a, b); }
inline double max(double a, double b) { return fmax(a, b); }
inline double min(float a, double b) { return fmin(a, b); }
inline double max(float a, double b) { return fmax(a, b); }
inline double min(double a, float b) { return fmin(a, b); }
inline double max(double a, float b) { return fmax(a, b); }
#undef CUDACHEF_MINMAX
/* CUDA's named integer min and max */
inline unsigned int umin(unsigned int a, unsigned int b) { return a < b ? a : b; }
inline unsigned int umax(unsigned int a, unsigned int b) { return a > b ? a : b; }
inline long long llmin(long long a, long long b) { return a < b ? a : b; }
inline long long llmax(long long a, long long b) { return a > b ? a : b; }
inline unsigned long long ullmin(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
inline unsigned long long ullmax(unsigned long long a, unsigned long long b) { return a > b ? a : b; }

/* --- intrinsics: the fast math functions compute as their precise kin (the GPU's are less exact;
   results then differ in the last places), integer and bit tricks exactly --- */
inline float __fdividef(float a, float b) { return a / b; }
inline float __expf(float x) { return expf(x); }
inline float __exp10f(float x) { return exp10f(x); }
inline float __logf(float x) { return logf(x); }
inline float __log2f(float x) { return log2f(x); }
inline float __log10f(float x) { return log10f(x); }
inline float __sinf(float x) { return sinf(x); }
inline float __cosf(float x) { return cosf(x); }
inline float __tanf(float x) { return tanf(x); }
inline void __sincosf(float x, float *s, float *c) { sincosf(x, s, c); }
inline float __powf(float x, float y) { return powf(x, y); }
inline float __saturatef(float x) { return x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x; }
inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
inline double rsqrt(double x) { return 1.0 / sqrt(x); }
inline float __frsqrt_rn(float x) { return 1.0f / sqrtf(x); }
inline float __fsqrt_rn(float x) { return sqrtf(x); }
inline float __frcp_rn(float x) { return 1.0f / x; }
inline float __fadd_rn(float a, float b) { return a + b; }
inline float __fsub_rn(float a, float b) { return a - b; }
inline float __fmul_rn(float a, float b) { return a * b; }
inline float __fdiv_rn(float a, float b) { return a / b; }
inline float __fmaf_rn(float a, float b, float c) { return fmaf(a, b, c); }
inline double __dadd_rn(double a, double b) { return a + b; }
inline double __dmul_rn(double a, double b) { return a * b; }
inline double __fma_rn(double a, double b, double c) { return fma(a, b, c); }
inline float sinpif(float x) { return sinf((float)M_PI * x); }
inline float cospif(float x) { return cosf((float)M_PI * x); }
inline double sinpi(double x) { return sin(M_PI * x); }
inline double cospi(double x) { return cos(M_PI * x); }
inline float normcdff(float x) { return 0.5f * erfcf(-x * (float)M_SQRT1_2); }
inline double normcdf(double x) { return 0.5 * erfc(-x * M_SQRT1_2); }
inline int __float2int_rn(float x) { return (int)nearbyintf(x); }
inline int __float2int_rz(float x) { return (int)x; }
inline int __float2int_rd(float x) { return (int)floorf(x); }
inline int __float2int_ru(float x) { return (int)ceilf(x); }
inline unsigned __float2uint_rn(float x) { return (unsigned)nearbyintf(x); }
inline float __int2float_rn(int x) { return (float)x; }
inline float __uint2float_rn(unsigned x) { return (float)x; }
inline int __double2int_rn(double x) { return (int)nearbyint(x); }
inline float __double2float_rn(double x) { return (float)x; }
inline int __float_as_int(float x) { int i; __builtin_memcpy(&i, &x, 4); return i; }
inline unsigned __float_as_uint(float x) { unsigned i; __builtin_memcpy(&i, &x, 4); return i; }
inline float __int_as_float(int i) { float x; __builtin_memcpy(&x, &i, 4); return x; }
inline float __uint_as_float(unsigned i) { float x; __builtin_memcpy(&x, &i, 4); return x; }
inline long long __double_as_longlong(double x) { long long i; __builtin_memcpy(&i, &x, 8); return i; }
inline double __longlong_as_double(long long i) { double x; __builtin_memcpy(&x, &i, 8); return x; }
inline int __mul24(int a, int b) { return (int)((long long)(a << 8 >> 8) * (b << 8 >> 8)); }
inline unsigned __umul24(unsigned a, unsigned b) { return (a & 0xffffffu) * (b & 0xffffffu); }
inline int __mulhi(int a, int b) { return (int)(((long long)a * b) >> 32); }
inline unsigned __umulhi(unsigned a, unsigned b) { return (unsigned)(((unsigned long long)a * b) >> 32); }
inline long long __mul64hi(long long a, long long b) { return (long long)(((__int128)a * b) >> 64); }
inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b)
{
    return (unsigned long long)(((unsigned __int128)a * b) >> 64);
}
inline int __popc(unsigned x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline int __clz(int x) { return x ? __builtin_clz((unsigned)x) : 32; }
inline int __clzll(long long x) { return x ? __builtin_clzll((unsigned long long)x) : 64; }
inline unsigned __brev(unsigned x)
{
    x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
    x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
    x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
    return __builtin_bswap32(x);
}
inline unsigned long long __brevll(unsigned long long x)
{
    return ((unsigned long long)__brev((unsigned)x) << 32) | __brev((unsigned)(x >> 32));
}
inline unsigned __byte_perm(unsigned x, unsigned y, unsigned s)
{
    unsigned long long both = ((unsigned long long)y << 32) | x;
    unsigned r = 0;
    for (int i = 0; i < 4; i++)
        r |= (unsigned)((both >> (8 * ((s >> (4 * i)) & 7))) & 0xff) << (8 * i);
    return r;
}
inline unsigned __sad(int x, int y, unsigned z) { return (unsigned)(x > y ? x - y : y - x) + z; }
inline unsigned __usad(unsigned x, unsigned y, unsigned z) { return (x > y ? x - y : y - x) + z; }
inline int __hadd(int a, int b) { return (int)(((long long)a + b) >> 1); }
inline int __rhadd(int a, int b) { return (int)(((long long)a + b + 1) >> 1); }
inline unsigned __funnelshift_l(unsigned lo, unsigned hi, unsigned s)
{
    unsigned long long v = ((unsigned long long)hi << 32) | lo;
    return (unsigned)((v << (s & 31)) >> 32);
}
inline unsigned __funnelshift_r(unsigned lo, unsigned hi, unsigned s)
{
    unsigned long long v = ((unsigned long long)hi << 32) | lo;
    return (unsigned)(v >> (s & 31));
}

/* --- loads and stores with cache hints: plain loads and stores on the emulator --- */
template <class T> inline T __ldg(const T *p) { return *p; }
template <class T> inline T __ldcg(const T *p) { return *p; }
template <class T> inline T __ldca(const T *p) { return *p; }
template <class T> inline T __ldcs(const T *p) { return *p; }
template <class T> inline T __ldlu(const T *p) { return *p; }
template <class T> inline T __ldcv(const T *p) { return *p; }
template <class T> inline void __stcg(T *p, T v) { *p = v; }
template <class T> inline void __stcs(T *p, T v) { *p = v; }
template <class T> inline void __stwb(T *p, T v) { *p = v; }
template <class T> inline void __stwt(T *p, T v) { *p = v; }

/* --- memory order, time, and stopping --- */
inline void __threadfence() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline void __threadfence_block() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline void __threadfence_system() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
/* clock64(): nanoseconds of the worker's CPU time (a cook's own cycles on a GPU). */
inline long long clock64()
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}
inline long long __clock64() { return clock64(); }
/* clock(): in a kernel, CUDA's clock() is the cook's cycle counter (clock64's, cut to clock_t); in
   host code it is the C library's (CPU time in CLOCKS_PER_SEC). One function serves both, as the
   cook's nanoseconds at the 1 GHz the emulator reports as its clock rate. */
extern "C" int emu_on_cook(void);
extern "C" inline clock_t clock(void) noexcept
{
    struct timespec t;
    if (emu_on_cook())
        return (clock_t)clock64();
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (clock_t)t.tv_sec * CLOCKS_PER_SEC + (clock_t)(t.tv_nsec / (1000000000L / CLOCKS_PER_SEC));
}
inline unsigned long long __globaltimer()
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return (unsigned long long)t.tv_sec * 1000000000ULL + (unsigned long long)t.tv_nsec;
}
inline void __nanosleep(unsigned ns) { (void)ns; }
inline unsigned __smid() { return 0; }
[[noreturn]] inline void __trap() { abort(); }
inline void __brkpt() {}

#endif
