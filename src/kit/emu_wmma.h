/*
 * emu_wmma.h - CUDA's half, __nv_bfloat16 and warp matrix functions (nvcuda::wmma) for the C compiler.
 *
 * A kernel file that includes <mma.h>, <cuda_fp16.h> or <cuda_bf16.h> gets this header instead on
 * the emulator: the source pass (emu_prep.c) rewrites the include, turns each
 * `wmma::fragment<USE, M, N, K, T, LAYOUT>` into EMU_WMMA_FRAGMENT(USE, M, N, K, T, LAYOUT) (a
 * struct type named from the template's arguments), drops the `nvcuda::`, `wmma::` and
 * `precision::` in front of names, drops `using namespace nvcuda;`, and turns `frag.num_elements`
 * into EMU_WMMA_COUNT(frag). What is left is C: the calls below are macros over one function per
 * operation, the fragment's kind found by _Generic.
 *
 * half and __nv_bfloat16 and their conversions are emu_half.h's. A tensor core given a TF32 input
 * that was not rounded (__float_to_tf32) uses only its top 19 bits, and so does mma_sync here.
 *
 * Fragments. Which lane holds which element of a fragment is not published by CUDA (code must not
 * depend on it), so the emulator chooses: in a tile of R rows, lane l holds E = num_elements
 * neighbours of row l % R, from column (l / R) * E on (E is 8 for a 16 x 16 tile, 4 for TF32's
 * 16 x 8 and 8 x 16): the rows a quarter-warp reads are 8 different rows, as ldmatrix reads them, so
 * a padded tile in the locker is read without bank conflicts, 16 bytes a lane at a time. Loads,
 * stores and mma_sync are warp-collective, as on the GPU: every lane of the warp must call them at
 * the same line, or the emulator stops the launch naming the lanes that never came. mma_sync is a
 * rendezvous of the warp: each lane publishes where its three fragments are, the warp meets, each
 * lane makes its own elements of D from the others' A and B, and the warp meets again before anyone
 * changes a fragment. Each product is exact in FP32 for these inputs (11 or 8 bits of mantissa
 * times as many), and the sums are FP32, in the order of k, starting from C.
 *
 * load_matrix_sync and store_matrix_sync check CUDA's rules: the pointer 32-byte aligned and ldm a
 * multiple of 16 bytes; the emulator stops the launch on a break of either (docs/EMULATOR.md).
 */
#ifndef CUDACHEF_EMU_WMMA_H
#define CUDACHEF_EMU_WMMA_H

#include "emu_half.h"
#include "emu_kernel.h"

/* --- fragments --- */

/* What a fragment holds: its use, its tile's rows x cols, its element kind, its layout. */
enum { EMU_WMMA_A, EMU_WMMA_B, EMU_WMMA_ACC };
enum { EMU_WMMA_FLOAT, EMU_WMMA_HALF, EMU_WMMA_BF16, EMU_WMMA_TF32 };
enum { EMU_WMMA_ROW, EMU_WMMA_COL, EMU_WMMA_NONE };
typedef struct emu_wmma_desc {
    int use, m, n, k, rows, cols, elem, layout, count;
} emu_wmma_desc;

/* The memory layout an accumulator is loaded from or stored to (wmma::layout_t). */
typedef enum layout_t { mem_row_major, mem_col_major } layout_t;

/* Every fragment the emulator knows: (use, M, N, K, type, layout, element type, rows, cols,
   elements per lane, element kind, layout kind). */
