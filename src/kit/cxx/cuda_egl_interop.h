/* cuda_egl_interop.h - CUDA and EGL streams sharing images: a program that draws in a window is refused
   with one line naming the include, and runs on a GPU with a display (cudachef try --backend gpu). */
#error "EGL interop (cuda_egl_interop.h) is not emulated: run this program on a GPU (--backend gpu)"
