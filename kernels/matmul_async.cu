/*
 * matmul_async.cu - rung 9 of the matmul ladder: rung 8's warp tiles with a bigger block per cook,
 * a strip twice as deep, and B's strips shipped straight from the pantry into the locker by the
 * kitchen's own porters while the cooks cook.
 *
 * In rung 8 every number of the next strip travels pantry -> a cook's pockets (registers) -> the
 * locker (shared memory). Since Ampere a cook can instead ASK for a copy from global to shared
 * memory and go on cooking: the copy (cp.async, written here with CUDA's pipeline primitives)
 * travels on its own, never passing through the cook's pockets, and the cook only waits for it
 * when it needs the numbers. A request is put in a batch (__pipeline_commit), and
 * __pipeline_wait_prior(0) waits until all of the cook's batches have landed.
 *
 * A porter copies bytes as they lie: 4, 8 or 16 of them. B's strip is kept in the locker as it
 * lies in the pantry, so 16-byte copies carry it. A's strip is kept ON ITS SIDE (16 rows of 128
 * numbers, so a cook reads 4 of A's rows in one 16-byte load): turning it needs one copy per
 * float, four times the requests and the pockets to address them, which measured slower than
 * carrying A by hand. So the cooks still carry A (one 16-byte load each into the pockets, four
 * stores on its side into the locker), the porters carry B.
 *
 * The locker has two halves used in turn (double buffering):
 *   before the loop: fetch strip 0 (A by hand, B by porters) into half 0 | wait | barrier
 *   step i:  fetch A's strip i+1 into the pockets, ask for B's strip i+1 into the other half
 *            cook strip i from this half
 *            put A's strip i+1 into the other half | wait for my copies | barrier
 * The barrier at the end of a step says "the other half is full for everyone" and "everyone has
 * finished with this half", which the next step's copies will fill: one barrier per strip.
 *
 * Kitchen view: a team of 256 cooks (8 warps) owns a block of C of 128 rows and 256 columns, each
 * warp a 64 x 64 piece, each cook 8 x 16 results: twice rung 8's, so every number a cook reads from
 * the locker serves more multiply-adds (8 + 16 numbers per step for 128, against 8 + 8 for 64).
 * A cook's rows are two groups of 4, 32 apart, and its columns four groups of 4, 16 apart, so
 * that the 32 cooks of a warp read each step's numbers side by side from the locker. Its 128 sums
 * take most of a cook's pockets (up to 255 registers), so one team has a station to itself.
 * The locker holds 2 strips of A (16 x 128) and 2 of B (16 x 256): 48 KiB, all a team may declare.
 * On the emulator the copies are done at once, as plain copies: the order of the steps is the same.
 *
 * Any n works (zeros past the edges, no write past them). When n is a multiple of 4 every copy is
 * 16 bytes; otherwise the same work runs from a copy kept out of line (matmul_async_cook_any), one
 * float at a time, so that the fast path holds no test for it (docs/PERFORMANCE.md measures the gain).
 * Launch: 256 cooks per team (1D), ceil(n/256) x ceil(n/128) teams (x along the columns).
 */
#include "kernel.h"
#include "matmul_four.h"

#define BM 128
#define BN 256
#define BK 16
#define WM 64
#define WN 64
#define ROW_GROUPS 2                       /* a cook's rows: 2 groups of 4, WM / 2 apart */
#define COL_GROUPS 4                       /* its columns: 4 groups of 4, WN / 4 apart */
#define TM (ROW_GROUPS * 4)                /* 8 */
#define TN (COL_GROUPS * 4)                /* 16 */
#define COOKS ((BM / WM) * (BN / WN) * 32) /* 256 */
#define A_TRIPS (BM * BK / 4 / COOKS)      /* rows of 4 numbers of A each cook carries per strip: 2 */
#define B_TRIPS (BK * BN / 4 / COOKS)      /* and of B the porters carry for it: 4 */