#define EMU_WMMA_LIST(X)                                                                           \
    X(matrix_a, 16, 16, 16, half, row_major, __half, 16, 16, 8, EMU_WMMA_HALF, EMU_WMMA_ROW)        \
    X(matrix_a, 16, 16, 16, half, col_major, __half, 16, 16, 8, EMU_WMMA_HALF, EMU_WMMA_COL)        \
    X(matrix_b, 16, 16, 16, half, row_major, __half, 16, 16, 8, EMU_WMMA_HALF, EMU_WMMA_ROW)        \
    X(matrix_b, 16, 16, 16, half, col_major, __half, 16, 16, 8, EMU_WMMA_HALF, EMU_WMMA_COL)        \
    X(matrix_a, 16, 16, 16, __nv_bfloat16, row_major, __nv_bfloat16, 16, 16, 8, EMU_WMMA_BF16, EMU_WMMA_ROW) \
    X(matrix_a, 16, 16, 16, __nv_bfloat16, col_major, __nv_bfloat16, 16, 16, 8, EMU_WMMA_BF16, EMU_WMMA_COL) \
    X(matrix_b, 16, 16, 16, __nv_bfloat16, row_major, __nv_bfloat16, 16, 16, 8, EMU_WMMA_BF16, EMU_WMMA_ROW) \
    X(matrix_b, 16, 16, 16, __nv_bfloat16, col_major, __nv_bfloat16, 16, 16, 8, EMU_WMMA_BF16, EMU_WMMA_COL) \
    X(matrix_a, 16, 16, 8, tf32, row_major, float, 16, 8, 4, EMU_WMMA_TF32, EMU_WMMA_ROW)           \
    X(matrix_a, 16, 16, 8, tf32, col_major, float, 16, 8, 4, EMU_WMMA_TF32, EMU_WMMA_COL)           \
    X(matrix_b, 16, 16, 8, tf32, row_major, float, 8, 16, 4, EMU_WMMA_TF32, EMU_WMMA_ROW)           \
    X(matrix_b, 16, 16, 8, tf32, col_major, float, 8, 16, 4, EMU_WMMA_TF32, EMU_WMMA_COL)           \
    X(accumulator, 16, 16, 16, float, none, float, 16, 16, 8, EMU_WMMA_FLOAT, EMU_WMMA_NONE)        \
    X(accumulator, 16, 16, 8, float, none, float, 16, 16, 8, EMU_WMMA_FLOAT, EMU_WMMA_NONE)

/* The fragment type of wmma::fragment<use, m, n, k, type[, layout]>: an accumulator has no layout. */
#define EMU_WMMA_FRAGMENT(use, m, n, k, type, ...) EMU_WMMA_NAME(use, m, n, k, type, __VA_ARGS__ __VA_OPT__(,) none)
#define EMU_WMMA_NAME(use, m, n, k, type, layout, ...) EMU_WMMA_PASTE(use, m, n, k, type, layout)
#define EMU_WMMA_PASTE(use, m, n, k, type, layout) emu_wmma_##use##_##m##_##n##_##k##_##type##_##layout

