/* nvToolsExt.h - NVTX by its older path: the same marks as nvtx3/nvToolsExt.h. */
#include "nvtx3/nvToolsExt.h"