/* Asks the porters for rows k0 .. k0+BK-1, columns col0 .. col0+BN-1 of B, to land in Bs as they
   lie in the pantry; zeros past the edges. `whole`: n is a multiple of 4. */
__device__ void matmul_async_ask_b(float (*Bs)[BN], const float *B, int col0, int k0, int n, int t, int whole)
{
    if (whole) { /* every row starts on 16 bytes: whole groups of 4 */
        #pragma unroll
        for (int q = 0; q < B_TRIPS; q++) {
            int l = t + q * COOKS, r = l / (BN / 4), c = (l % (BN / 4)) * 4;
            int inside = k0 + r < n && col0 + c < n;
            const float *from = inside ? &B[(k0 + r) * n + col0 + c] : B;
            /* @mark copy-16: 16 bytes from the pantry to the locker; none read (zeros) outside */
            __pipeline_memcpy_async(&Bs[r][c], from, 16, inside ? 0 : 16);
        }
        return;
    }
    #pragma unroll
    for (int q = 0; q < B_TRIPS; q++) { /* else one float at a time */
        int l = t + q * COOKS, r = l / (BN / 4), c = (l % (BN / 4)) * 4;
        #pragma unroll
        for (int j = 0; j < 4; j++) {
            int inside = k0 + r < n && col0 + c + j < n;
            const float *from = inside ? &B[(k0 + r) * n + col0 + c + j] : B;
            __pipeline_memcpy_async(&Bs[r][c + j], from, 4, inside ? 0 : 4);
        }
    }
}

/* Loads this cook's share of numbers k0 .. k0+BK-1 of rows row0 .. row0+BM-1 of A into its
   pockets: A_TRIPS groups of 4 neighbours of one row (`whole`: n is a multiple of 4). */
__device__ void matmul_async_fetch_a(float4 *pocket, const float *A, int row0, int k0, int n, int t, int whole)
{
    #pragma unroll
    for (int q = 0; q < A_TRIPS; q++) {
        int l = t + q * COOKS, r = l / (BK / 4), c = (l % (BK / 4)) * 4;
        if (whole) /* one 16-byte load, or zeros past the edges */
            pocket[q] = row0 + r < n && k0 + c < n ? *(const float4 *)&A[(row0 + r) * n + k0 + c]
                                                   : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        else
            pocket[q] = matmul_load4(A, row0 + r, k0 + c, n);
    }
}

/* Puts the pockets' numbers of A into the locker on their side: number (r, k) at As[k][r]. */
__device__ void matmul_async_put_a(float (*As)[BM], const float4 *pocket, int t)
{
    #pragma unroll
    for (int q = 0; q < A_TRIPS; q++) {
        int l = t + q * COOKS, r = l / (BK / 4), c = (l % (BK / 4)) * 4;
        As[c][r] = pocket[q].x; /* @mark on-its-side: a row of A becomes a column of the locker */
        As[c + 1][r] = pocket[q].y;
        As[c + 2][r] = pocket[q].z;
        As[c + 3][r] = pocket[q].w;
    }
}

/* The team's work, its locker given; `whole`: n is a multiple of 4, so every row of A and B starts
   on 16 bytes and every copy may be 16 bytes. */
