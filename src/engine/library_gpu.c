/*
 * library_gpu.c - the GPU's recipe book: matrix multiply with NVIDIA's cuBLAS.
 *
 * cuBLAS is loaded with dlopen at its first use, not linked: cudachef runs on machines without it
 * (the kernel recipes need only the CUDA runtime, linked statically), and only the library recipes
 * fail, with an error naming the library, when it is missing. The types and constants come from
 * the CUDA toolkit's cublas_v2.h; the functions are looked up by name and called through pointers.
 *
 * cuBLAS is column-major (Fortran's order) and cudachef's matrices are row-major. A row-major
 * matrix read as column-major is its transpose, so C = A * B is computed as C^T = B^T * A^T: the
 * same call with A and B swapped, and nothing is copied or transposed.
 */
#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "engine/backend.h"
#include "engine/host_runtime.h"
#include "kit/gpu_table.h"
#include "base/i18n.h"

/* The library files tried, in order: this toolkit's major version first, then any version. */
/* the system's search path first, then the toolkit cudachef was built with */
static const char *const library_sonames[] = {"libcublas.so.13", "libcublas.so.12", "libcublas.so",
                                                     CHEF_CUDA_LIB_DIR "/libcublas.so.13"};

/* The cuBLAS functions used, as pointer types (the names in cublas_api.h, without the macros). */
typedef cublasStatus_t (*library_create_fn)(cublasHandle_t *handle);
typedef cublasStatus_t (*library_math_mode_fn)(cublasHandle_t handle, cublasMath_t mode);
typedef cublasStatus_t (*library_property_fn)(libraryPropertyType type, int *value);
typedef cublasStatus_t (*library_sgemm_fn)(cublasHandle_t handle, cublasOperation_t transa,
                                           cublasOperation_t transb, int m, int n, int k,
                                           const float *alpha, const float *A, int lda, const float *B,
                                           int ldb, const float *beta, float *C, int ldc);

/* cuBLAS once loaded: the library, its functions, one handle for the whole program. */
static struct {
    int tried;                  /* loading was attempted (it is attempted once) */
    int found;                  /* loaded, and every function found */
    int ready;                  /* found, and the handle created */
    const char *soname;         /* the file that loaded */
    char why[400];              /* why it is not ready */
    int version[3];             /* major, minor, patch */
    void *dl;
    cublasHandle_t handle;      /* kept for the program's life: creating one costs milliseconds */
    library_math_mode_fn set_math_mode;
    library_sgemm_fn sgemm;
} library_cublas;

/* The name of a cuBLAS status, for error messages. */
static const char *library_status_name(cublasStatus_t s)
{
    const char *name = host_cublas_status_name((int)s);
    return name ? name : "an unknown cuBLAS status";
}

/* The exit code for a failed cuBLAS call: memory is the machine's limit, a bad value is ours. */
static int library_status_exit(cublasStatus_t s)
{
    switch (s) {
    case CUBLAS_STATUS_ALLOC_FAILED:
    case CUBLAS_STATUS_NOT_INITIALIZED:
    case CUBLAS_STATUS_ARCH_MISMATCH:
    case CUBLAS_STATUS_NOT_SUPPORTED:
    case CUBLAS_STATUS_LICENSE_ERROR:
        return CHEF_EXIT_ENVIRONMENT;
    case CUBLAS_STATUS_INVALID_VALUE:
        return CHEF_EXIT_INTERNAL;
    default:
        return CHEF_EXIT_CRASH;
    }
}

/* Looks up one function of the loaded library; NULL with library_cublas.why set if it is missing. */
static void *library_symbol(const char *name)
{
    dlerror();
    void *fn = dlsym(library_cublas.dl, name);
    if (!fn)
        snprintf(library_cublas.why, sizeof library_cublas.why, "%s has no function %s (%s)",
                 library_cublas.soname, name, dlerror());
    return fn;
}

/* Loads cuBLAS, finds its functions and creates the handle; remembers why when it cannot. */
static void library_cublas_open(void)
{
    library_cublas.tried = 1;
    char tried[300] = "";
    for (size_t i = 0; i < sizeof library_sonames / sizeof library_sonames[0] && !library_cublas.dl; i++) {
        library_cublas.dl = dlopen(library_sonames[i], RTLD_NOW | RTLD_LOCAL);
        if (library_cublas.dl) {
            library_cublas.soname = library_sonames[i];
        } else {
            const char *e = dlerror();
            if (i == 0)
                snprintf(tried, sizeof tried, "%s", e ? e : library_sonames[i]);
        }
    }
    if (!library_cublas.dl) {
        snprintf(library_cublas.why, sizeof library_cublas.why, "%s", tried);
        return;
    }
    library_create_fn create = (library_create_fn)library_symbol("cublasCreate_v2");
    library_property_fn property = (library_property_fn)library_symbol("cublasGetProperty");
    library_cublas.set_math_mode = (library_math_mode_fn)library_symbol("cublasSetMathMode");
    library_cublas.sgemm = (library_sgemm_fn)library_symbol("cublasSgemm_v2");
    if (!create || !property || !library_cublas.set_math_mode || !library_cublas.sgemm)
        return;
    library_cublas.found = 1;
    const libraryPropertyType parts[3] = {MAJOR_VERSION, MINOR_VERSION, PATCH_LEVEL};
    for (int i = 0; i < 3; i++)
        if (property(parts[i], &library_cublas.version[i]) != CUBLAS_STATUS_SUCCESS)
            library_cublas.version[i] = 0;
    cublasStatus_t s = create(&library_cublas.handle);
    if (s != CUBLAS_STATUS_SUCCESS) {
        snprintf(library_cublas.why, sizeof library_cublas.why, "cublasCreate failed: %s",
                 library_status_name(s));
        return;
    }
    library_cublas.ready = 1;
}

