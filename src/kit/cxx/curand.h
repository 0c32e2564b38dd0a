/*
 * curand.h - cuRAND's host API on the emulator: generators that fill memory with random numbers
 * (curandCreateGenerator, curandGenerateUniform, curandGenerateNormal, ...), each call after the
 * work queued before it, as cuRAND's kernels follow it. The numbers come from the kit's
 * counter-based generator, not NVIDIA's sequences (curand_common.h says what that means for a
 * program's check).
 */
#ifndef CUDACHEF_CURAND_H
#define CUDACHEF_CURAND_H
#define CURAND_H_ /* the toolkit's guard, which helper headers (helper_cuda.h) test */

#include "cudachef.h"
#include "curand_common.h"

struct cudachef_curand_generator {
    curandRngType_t type;
    int host;             /* curandCreateGeneratorHost: it writes the head chef's memory */
    uint64_t seed, offset; /* the sequence's seed, and where the next number stands in it */
};
typedef struct cudachef_curand_generator *curandGenerator_t;
typedef enum curandOrdering { CURAND_ORDERING_PSEUDO_BEST = 100, CURAND_ORDERING_PSEUDO_DEFAULT = 101,
                              CURAND_ORDERING_PSEUDO_SEEDED = 102, CURAND_ORDERING_QUASI_DEFAULT = 201 } curandOrdering_t;

inline curandStatus_t cudachef_curand_create(curandGenerator_t *g, curandRngType_t type, int host)
{
    if (!g)
        return CURAND_STATUS_NOT_INITIALIZED;
    if (type < CURAND_RNG_PSEUDO_DEFAULT || type > CURAND_RNG_QUASI_SCRAMBLED_SOBOL64)
        return CURAND_STATUS_TYPE_ERROR;
    *g = new cudachef_curand_generator{type, host, 0, 0};
    return CURAND_STATUS_SUCCESS;
}
inline curandStatus_t curandCreateGenerator(curandGenerator_t *g, curandRngType_t type) { return cudachef_curand_create(g, type, 0); }
inline curandStatus_t curandCreateGeneratorHost(curandGenerator_t *g, curandRngType_t type) { return cudachef_curand_create(g, type, 1); }
inline curandStatus_t curandDestroyGenerator(curandGenerator_t g)
{
    if (!g)
        return CURAND_STATUS_NOT_INITIALIZED;
    delete g;
    return CURAND_STATUS_SUCCESS;
}
inline curandStatus_t curandSetPseudoRandomGeneratorSeed(curandGenerator_t g, unsigned long long seed)
{
    if (!g)
        return CURAND_STATUS_NOT_INITIALIZED;
    g->seed = seed;
    g->offset = 0;
    return CURAND_STATUS_SUCCESS;
}
inline curandStatus_t curandSetGeneratorOffset(curandGenerator_t g, unsigned long long offset)
{
    if (!g)
        return CURAND_STATUS_NOT_INITIALIZED;
    g->offset = offset;
    return CURAND_STATUS_SUCCESS;
}
inline curandStatus_t curandSetGeneratorOrdering(curandGenerator_t g, curandOrdering_t) { return g ? CURAND_STATUS_SUCCESS : CURAND_STATUS_NOT_INITIALIZED; }
inline curandStatus_t curandSetQuasiRandomGeneratorDimensions(curandGenerator_t g, unsigned) { return g ? CURAND_STATUS_SUCCESS : CURAND_STATUS_NOT_INITIALIZED; }
inline curandStatus_t curandSetStream(curandGenerator_t g, cudaStream_t) { return g ? CURAND_STATUS_SUCCESS : CURAND_STATUS_NOT_INITIALIZED; }
inline curandStatus_t curandGenerateSeeds(curandGenerator_t g) { return g ? CURAND_STATUS_SUCCESS : CURAND_STATUS_NOT_INITIALIZED; }
inline curandStatus_t curandGetVersion(int *version)
{
    *version = 10400;
    return CURAND_STATUS_SUCCESS;
}

