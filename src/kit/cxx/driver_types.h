/* driver_types.h - on the emulator, CUDA's runtime words all come from cudachef.h (forced in before every file
   of a whole program); this stands in for the toolkit's header of the same name. */
#include "cudachef.h"
