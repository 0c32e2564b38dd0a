/* cooperative_groups/memcpy_async.h - on the emulator, every part of cooperative groups is in
   ../cooperative_groups.h (reduce, the scans, memcpy_async and wait). */
#include "../cooperative_groups.h"
