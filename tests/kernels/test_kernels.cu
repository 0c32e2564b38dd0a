/*
 * test_kernels.cu - small kernels that exercise one emulator rule each (see tests/test_emu.c).
 *
 * Written in the part of CUDA C that is also C, like the kernels in kernels/: they compile for
 * the emulator here and must also compile with nvcc.
 */
#include "kernel.h"

/* Every cook writes its own coordinates, encoded, at its global linear index. */
__global__ void write_index_3d(int *out)
{
    unsigned block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    unsigned thread = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    unsigned global = block * (blockDim.x * blockDim.y * blockDim.z) + thread;
    out[global] = (int)(threadIdx.x | threadIdx.y << 8 | threadIdx.z << 16 | blockIdx.x << 24);
}

/* Every cook writes 12 numbers at 12 * its global index: threadIdx, blockIdx, blockDim, gridDim. */
__global__ void write_coords(int *out)
{
    unsigned block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    unsigned thread = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    int *o = out + 12 * (block * (blockDim.x * blockDim.y * blockDim.z) + thread);
    o[0] = (int)threadIdx.x;
    o[1] = (int)threadIdx.y;
    o[2] = (int)threadIdx.z;
    o[3] = (int)blockIdx.x;
    o[4] = (int)blockIdx.y;
    o[5] = (int)blockIdx.z;
    o[6] = (int)blockDim.x;
    o[7] = (int)blockDim.y;
    o[8] = (int)blockDim.z;
    o[9] = (int)gridDim.x;
    o[10] = (int)gridDim.y;
    o[11] = (int)gridDim.z;
}

/* Like write_coords for threadIdx and blockIdx, but read after two barriers: a cook resumed from
   __syncthreads() must see its own coordinates again. */
__global__ void coords_after_barrier(int *out)
{
    unsigned block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    unsigned thread = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    unsigned global = block * (blockDim.x * blockDim.y * blockDim.z) + thread;
    __syncthreads();
    __syncthreads();
    int *o = out + 7 * global;
    o[0] = (int)threadIdx.x;
    o[1] = (int)threadIdx.y;
    o[2] = (int)threadIdx.z;
    o[3] = (int)blockIdx.x;
    o[4] = (int)blockIdx.y;
    o[5] = (int)blockIdx.z;
    o[6] = (int)thread; /* computed before the barriers */
}

/* Reverses each block's slice of in through shared memory, with the barrier in place. */
__global__ void reverse_block(const int *in, int *out)
{
    __shared__ int slice[1024];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    slice[t] = in[i];
    __syncthreads();
    out[i] = slice[blockDim.x - 1 - t];
}

/* reverse_block with the barrier missing: a cook may read its mirror before the mirror wrote it. */
__global__ void reverse_block_racy(const int *in, int *out)
{
    __shared__ int slice[1024];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    slice[t] = in[i];
    out[i] = slice[blockDim.x - 1 - t];
}

/* Each cook reads the value its left neighbour put in shared memory, without a barrier: right
   only when cooks run in index order, so only a shuffled order shows the race. */
__global__ void shift_racy(const int *in, int *out)
{
    __shared__ int slice[1024];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    slice[t] = in[i];
    out[i] = t > 0 ? slice[t - 1] : in[i];
}

/* Each block sums its slice of in through shared memory into out[blockIdx.x]. Between filling
   the shared array and summing it, cook 0 waits (a bounded spin) until every block of the grid
   has filled its own, so the blocks' shared arrays are all alive at the same time; out[gridDim.x
   + blockIdx.x] says whether that meeting happened (1) or the wait gave up (0). */
__global__ void block_sum_meeting(const int *in, int *out, int *arrived)
{
    __shared__ int slice[1024];
    int t = threadIdx.x;
    slice[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    if (t == 0) {
        atomicAdd(arrived, 1);
        long spins = 0;
        while (atomicAdd(arrived, 0) < (int)gridDim.x && spins < 100000000L)
            spins++;
        out[gridDim.x + blockIdx.x] = atomicAdd(arrived, 0) >= (int)gridDim.x;
    }
    __syncthreads();
    if (t == 0) {
        int sum = 0;
        for (int k = 0; k < (int)blockDim.x; k++)
            sum += slice[k];
        out[blockIdx.x] = sum;
    }
}

/* Every cook adds 1 to a counter of each type atomicAdd knows. */
__global__ void atomic_counters(int *ci, unsigned int *cu, unsigned long long *cull, float *cf, double *cd)
{
    atomicAdd(ci, 1);
    atomicAdd(cu, 1u);
    atomicAdd(cull, 1ull);
    atomicAdd(cf, 1.0f);
    atomicAdd(cd, 1.0);
}

/* atomicMax of every cook's global index, and a counter incremented with an atomicCAS loop. */
__global__ void atomic_max_cas(int *largest, int *counter)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    atomicMax(largest, i);
    int old = *counter, assumed;
    do {
        assumed = old;
        old = atomicCAS(counter, assumed, assumed + 1);
    } while (old != assumed);
}

