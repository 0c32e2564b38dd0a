/* glut.h - a window drawn with OpenGL: the emulator has no display, so a program that includes it is
   refused with one line naming the include, and runs on a GPU machine with a display
   (cudachef try --backend gpu). */
#error "a window drawn with OpenGL (GL/glut.h) is not emulated: run this program on a GPU (--backend gpu)"