__device__ __forceinline__ void matmul_async_cook(float (*As)[BK][BM], float (*Bs)[BK][BN], const float *A,
                                                  const float *B, float *C, int n, int whole)
{
    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    int t = threadIdx.x;
    int warp = t / 32, lane = t % 32;
    int warp_row = (warp / (BN / WN)) * WM;
    int warp_col = (warp % (BN / WN)) * WN;
    int lane_row = (lane / 4) * 4; /* @mark spread-rows: 8 lanes' rows side by side, then the next group */
    int lane_col = (lane % 4) * 4;

    float sum[TM][TN]; /* @mark sums-8x16: 128 running sums in the pockets */
    float a[TM], b[TN];
    float4 next_a[A_TRIPS];
    #pragma unroll
    for (int i = 0; i < TM; i++)
        #pragma unroll
        for (int j = 0; j < TN; j++)
            sum[i][j] = 0.0f;

    /* Before the loop: strip 0 into half 0. */
    matmul_async_fetch_a(next_a, A, row0, 0, n, t, whole);
    matmul_async_ask_b(Bs[0], B, col0, 0, n, t, whole);
    __pipeline_commit();
    matmul_async_put_a(As[0], next_a, t);
    __pipeline_wait_prior(0);
    __syncthreads();

    int half = 0;
    for (int k0 = 0;; k0 += BK) {
        int more = k0 + BK < n;
        if (more) { /* @mark ask-next: strip i+1 sets off while strip i is cooked */
            matmul_async_fetch_a(next_a, A, row0, k0 + BK, n, t, whole);
            matmul_async_ask_b(Bs[half ^ 1], B, col0, k0 + BK, n, t, whole);
            __pipeline_commit(); /* @mark commit: this step's requests are one batch */
        }

        #pragma unroll
        for (int k = 0; k < BK; k++) {
            #pragma unroll
            for (int g = 0; g < ROW_GROUPS; g++)
                matmul_unpack4(&a[g * 4], *(const float4 *)&As[half][k][warp_row + lane_row + g * (WM / ROW_GROUPS)]);
            #pragma unroll
            for (int g = 0; g < COL_GROUPS; g++)
                matmul_unpack4(&b[g * 4], *(const float4 *)&Bs[half][k][warp_col + lane_col + g * (WN / COL_GROUPS)]);
            #pragma unroll
            for (int i = 0; i < TM; i++)
                #pragma unroll
                for (int j = 0; j < TN; j++)
                    sum[i][j] += a[i] * b[j];
        }
        if (!more)
            break;

        matmul_async_put_a(As[half ^ 1], next_a, t);
        __pipeline_wait_prior(0); /* @mark wait-strip: my copies of strip i+1 have landed */
        __syncthreads(); /* @mark one-barrier: everyone's have; everyone is done with this half */
        half ^= 1;
    }

    #pragma unroll
    for (int i = 0; i < TM; i++)
        #pragma unroll
        for (int g = 0; g < COL_GROUPS; g++)
            matmul_store4(C, row0 + warp_row + lane_row + (i / 4) * (WM / ROW_GROUPS) + i % 4,
                          col0 + warp_col + lane_col + g * (WN / COL_GROUPS), n,
                          make_float4(sum[i][g * 4], sum[i][g * 4 + 1], sum[i][g * 4 + 2], sum[i][g * 4 + 3]));
}

/* The same work for any n, one float at a time where a row does not start on 16 bytes: kept out of
   line, so that the fast path's code and pockets are its own. */
__device__ __noinline__ void matmul_async_cook_any(float (*As)[BK][BM], float (*Bs)[BK][BN], const float *A,
                                                   const float *B, float *C, int n)
{
    matmul_async_cook(As, Bs, A, B, C, n, 0);
}

__global__ void __launch_bounds__(COOKS, 1) matmul_async(const float *A, const float *B, float *C, int n)
{
    __shared__ __align__(16) float As[2][BK][BM]; /* @mark halves: two strips, used in turn */
    __shared__ __align__(16) float Bs[2][BK][BN];
    if (n % 4 == 0) /* @mark fast-path: whole groups of 4 everywhere */
        matmul_async_cook(As, Bs, A, B, C, n, 1);
    else
        matmul_async_cook_any(As, Bs, A, B, C, n);
}

#undef BM
#undef BN
#undef BK
#undef WM
#undef WN
#undef ROW_GROUPS
#undef COL_GROUPS
#undef TM
#undef TN
#undef COOKS
#undef A_TRIPS
#undef B_TRIPS