static pthread_once_t library_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t library_lock = PTHREAD_MUTEX_INITIALIZER; /* the one handle, and its math mode */

/* Loads cuBLAS at its first use (see backend.h), once whichever thread asks first. */
int library_gpu_load(chef_error *err)
{
    pthread_once(&library_once, library_cublas_open);
    if (library_cublas.ready)
        return 0;
    if (library_cublas.found) /* loaded, but the handle could not be created */
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, _("`cudachef info` shows whether the GPU works"),
                         _("cuBLAS (%s) loaded but could not start on this GPU: %s"), library_cublas.soname,
                         library_cublas.why);
    return chef_fail(err, CHEF_EXIT_ENVIRONMENT,
                     _("install cuBLAS (libcublas, part of the CUDA toolkit) or add its folder to "
                       "LD_LIBRARY_PATH; the kernel recipes work without it"),
                     _("the library recipes need NVIDIA's cuBLAS, which could not be loaded: %s"),
                     library_cublas.why);
}

/* True when the GPU has TF32 tensor cores: compute capability 8.0 (Ampere) and newer. */
static int library_gpu_has_tf32(const backend_info *info)
{
    return info->cc_major >= 8;
}

/* Queues C = A * B on the default stream (see backend.h). */
int library_gpu_sgemm(const float *A, const float *B, float *C, int n, int tf32, const backend_info *info,
                      chef_error *err)
{
    if (library_gpu_load(err) != 0)
        return -1;
    cublasMath_t mode = tf32 && library_gpu_has_tf32(info) ? CUBLAS_TF32_TENSOR_OP_MATH : CUBLAS_DEFAULT_MATH;
    pthread_mutex_lock(&library_lock); /* the mode and the call that uses it, together */
    cublasStatus_t s = library_cublas.set_math_mode(library_cublas.handle, mode);
    if (s != CUBLAS_STATUS_SUCCESS) {
        pthread_mutex_unlock(&library_lock);
        return chef_fail(err, library_status_exit(s), NULL, "cublasSetMathMode(%s) failed: %s",
                         mode == CUBLAS_TF32_TENSOR_OP_MATH ? "CUBLAS_TF32_TENSOR_OP_MATH" : "CUBLAS_DEFAULT_MATH",
                         library_status_name(s));
    }
    const float one = 1.0f, zero = 0.0f;
    /* Row-major C = A * B is column-major C^T = B^T * A^T: pass B first, then A. */
    s = library_cublas.sgemm(library_cublas.handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, B, n, A, n, &zero,
                             C, n);
    pthread_mutex_unlock(&library_lock);
    if (s != CUBLAS_STATUS_SUCCESS)
        return chef_fail(err, library_status_exit(s), NULL, "cublasSgemm (n = %d, %s) failed: %s", n,
                         mode == CUBLAS_TF32_TENSOR_OP_MATH ? "TF32" : "FP32", library_status_name(s));
    return 0;
}

/* What cooks a library recipe on this GPU (see backend.h). */
const char *library_gpu_describe(int tf32, const backend_info *info)
{
    static _Thread_local char text[2][400]; /* each thread its own: jobs describe it too */
    char *out = text[tf32 ? 1 : 0];
    if (library_gpu_load(NULL) != 0) {
        snprintf(out, sizeof text[0], _("cuBLAS is not usable: %s"), library_cublas.why);
        return out;
    }
    const int *v = library_cublas.version;
    if (!tf32)
        snprintf(out, sizeof text[0], _("cuBLAS %d.%d.%d SGEMM in FP32"), v[0], v[1], v[2]);
    else if (library_gpu_has_tf32(info))
        snprintf(out, sizeof text[0], _("cuBLAS %d.%d.%d SGEMM in TF32 on the tensor cores"), v[0], v[1], v[2]);
    else
        snprintf(out, sizeof text[0],
                 _("cuBLAS %d.%d.%d SGEMM in FP32: this GPU (compute capability %d.%d) has no TF32, so it "
                   "ran FP32"),
                 v[0], v[1], v[2], info->cc_major, info->cc_minor);
    return out;
}