/* __syncthreads() that first stores its own line number in *where (both expand on the line of the
   macro's use, so the test knows which line the emulator must name, however the code is formatted). */
#define SYNCTHREADS_RECORDING_LINE(where)                                                                    \
    do {                                                                                                     \
        *(where) = __LINE__;                                                                                 \
        __syncthreads();                                                                                     \
    } while (0)

/* Block 2's first 16 cooks wait at a barrier the others never reach; line[0] gets its line. */
__global__ void barrier_divergent(int *line)
{
    if (blockIdx.x == 2 && threadIdx.x < 16)
        SYNCTHREADS_RECORDING_LINE(&line[0]);
}

/* Even and odd cooks wait at two different barriers; lines[0] and lines[1] get their lines. */
__global__ void barrier_two_lines(int *lines)
{
    if (threadIdx.x % 2 == 0)
        SYNCTHREADS_RECORDING_LINE(&lines[0]);
    else
        SYNCTHREADS_RECORDING_LINE(&lines[1]);
}

/* Odd cooks pass the barrier twice, even cooks once: the second barrier misses half the block. */
__global__ void barrier_uneven_loop(int *out)
{
    for (unsigned k = 0; k <= threadIdx.x % 2; k++)
        __syncthreads();
    out[threadIdx.x] = 1;
}

/* vector_add without the bounds check: the cooks past the end write outside c. */
__global__ void vector_add_unchecked(const float *a, const float *b, float *c)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    c[i] = a[i] + b[i];
}

/* Every cook copies the element before its own: cook 0 reads a[-1]. */
__global__ void read_previous(const float *a, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = a[i - 1];
}

/* Writes, per cook, the address of a 16-byte-aligned local modulo 16 (0 when the cook's stack
   is aligned as the x86-64 ABI requires; printf of a double, for one, crashes otherwise). */
__global__ void stack_alignment(int *out)
{
    float local[4] __attribute__((aligned(16)));
    float *volatile p = local; /* volatile: the compiler may not assume the alignment */
    p[0] = (float)threadIdx.x;
    out[blockIdx.x * blockDim.x + threadIdx.x] = (int)((unsigned long long)(size_t)p % 16);
}

/* A slow team: its first cook counts to spins (the compiler may not skip a volatile counter), then
   marks the team done, so a test can see how many teams cooked before a launch was stopped. */
__global__ void slow_teams(int *done, int spins)
{
    if (threadIdx.x == 0) {
        volatile int k = 0;
        while (k < spins)
            k = k + 1;
        done[blockIdx.x] = 1;
    }
}

/* Every warp primitive once, 8 results per cook: out[t * 8 + k]. */
__global__ void warp_primitives(int *out)
{
    int t = threadIdx.x, lane = t % 32;
    unsigned full = 0xffffffffu;
    int *o = out + t * 8;
    o[0] = __shfl_sync(full, lane * 10, 3);
    o[1] = __shfl_up_sync(full, lane, 1);
    o[2] = __shfl_down_sync(full, lane, 2);
    o[3] = __shfl_xor_sync(full, lane, 1);
    o[4] = __shfl_down_sync(full, lane, 1, 8);
    o[5] = (int)__ballot_sync(full, lane % 3 == 0);
    o[6] = __any_sync(full, lane == 5) * 100 + __all_sync(full, lane < 31) * 10 + __all_sync(full, lane < 32);
    __syncwarp();
    o[7] = (int)__activemask();
}

/* A warp's sum by shuffling down, then one atomicAdd per warp; floats and doubles. */
__global__ void warp_reduce(const float *in, float *sum, double *dsum)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[i];
    double d = in[i];
    for (int offset = 16; offset > 0; offset /= 2) {
        v += __shfl_down_sync(0xffffffffu, v, offset);
        d += __shfl_xor_sync(0xffffffffu, d, offset);
    }
    if (threadIdx.x % 32 == 0)
        atomicAdd(sum, v);
    if (threadIdx.x % 32 == 5)
        atomicAdd(dsum, d); /* after the butterfly every lane holds the sum */
}