/* Fills n values at out with make(bits at each position), after the work queued before it. */
template <class T, class F> inline curandStatus_t cudachef_curand_fill(curandGenerator_t g, T *out, size_t n, F make)
{
    if (!g)
        return CURAND_STATUS_NOT_INITIALIZED;
    if (!out && n)
        return CURAND_STATUS_OUT_OF_RANGE;
    if (!g->host && cudaDeviceSynchronize() != cudaSuccess)
        return CURAND_STATUS_PREEXISTING_FAILURE;
    uint64_t key = cudachef::rand_key(g->seed, 0);
    for (size_t i = 0; i < n; i++)
        out[i] = make(cudachef::rand_at(key, g->offset + i));
    g->offset += n;
    return CURAND_STATUS_SUCCESS;
}
inline curandStatus_t curandGenerate(curandGenerator_t g, unsigned int *out, size_t n)
{
    return cudachef_curand_fill(g, out, n, [](uint64_t x) { return (unsigned int)(x >> 32); });
}
inline curandStatus_t curandGenerateLongLong(curandGenerator_t g, unsigned long long *out, size_t n)
{
    return cudachef_curand_fill(g, out, n, [](uint64_t x) { return (unsigned long long)x; });
}
inline curandStatus_t curandGenerateUniform(curandGenerator_t g, float *out, size_t n)
{
    return cudachef_curand_fill(g, out, n, [](uint64_t x) { return cudachef::rand_uniform((uint32_t)(x >> 32)); });
}
inline curandStatus_t curandGenerateUniformDouble(curandGenerator_t g, double *out, size_t n)
{
    return cudachef_curand_fill(g, out, n, [](uint64_t x) { return cudachef::rand_uniform_double(x); });
}
/* Normal numbers come in pairs (Box-Muller): n must be even, as cuRAND asks of its pseudo-random generators. */
template <class T> inline curandStatus_t cudachef_curand_normal(curandGenerator_t g, T *out, size_t n, T mean, T stddev, int log_normal)
{
    if (!g)
        return CURAND_STATUS_NOT_INITIALIZED;
    if (n % 2)
        return CURAND_STATUS_LENGTH_NOT_MULTIPLE;
    if (!g->host && cudaDeviceSynchronize() != cudaSuccess)
        return CURAND_STATUS_PREEXISTING_FAILURE;
    uint64_t key = cudachef::rand_key(g->seed, 0);
    for (size_t i = 0; i < n; i += 2) {
        double a, b;
        cudachef::rand_normal_pair(cudachef::rand_uniform_double(cudachef::rand_at(key, g->offset + i)),
                                   cudachef::rand_uniform_double(cudachef::rand_at(key, g->offset + i + 1)), &a, &b);
        a = mean + stddev * a;
        b = mean + stddev * b;
        out[i] = (T)(log_normal ? exp(a) : a);
        out[i + 1] = (T)(log_normal ? exp(b) : b);
    }
    g->offset += n;
    return CURAND_STATUS_SUCCESS;
}
inline curandStatus_t curandGenerateNormal(curandGenerator_t g, float *out, size_t n, float mean, float stddev)
{
    return cudachef_curand_normal(g, out, n, mean, stddev, 0);
}
inline curandStatus_t curandGenerateNormalDouble(curandGenerator_t g, double *out, size_t n, double mean, double stddev)
{
    return cudachef_curand_normal(g, out, n, mean, stddev, 0);
}
inline curandStatus_t curandGenerateLogNormal(curandGenerator_t g, float *out, size_t n, float mean, float stddev)
{
    return cudachef_curand_normal(g, out, n, mean, stddev, 1);
}
inline curandStatus_t curandGenerateLogNormalDouble(curandGenerator_t g, double *out, size_t n, double mean, double stddev)
{
    return cudachef_curand_normal(g, out, n, mean, stddev, 1);
}

#endif
