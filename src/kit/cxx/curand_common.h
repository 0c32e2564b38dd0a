/*
 * curand_common.h - what cuRAND's host API (curand.h) and device API (curand_kernel.h) share on the
 * emulator: the statuses and generator types with cuRAND's names and numbers, and the generator
 * itself.
 *
 * The numbers are not NVIDIA's. cuRAND's XORWOW, Philox and MRG32k3a sequences are not reproduced:
 * every generator here is one counter-based generator (SplitMix64 over the seed, the sequence and
 * the position), so a number depends only on where it stands, never on how the work was split
 * among cooks or calls, as cuRAND's counter-based Philox behaves. A program whose check computes
 * its expected result from the same numbers (a CPU reference, a statistic: the Monte Carlo estimate
 * of pi) passes; one that compares with figures a GPU printed does not.
 */
#ifndef CUDACHEF_CURAND_COMMON_H
#define CUDACHEF_CURAND_COMMON_H

#include <math.h>
#include <stdint.h>

typedef enum curandStatus {
    CURAND_STATUS_SUCCESS = 0,
    CURAND_STATUS_VERSION_MISMATCH = 100,
    CURAND_STATUS_NOT_INITIALIZED = 101,
    CURAND_STATUS_ALLOCATION_FAILED = 102,
    CURAND_STATUS_TYPE_ERROR = 103,
    CURAND_STATUS_OUT_OF_RANGE = 104,
    CURAND_STATUS_LENGTH_NOT_MULTIPLE = 105,
    CURAND_STATUS_DOUBLE_PRECISION_REQUIRED = 106,
    CURAND_STATUS_LAUNCH_FAILURE = 201,
    CURAND_STATUS_PREEXISTING_FAILURE = 202,
    CURAND_STATUS_INITIALIZATION_FAILED = 203,
    CURAND_STATUS_ARCH_MISMATCH = 204,
    CURAND_STATUS_INTERNAL_ERROR = 999
} curandStatus_t;

typedef enum curandRngType {
    CURAND_RNG_TEST = 0,
    CURAND_RNG_PSEUDO_DEFAULT = 100,
    CURAND_RNG_PSEUDO_XORWOW = 101,
    CURAND_RNG_PSEUDO_MRG32K3A = 121,
    CURAND_RNG_PSEUDO_MTGP32 = 141,
    CURAND_RNG_PSEUDO_MT19937 = 142,
    CURAND_RNG_PSEUDO_PHILOX4_32_10 = 161,
    CURAND_RNG_QUASI_DEFAULT = 200,
    CURAND_RNG_QUASI_SOBOL32 = 201,
    CURAND_RNG_QUASI_SCRAMBLED_SOBOL32 = 202,
    CURAND_RNG_QUASI_SOBOL64 = 203,
    CURAND_RNG_QUASI_SCRAMBLED_SOBOL64 = 204
} curandRngType_t;

namespace cudachef {
/* SplitMix64's finaliser: 64 well-mixed bits of x. */
inline uint64_t rand_mix(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}
/* The key of the sequence (seed, subsequence). */
inline uint64_t rand_key(uint64_t seed, uint64_t subsequence) { return rand_mix(rand_mix(seed) ^ rand_mix(subsequence ^ 0x5851F42D4C957F2DULL)); }
/* The 64 bits at position n of the sequence of key. */
inline uint64_t rand_at(uint64_t key, uint64_t n) { return rand_mix(key ^ rand_mix(n)); }
/* A uniform float in (0, 1] from 32 bits, as cuRAND's range is. */
inline float rand_uniform(uint32_t x) { return (float)((x + 1.0) * (1.0 / 4294967296.0)); }
/* A uniform double in (0, 1] from 64 bits. */
inline double rand_uniform_double(uint64_t x) { return ((x >> 11) + 1.0) * (1.0 / 9007199254740992.0); }
/* Two normal numbers from two uniform ones (Box-Muller). */
inline void rand_normal_pair(double u1, double u2, double *a, double *b)
{
    double r = sqrt(-2.0 * log(u1)), t = 6.283185307179586 * u2;
    *a = r * cos(t);
    *b = r * sin(t);
}
} // namespace cudachef

#endif
