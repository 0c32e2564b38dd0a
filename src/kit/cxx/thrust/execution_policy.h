/* thrust/execution_policy.h - Thrust is not modeled by the emulator: a program that includes it is refused with one line
   naming the include, and runs on a GPU (cudachef try --backend gpu). */
#error "Thrust is not emulated: run this program on a GPU (--backend gpu)"
