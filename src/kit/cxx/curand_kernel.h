/*
 * curand_kernel.h - cuRAND's device API on the emulator: each cook's own generator state
 * (curand_init with a seed, a subsequence and an offset) and the numbers drawn from it (curand,
 * curand_uniform, curand_normal and their double and vector forms). The numbers come from the
 * kit's counter-based generator, not NVIDIA's sequences (curand_common.h says what that means for
 * a program's check); different subsequences are independent, as cuRAND's are.
 */
#ifndef CUDACHEF_CURAND_KERNEL_H
#define CUDACHEF_CURAND_KERNEL_H

#include "cudachef.h"
#include "curand.h"

namespace cudachef {
/* One cook's generator: the key of its sequence, where it stands, and the second number of a
   normal pair kept for the next call (as cuRAND keeps it). */
struct rand_state {
    uint64_t key, position;
    int has_extra, has_extra_double;
    float extra;
    double extra_double;
};
} // namespace cudachef
struct curandStateXORWOW : cudachef::rand_state {};
struct curandStatePhilox4_32_10 : cudachef::rand_state {};
struct curandStateMRG32k3a : cudachef::rand_state {};
typedef struct curandStateXORWOW curandStateXORWOW_t;
typedef struct curandStateXORWOW curandState_t;
typedef struct curandStateXORWOW curandState;
typedef struct curandStatePhilox4_32_10 curandStatePhilox4_32_10_t;
typedef struct curandStateMRG32k3a curandStateMRG32k3a_t;

template <class S> inline void curand_init(unsigned long long seed, unsigned long long subsequence, unsigned long long offset, S *state)
{
    state->key = cudachef::rand_key(seed, subsequence);
    state->position = offset;
    state->has_extra = state->has_extra_double = 0;
}
/* 32 random bits. */
template <class S> inline unsigned int curand(S *state) { return (unsigned int)(cudachef::rand_at(state->key, state->position++) >> 32); }
template <class S> inline float curand_uniform(S *state) { return cudachef::rand_uniform(curand(state)); }
template <class S> inline double curand_uniform_double(S *state)
{
    return cudachef::rand_uniform_double(cudachef::rand_at(state->key, state->position++));
}
template <class S> inline float curand_normal(S *state)
{
    if (state->has_extra) {
        state->has_extra = 0;
        return state->extra;
    }
    double a, b;
    cudachef::rand_normal_pair(curand_uniform_double(state), curand_uniform_double(state), &a, &b);
    state->extra = (float)b;
    state->has_extra = 1;
    return (float)a;
}
template <class S> inline double curand_normal_double(S *state)
{
    if (state->has_extra_double) {
        state->has_extra_double = 0;
        return state->extra_double;
    }
    double a, b;
    cudachef::rand_normal_pair(curand_uniform_double(state), curand_uniform_double(state), &a, &b);
    state->extra_double = b;
    state->has_extra_double = 1;
    return a;
}
template <class S> inline float curand_log_normal(S *state, float mean, float stddev) { return expf(mean + stddev * curand_normal(state)); }
template <class S> inline double curand_log_normal_double(S *state, double mean, double stddev)
{
    return exp(mean + stddev * curand_normal_double(state));
}
/* Poisson numbers by counting exponential arrivals (small lambda) or a rounded normal (large). */
template <class S> inline unsigned int curand_poisson(S *state, double lambda)
{
    if (lambda > 64)
        return (unsigned int)fmax(0.0, floor(lambda + sqrt(lambda) * curand_normal_double(state) + 0.5));
    double limit = exp(-lambda), p = 1;
    unsigned int k = 0;
    do {
        k++;
        p *= curand_uniform_double(state);
    } while (p > limit);
    return k - 1;
}
/* Philox's four at a time. */
template <class S> inline uint4 curand4(S *state) { return make_uint4(curand(state), curand(state), curand(state), curand(state)); }
template <class S> inline float4 curand_uniform4(S *state)
{
    return make_float4(curand_uniform(state), curand_uniform(state), curand_uniform(state), curand_uniform(state));
}
template <class S> inline float4 curand_normal4(S *state)
{
    return make_float4(curand_normal(state), curand_normal(state), curand_normal(state), curand_normal(state));
}
template <class S> inline double2 curand_uniform2_double(S *state) { return make_double2(curand_uniform_double(state), curand_uniform_double(state)); }
template <class S> inline double2 curand_normal2_double(S *state) { return make_double2(curand_normal_double(state), curand_normal_double(state)); }
/* Moving a state along its sequence, or to another subsequence. */
template <class S> inline void skipahead(unsigned long long n, S *state) { state->position += n; }

#endif
