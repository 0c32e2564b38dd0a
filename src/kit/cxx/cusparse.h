/* cusparse.h - a CUDA library the emulator does not model: a program that includes it is refused with one
   line naming the include, and runs on a GPU (cudachef try --backend gpu). */
#error "cusparse is not emulated: run this program on a GPU (--backend gpu)"
