/* mma.h - CUDA's warp matrix functions (nvcuda::wmma) in a whole program are not modeled by the
   emulator yet (a recipe's kernel has them, src/kit/emu_wmma.h): such a program is refused with one
   line naming the include, and runs on a GPU (cudachef try --backend gpu). */
#error "nvcuda::wmma in a whole program is not emulated: run this program on a GPU (--backend gpu)"