/* Two halves of a warp on two branches, each with its own mask and its own __activemask(). */
__global__ void warp_divergent(int *out)
{
    int lane = threadIdx.x % 32, x;
    unsigned active;
    if (lane % 2 == 0) {
        active = __activemask();
        x = __shfl_xor_sync(0x55555555u, lane, 2);
    } else {
        active = __activemask();
        x = __shfl_xor_sync(0xaaaaaaaau, lane, 4);
    }
    out[threadIdx.x * 2] = (int)active;
    out[threadIdx.x * 2 + 1] = x;
}

/* Neighbours exchange through shared memory, made safe by __syncwarp(). */
__global__ void warp_syncwarp_exchange(int *out)
{
    __shared__ int box[64];
    box[threadIdx.x] = (int)threadIdx.x * 3;
    __syncwarp();
    int lane = threadIdx.x % 32;
    out[threadIdx.x] = box[threadIdx.x - lane + (lane + 1) % 32];
}

/* Mistake: half the warp skips a shuffle whose mask names the whole warp. */
__global__ void warp_mask_missing(int *out)
{
    int lane = threadIdx.x % 32;
    if (lane < 16)
        out[threadIdx.x] = __shfl_sync(0xffffffffu, lane, 0);
}

/* Mistake: the mask leaves out the calling lane. */
__global__ void warp_mask_self(int *out)
{
    out[threadIdx.x] = __shfl_sync(0x1u, (int)threadIdx.x, 0);
}

/* Mistake: half the warp shuffles while the other half waits at a barrier. */
__global__ void warp_mask_barrier(int *out)
{
    int lane = threadIdx.x % 32;
    if (lane < 16)
        out[threadIdx.x] = __shfl_sync(0xffffffffu, lane, 0);
    else
        __syncthreads();
}

/* Shared memory read before any cook of the team wrote it: the poison (every launch, every team). */
__shared__ int file_box[32];
__global__ void shared_unwritten(int *out, int write)
{
    __shared__ int box[64], other[2];
    int t = threadIdx.x;
    if (write) {
        box[t] = 7;
        file_box[t % 32] = 7;
        other[0] = 7;
    }
    __syncthreads();
    int *o = out + (blockIdx.x * blockDim.x + t) * 4;
    o[0] = box[t];
    o[1] = box[3]; /* a constant index */
    o[2] = file_box[t % 32];
    o[3] = other[0];
}

/* A team's block of in, reversed through dynamic shared memory (two extern arrays, one area). */
__global__ void dynamic_reverse(const int *in, int *out)
{
    extern __shared__ int buf[];
    extern __shared__ float same_place[];
    int t = threadIdx.x, base = blockIdx.x * blockDim.x;
    buf[t] = in[base + t];
    __syncthreads();
    out[base + t] = buf[blockDim.x - 1 - t] + ((void *)same_place == (void *)buf ? 0 : 1000000);
}

/* Mistake: one element past the dynamic shared memory the launch gave. */
__global__ void dynamic_past_end(int *out)
{
    extern __shared__ int buf[];
    buf[threadIdx.x + 1] = 1;
    out[threadIdx.x] = 0;
}

/* A local array read before it is written: the checked build's pattern. */
__global__ void local_unwritten(int *out, int n)
{
    int scratch[8];
    for (int k = n; k < 8; k++)
        scratch[k] = k;
    out[threadIdx.x] = scratch[threadIdx.x % 8];
}

/* Counting by hand: cook t reads element t * stride (one row apart: a sector each) and writes out[t]. */
__global__ void count_row_stride(const float *m, float *out, int stride)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    out[t] = m[t * stride];
}

/* Counting by hand: a 16 x 16 team writes a tile of shared memory by rows, reads it by columns,
   with rows of 16 words (pad 0) or 17 (pad 1), then every cook reads the same word (a broadcast). */
__global__ void count_tile(float *out, int pad)
{
    __shared__ float tile[16 * 17];
    int stride = 16 + pad, tx = threadIdx.x, ty = threadIdx.y;
    tile[ty * stride + tx] = (float)(ty * 16 + tx);
    __syncthreads();
    out[ty * 16 + tx] = tile[tx * stride + ty] + tile[0];
}

/* Counting by hand: every cook adds one to a global counter and one to a shared one. */
__global__ void count_atomics(int *out)
{
    __shared__ int team;
    if (threadIdx.x == 0)
        team = 0;
    __syncthreads();
    atomicAdd(&team, 1);
    atomicAdd(&out[0], 1);
    __syncthreads();
    if (threadIdx.x == 0)
        out[1 + blockIdx.x] = team;
}

