/*
 * recipe_kernels.cu - a whole program (make bench-programs, scripts/bench-programs.sh) that
 * launches two of cudachef's recipe kernels, included from kernels/ unchanged, as a learner's
 * program would: once (the checked launch), then REPS plain launches, each timed with events, and
 * prints each kernel's median. The same kernels cooked as recipes (cudachef run) are timed beside
 * it, so the two front doors of the emulator are compared on the very same source.
 *
 * Usage: recipe_kernels N_MATRIX N_VECTOR REPS
 */
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "matmul_tiled.cu"
#include "vector_add.cu"

/* The median of the times of reps launches that launch() makes, each between two events. */
template <class Launch> static float median_ms(int reps, Launch launch)
{
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    launch(); /* the first: the checked one on the emulator */
    std::vector<float> ms;
    for (int r = 0; r < reps; r++) {
        cudaEventRecord(start);
        launch();
        cudaEventRecord(stop);
        cudaEventSynchronize(stop);
        float t = 0;
        cudaEventElapsedTime(&t, start, stop);
        ms.push_back(t);
    }
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 256, count = argc > 2 ? atoi(argv[2]) : 1 << 20, reps = argc > 3 ? atoi(argv[3]) : 9;
    std::vector<float> a((size_t)n * n, 1.0f), b((size_t)n * n, 0.5f);
    float *dA, *dB, *dC;
    cudaMalloc(&dA, a.size() * sizeof(float));
    cudaMalloc(&dB, b.size() * sizeof(float));
    cudaMalloc(&dC, a.size() * sizeof(float));
    cudaMemcpy(dA, a.data(), a.size() * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(dB, b.data(), b.size() * sizeof(float), cudaMemcpyHostToDevice);
    dim3 team(TILE, TILE), grid((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);
    float tiled = median_ms(reps, [&] { matmul_tiled<<<grid, team>>>(dA, dB, dC, n); });
    std::vector<float> c(a.size());
    cudaMemcpy(c.data(), dC, c.size() * sizeof(float), cudaMemcpyDeviceToHost);
    int wrong = c[0] != 0.5f * n;
    float *x, *y, *z;
    cudaMalloc(&x, count * sizeof(float));
    cudaMalloc(&y, count * sizeof(float));
    cudaMalloc(&z, count * sizeof(float));
    cudaMemset(x, 0, count * sizeof(float));
    cudaMemset(y, 0, count * sizeof(float));
    float add = median_ms(reps, [&] { vector_add<<<(count + 255) / 256, 256>>>(x, y, z, count); });
    printf("matmul_tiled n=%d median_ms=%.4f\nvector_add n=%d median_ms=%.4f\n%s\n", n, tiled, count, add,
           wrong ? "WRONG" : "ok");
    cudaFree(dA);
    cudaFree(dB);
    cudaFree(dC);
    cudaFree(x);
    cudaFree(y);
    cudaFree(z);
    return wrong;
}
