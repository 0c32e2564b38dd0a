/* cuda_gl_interop.h - CUDA and OpenGL sharing buffers: a program that draws in a window is refused
   with one line naming the include, and runs on a GPU with a display (cudachef try --backend gpu). */
#error "OpenGL interop (cuda_gl_interop.h) is not emulated: run this program on a GPU (--backend gpu)"