/* Counting by hand: even and odd cooks take the two sides of a branch (apart in every warp); the
   first two warps take a second branch whole, the other two not at all (no warp apart). */
__global__ void count_branches(int *out)
{
    int t = threadIdx.x;
    if (t % 2 == 0)
        out[t] = t * 3;
    else
        out[128 + t] = t + 7;
    if (t < 64)
        out[256 + t] = 1;
}

/*
 * The warp matrix functions (src/kit/emu_wmma.h), one warp per team. in holds A (16 x 16, row-major),
 * B (16 x 16, row-major, k down) and C (16 x 16, row-major); out gets D = A x B + C stored
 * column-major. kind 0: FP16, 1: BF16, 2: TF32 rounded by __float_to_tf32, 3: TF32 not rounded
 * (the tensor core reads a float's top 19 bits). A goes through the locker row-major, B
 * column-major, C is loaded as an accumulator: every layout's load and store is taken.
 */
#include <mma.h>
using namespace nvcuda;

__global__ void wmma_tile(const float *in, float *out, int kind)
{
    __shared__ __align__(32) half ah[16 * 16];
    __shared__ __align__(32) half bh[16 * 16];
    __shared__ __align__(32) __nv_bfloat16 ab[16 * 16];
    __shared__ __align__(32) __nv_bfloat16 bb[16 * 16];
    __shared__ __align__(32) float af[16 * 16];
    __shared__ __align__(32) float bf[16 * 16];
    int lane = threadIdx.x;
    for (int e = lane; e < 256; e += 32) {
        int r = e / 16, c = e % 16;
        ah[e] = __float2half(in[e]);
        ab[e] = __float2bfloat16(in[e]);
        af[e] = in[e];
        bh[c * 16 + r] = __float2half(in[256 + e]); /* B column-major: element (r, c) at c * 16 + r */
        bb[c * 16 + r] = __float2bfloat16(in[256 + e]);
        bf[c * 16 + r] = in[256 + e];
    }
    __syncwarp();
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc8;
    if (kind == 0) {
        wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
        wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> b;
        wmma::load_matrix_sync(acc, in + 512, 16, wmma::mem_row_major);
        wmma::load_matrix_sync(a, ah, 16);
        wmma::load_matrix_sync(b, bh, 16);
        wmma::mma_sync(acc, a, b, acc);
        wmma::store_matrix_sync(out, acc, 16, wmma::mem_col_major);
    } else if (kind == 1) {
        nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16, 16, 16, __nv_bfloat16, nvcuda::wmma::row_major> a;
        wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::col_major> b;
        wmma::load_matrix_sync(acc, in + 512, 16, wmma::mem_row_major);
        wmma::load_matrix_sync(a, ab, 16);
        wmma::load_matrix_sync(b, bb, 16);
        wmma::mma_sync(acc, a, b, acc);
        wmma::store_matrix_sync(out, acc, 16, wmma::mem_col_major);
    } else {
        wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> a;
        wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> b;
        wmma::load_matrix_sync(acc8, in + 512, 16, wmma::mem_row_major);
        for (int k = 0; k < 16; k += 8) {
            wmma::load_matrix_sync(a, af + k, 16);
            wmma::load_matrix_sync(b, bf + k, 16);
            for (int e = 0; kind == 2 && e < a.num_elements; e++)
                a.x[e] = wmma::__float_to_tf32(a.x[e]);
            for (int e = 0; kind == 2 && e < b.num_elements; e++)
                b.x[e] = wmma::__float_to_tf32(b.x[e]);
            wmma::mma_sync(acc8, a, b, acc8);
        }
        wmma::store_matrix_sync(out, acc8, 16, wmma::mem_col_major);
    }
}

/* Half a warp loads a fragment: the other half never comes (a team of 64, out unused). */
__global__ void wmma_half_warp(int *out)
{
    __shared__ __align__(32) half tile[16 * 16];
    for (int e = threadIdx.x; e < 256; e += blockDim.x)
        tile[e] = __float2half((float)out[0]);
    __syncthreads();
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
    if (threadIdx.x % 32 < 16)
        wmma::load_matrix_sync(a, tile, 16);
}

/* A leading dimension of 12 halves (24 bytes): not a multiple of 16 bytes. */
__global__ void wmma_bad_ldm(int *out)
{
    __shared__ __align__(32) half tile[16 * 24];
    for (int e = threadIdx.x; e < 16 * 24; e += blockDim.x)
        tile[e] = __float2half((float)out[0]);
    __syncthreads();
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
    wmma::load_matrix_sync(a, tile, 12);
}
