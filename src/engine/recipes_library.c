/*
 * recipes_library.c - matrix multiply from the GPU's recipe book: cuBLAS, NVIDIA's own SGEMM.
 *
 * These recipes have no kernel in kernels/: their kernel names start with "library_", and a
 * backend that sees one calls a library (backend.h). On a GPU that is cuBLAS; on the CPU emulator,
 * where cuBLAS cannot run, it is OpenBLAS, and the report says so. The data, the launch plan and
 * the taste are those of the matrix kernels (recipes.h), so every result is checked the same way.
 *
 *   matmul-library       cublasSgemm in FP32: the same arithmetic as the kernels, done by experts
 *   matmul-library-tf32  the same call with TF32 tensor cores allowed (compute capability 8.0+):
 *                        inputs rounded to a 10-bit mantissa, products summed in FP32
 */
#include <stdio.h>

#include "engine/blas.h"
#include "base/i18n.h"
#include "engine/recipes.h"

/* What cooked matmul-library on this backend: cuBLAS on a GPU, OpenBLAS on the CPU emulator. */
static const char *library_fp32(const backend_info *info)
{
    static _Thread_local char text[400];
    if (info->kind == BACKEND_GPU)
        return library_gpu_describe(0, info);
    snprintf(text, sizeof text, _("OpenBLAS on the CPU: cuBLAS needs a GPU [%s]"), blas_describe());
    return text;
}

/* What cooked matmul-library-tf32: on the CPU there is no TF32, so OpenBLAS ran FP32. */
static const char *library_tf32(const backend_info *info)
{
    static _Thread_local char text[400];
    if (info->kind == BACKEND_GPU)
        return library_gpu_describe(1, info);
    snprintf(text, sizeof text, _("OpenBLAS on the CPU: cuBLAS needs a GPU, and the CPU has no TF32, so it ran FP32 [%s]"),
             blas_describe());
    return text;
}

/* FP32 SGEMM: the tolerance of the matrix kernels (float sums in another order). No single cook owns
   an element: the library picks its own teams. */
const recipe recipe_matmul_library = {
    .name = "matmul-library", .kernel = BACKEND_LIBRARY_SGEMM,
    .summary = "C = A x B (n x n) by the library: cuBLAS SGEMM on a GPU (OpenBLAS on the emulator)",
    .default_n = 1024, .default_threads_per_block = 256, .rtol = 1e-4, .atol = 2e-6, .atol_scales_with_n = 1,
    .plan = recipe_matrix_plan, .fill = recipe_matmul_fill, .reference = recipe_matmul_reference,
    .reference_fast = recipe_matmul_reference_blas, .args = recipe_matrix_args, .owner = recipe_owner_none,
    .work = recipe_matmul_work, .library = library_fp32};

/* TF32 keeps 10 of float's 23 mantissa bits: each input is off by up to 2^-10 of itself (2^-11
   when rounded to the nearest), so each product a*b (|a|, |b| < 1) by up to about 2^-9. Those
   errors have random signs: a sum of n products is off by about sqrt(n) * 2^-10, rarely more than
   a few times that. atol = 1e-3 * n is well above it at every n; a wrong element (a swapped
   index, a missing term) is off by about the size of the element itself, far more. */
const recipe recipe_matmul_library_tf32 = {
    .name = "matmul-library-tf32", .kernel = BACKEND_LIBRARY_SGEMM_TF32,
    .summary = "C = A x B (n x n) by cuBLAS with TF32 tensor cores: faster, 10-bit mantissa inputs",
    .default_n = 1024, .default_threads_per_block = 256, .rtol = 1e-3, .atol = 1e-3, .atol_scales_with_n = 1,
    .plan = recipe_matrix_plan, .fill = recipe_matmul_fill, .reference = recipe_matmul_reference,
    .reference_fast = recipe_matmul_reference_blas, .args = recipe_matrix_args, .owner = recipe_owner_none,
    .work = recipe_matmul_work, .library = library_tf32};