#define EMU_WMMA_USE_matrix_a EMU_WMMA_A
#define EMU_WMMA_USE_matrix_b EMU_WMMA_B
#define EMU_WMMA_USE_accumulator EMU_WMMA_ACC
#define EMU_WMMA_TYPE(use, m, n, k, type, layout, elem, rows, cols, count, kind, lay)              \
    typedef struct EMU_WMMA_PASTE(use, m, n, k, type, layout) {                                    \
        elem x[count];                                                                             \
    } EMU_WMMA_PASTE(use, m, n, k, type, layout);                                                  \
    static const emu_wmma_desc EMU_WMMA_PASTE(use, m, n, k, type, layout##_desc) = {              \
        EMU_WMMA_USE_##use, m, n, k, rows, cols, kind, lay, count};
EMU_WMMA_LIST(EMU_WMMA_TYPE)
#undef EMU_WMMA_TYPE

/* A fragment's description, from its type. */
typedef struct emu_wmma_never { int never; } emu_wmma_never;
#define EMU_WMMA_ASSOC(use, m, n, k, type, layout, elem, rows, cols, count, kind, lay)             \
    EMU_WMMA_PASTE(use, m, n, k, type, layout): &EMU_WMMA_PASTE(use, m, n, k, type, layout##_desc),
#define EMU_WMMA_DESC(f) _Generic((f), EMU_WMMA_LIST(EMU_WMMA_ASSOC) emu_wmma_never: (const emu_wmma_desc *)0)

/* frag.num_elements: the elements this lane holds. */
#define EMU_WMMA_COUNT(f) ((int)(sizeof (f).x / sizeof (f).x[0]))

/* A compile-time check that a pointer's elements are the fragment's (half for half, float for
   float and TF32), as CUDA's overloads demand. */
#define EMU_WMMA_SAME_SIZE(f, p) ((void)sizeof(char[sizeof *(p) == sizeof (f).x[0] ? 1 : -1]))

/* --- the operations --- */

/* Element i of a fragment's storage as a float (TF32: the 19 bits a tensor core reads). */
static inline float emu_wmma_get(const emu_wmma_desc *d, const void *x, int i)
{
    switch (d->elem) {
    case EMU_WMMA_HALF: return __half2float(((const __half *)x)[i]);
    case EMU_WMMA_BF16: return __bfloat162float(((const __nv_bfloat16 *)x)[i]);
    case EMU_WMMA_TF32: return emu_bits_float(emu_float_bits(((const float *)x)[i]) & 0xffffe000u);
    default: return ((const float *)x)[i];
    }
}

/* The lane's number in its warp, after checking that the warp has its 32 lanes. */
static inline int emu_wmma_lane(int kind, int line)
{
    unsigned tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    unsigned cooks = blockDim.x * blockDim.y * blockDim.z;
    if (tid / 32 * 32 + 32 > cooks)
        emu_warp_fault(kind, line, EMU_WHY_PARTIAL_WARP);
    return (int)(tid % 32);
}

/* Where element (r, c) of a rows x cols tile stands in memory of leading dimension ldm. */
static inline size_t emu_wmma_at(int layout, int r, int c, unsigned ldm)
{
    return layout == EMU_WMMA_COL ? (size_t)c * ldm + (size_t)r : (size_t)r * ldm + (size_t)c;
}

/* Checks CUDA's rules for the memory of a load or a store: 32-byte alignment, ldm a multiple of 16 bytes. */
static inline void emu_wmma_check(int kind, const void *p, unsigned ldm, size_t elem_size, int line)
{
    if ((uintptr_t)p % 32 != 0)
        emu_warp_fault(kind, line, EMU_WHY_UNALIGNED);
    if (ldm * elem_size % 16 != 0)
        emu_warp_fault(kind, line, elem_size == 2 ? EMU_WHY_LDM_16BIT : EMU_WHY_LDM_FLOAT);
}

/* fill_fragment: every element v, in the fragment's element type. */
static inline void emu_wmma_fill(const emu_wmma_desc *d, void *x, float v)
{
    for (int i = 0; i < d->count; i++) {
        if (d->elem == EMU_WMMA_HALF)
            ((__half *)x)[i] = __float2half(v);
        else if (d->elem == EMU_WMMA_BF16)
            ((__nv_bfloat16 *)x)[i] = __float2bfloat16(v);
        else
            ((float *)x)[i] = v;
    }
}

/* Copies a lane's count elements of elem_size bytes between memory (at, ldm apart along the tile's
   other dimension when layout crosses the lane's row) and its fragment: a lane's elements lie in
   one row of the tile, so with the row in memory's order they are one run of 16-byte pieces, moved
   as the GPU moves them (16 bytes at a time; the checked build counts them so), else one by one. */
static inline void emu_wmma_move(void *frag, void *mem, size_t at, int along, unsigned ldm, int count,
                                 size_t elem_size, int to_memory)
{
    if (along && count * elem_size % 16 == 0) {
        for (size_t b = 0; b < count * elem_size; b += 16) {
            float4 *m = (float4 *)((char *)mem + at * elem_size + b), *f = (float4 *)((char *)frag + b);
            if (to_memory)
                *m = *f;
            else
                *f = *m;
        }
        return;
    }
    for (int i = 0; i < count; i++) {
        char *m = (char *)mem + (at + (along ? (size_t)i : (size_t)i * ldm)) * elem_size;
        char *f = (char *)frag + (size_t)i * elem_size;
        if (to_memory)
            memcpy(m, f, elem_size);
        else
            memcpy(f, m, elem_size);
    }
}

/* load_matrix_sync: the warp meets, then each lane reads its own elements. layout is the fragment's,
   or for an accumulator the call's mem_row_major / mem_col_major. */
static inline void emu_wmma_load(const emu_wmma_desc *d, void *x, const void *p, unsigned ldm, int layout,
                                 size_t elem_size, int line)
{
    int lane = emu_wmma_lane(EMU_WARP_WMMA_LOAD, line);
    emu_warp_op(EMU_WARP_WMMA_LOAD, 0xffffffffu, 0, 0, 32, line);
    emu_wmma_check(EMU_WARP_WMMA_LOAD, p, ldm, elem_size, line);
    int r = lane % d->rows, c = lane / d->rows * d->count;
    emu_wmma_move(x, (void *)p, emu_wmma_at(layout, r, c, ldm), layout != EMU_WMMA_COL, ldm, d->count, elem_size, 0);
}

/* store_matrix_sync: the warp meets, then each lane writes its own elements of the accumulator. */
static inline void emu_wmma_store(const emu_wmma_desc *d, float *p, const void *x, unsigned ldm, layout_t layout,
                                  int line)
{
    int lane = emu_wmma_lane(EMU_WARP_WMMA_STORE, line);
    emu_warp_op(EMU_WARP_WMMA_STORE, 0xffffffffu, 0, 0, 32, line);
    if (d->use != EMU_WMMA_ACC)
        emu_warp_fault(EMU_WARP_WMMA_STORE, line, EMU_WHY_STORE_AB);
    emu_wmma_check(EMU_WARP_WMMA_STORE, p, ldm, sizeof(float), line);
    int r = lane % d->rows, c = lane / d->rows * d->count, lay = layout == mem_col_major ? EMU_WMMA_COL : EMU_WMMA_ROW;
    emu_wmma_move((void *)x, p, emu_wmma_at(lay, r, c, ldm), lay == EMU_WMMA_ROW, ldm, d->count, sizeof(float), 1);
}

/* Where each lane of a warp keeps its fragments while the warp multiplies: a worker cooks one team
   at a time, so one table per worker thread serves every warp of the team. */
static _Thread_local const void *emu_wmma_slots[1024][2];

/* mma_sync: D = A x B + C for the warp's tiles (D may be C). A lane's elements of C lie in one row r
   of the tile, columns c0 .. c0 + E - 1: it gathers row r of A and those columns of B from the
   lanes that hold them, then sums. */
static inline void emu_wmma_mma(const emu_wmma_desc *dd, float *dx, const emu_wmma_desc *ad, const void *ax,
                                const emu_wmma_desc *bd, const void *bx, const emu_wmma_desc *cd, const float *cx,
                                int line)
{
    int lane = emu_wmma_lane(EMU_WARP_WMMA_MMA, line);
    unsigned tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z), first = tid - (unsigned)lane;
    if (ad->use != EMU_WMMA_A || bd->use != EMU_WMMA_B || cd->use != EMU_WMMA_ACC || dd->use != EMU_WMMA_ACC ||
        ad->k != cd->k || bd->k != cd->k || ad->elem != bd->elem || dd->k != cd->k)
        emu_warp_fault(EMU_WARP_WMMA_MMA, line, EMU_WHY_SHAPES);
    emu_wmma_slots[tid][0] = ax;
    emu_wmma_slots[tid][1] = bx;
    emu_warp_op(EMU_WARP_WMMA_MMA, 0xffffffffu, 0, 0, 32, line); /* every lane has published */
    enum { KMAX = 16, CMAX = 8 };
    float arow[KMAX], bcol[KMAX][CMAX], out[CMAX];
    int K = ad->cols, r = lane % cd->rows, c0 = lane / cd->rows * cd->count;
    for (int k = 0; k < K; k++) { /* A's element (r, k) and B's (k, c), whatever their memory layout */
        unsigned la = (unsigned)(r + ad->rows * (k / ad->count));
        arow[k] = emu_wmma_get(ad, emu_wmma_slots[first + la][0], k % ad->count);
        for (int j = 0; j < cd->count; j++) {
            int c = c0 + j;
            unsigned lb = (unsigned)(k + bd->rows * (c / bd->count));
            bcol[k][j] = emu_wmma_get(bd, emu_wmma_slots[first + lb][1], c % bd->count);
        }
    }
    for (int j = 0; j < cd->count; j++) {
        float sum = cx[j];
        for (int k = 0; k < K; k++)
            sum += arow[k] * bcol[k][j]; /* an exact product: one rounding, as a fused multiply-add */
        out[j] = sum;
    }
    emu_warp_op(EMU_WARP_WMMA_MMA, 0xffffffffu, 0, 0, 32, line); /* every lane has read */
    for (int j = 0; j < dd->count; j++)
        dx[j] = out[j];
}

/* CUDA's calls, in C. */
#define EMU_WMMA_AS_FLOAT(v)                                                                       \
    _Generic((v), __half: __half2float, __nv_bfloat16: __bfloat162float, default: emu_wmma_float)(v)
static inline float emu_wmma_float(double v)
{
    return (float)v;
}
#define fill_fragment(f, v) emu_wmma_fill(EMU_WMMA_DESC(f), (f).x, EMU_WMMA_AS_FLOAT(v))
/* The layout a load reads with: a matrix fragment's own, an accumulator's from the call. */
static inline int emu_wmma_layout(const emu_wmma_desc *d, layout_t mem)
{
    return d->layout != EMU_WMMA_NONE ? d->layout : mem == mem_col_major ? EMU_WMMA_COL : EMU_WMMA_ROW;
}
#define load_matrix_sync(f, p, ldm, ...)                                                           \
    (EMU_WMMA_SAME_SIZE(f, p), emu_wmma_load(EMU_WMMA_DESC(f), (f).x, (p), (unsigned)(ldm),         \
                                             emu_wmma_layout(EMU_WMMA_DESC(f), mem_row_major __VA_OPT__(*0 + (__VA_ARGS__))), \
                                             sizeof *(p), __LINE__))
#define store_matrix_sync(p, f, ldm, layout)                                                       \
    (EMU_WMMA_SAME_SIZE(f, p), emu_wmma_store(EMU_WMMA_DESC(f), (p), (f).x, (unsigned)(ldm), (layout), __LINE__))
#define mma_sync(d, a, b, c)                                                                       \
    emu_wmma_mma(EMU_WMMA_DESC(d), (d).x, EMU_WMMA_DESC(a), (a).x, EMU_WMMA_DESC(b), (b).x, EMU_WMMA_DESC(c), \
                 (c).x, __LINE__)

#endif
