/* cublas_api.h - on the emulator, the cuBLAS model is cublas_v2.h's. */
#include "cublas_v2.h"
