/*
 * kernel_glue.h - macros that turn a KERNEL(name, n, (types)) line of a .def file into code.
 *
 * A kernel is launched like cudaLaunchKernel does it: with an array of pointers to its
 * arguments. CHEF_DECLARE(n, types) reads such an array back into typed locals (for the
 * emulator); CHEF_PARAMS / CHEF_NAMES write a parameter list and its names (for GPU wrappers).
 */
#ifndef CUDACHEF_KERNEL_GLUE_H
#define CUDACHEF_KERNEL_GLUE_H

#define CHEF_CAT_(a, b) a##b
#define CHEF_CAT(a, b) CHEF_CAT_(a, b)

#define CHEF_PARAMS(n, types) CHEF_CAT(CHEF_PARAMS_, n) types
#define CHEF_PARAMS_1(t0) t0 p0
#define CHEF_PARAMS_2(t0, t1) t0 p0, t1 p1
#define CHEF_PARAMS_3(t0, t1, t2) t0 p0, t1 p1, t2 p2
#define CHEF_PARAMS_4(t0, t1, t2, t3) t0 p0, t1 p1, t2 p2, t3 p3
#define CHEF_PARAMS_5(t0, t1, t2, t3, t4) t0 p0, t1 p1, t2 p2, t3 p3, t4 p4
#define CHEF_PARAMS_6(t0, t1, t2, t3, t4, t5) t0 p0, t1 p1, t2 p2, t3 p3, t4 p4, t5 p5
#define CHEF_PARAMS_7(t0, t1, t2, t3, t4, t5, t6) t0 p0, t1 p1, t2 p2, t3 p3, t4 p4, t5 p5, t6 p6
#define CHEF_PARAMS_8(t0, t1, t2, t3, t4, t5, t6, t7)                                              \
    t0 p0, t1 p1, t2 p2, t3 p3, t4 p4, t5 p5, t6 p6, t7 p7

#define CHEF_NAMES(n) CHEF_CAT(CHEF_NAMES_, n)
#define CHEF_NAMES_1 p0
#define CHEF_NAMES_2 p0, p1
#define CHEF_NAMES_3 p0, p1, p2
#define CHEF_NAMES_4 p0, p1, p2, p3
#define CHEF_NAMES_5 p0, p1, p2, p3, p4
#define CHEF_NAMES_6 p0, p1, p2, p3, p4, p5
#define CHEF_NAMES_7 p0, p1, p2, p3, p4, p5, p6
#define CHEF_NAMES_8 p0, p1, p2, p3, p4, p5, p6, p7

/* Reads args[i] as a value of type t. */
#define CHEF_ARG(i, t) (*(t *)args[i])

/* Declares locals p0..p(n-1) read from args (so a loop over cooks reads the array once). */
#define CHEF_DECLARE(n, types) CHEF_CAT(CHEF_DECLARE_, n) types
#define CHEF_LOCAL(i, t) t p##i = CHEF_ARG(i, t);
#define CHEF_DECLARE_1(t0) CHEF_LOCAL(0, t0)
#define CHEF_DECLARE_2(t0, t1) CHEF_DECLARE_1(t0) CHEF_LOCAL(1, t1)
#define CHEF_DECLARE_3(t0, t1, t2) CHEF_DECLARE_2(t0, t1) CHEF_LOCAL(2, t2)
#define CHEF_DECLARE_4(t0, t1, t2, t3) CHEF_DECLARE_3(t0, t1, t2) CHEF_LOCAL(3, t3)
#define CHEF_DECLARE_5(t0, t1, t2, t3, t4) CHEF_DECLARE_4(t0, t1, t2, t3) CHEF_LOCAL(4, t4)
#define CHEF_DECLARE_6(t0, t1, t2, t3, t4, t5) CHEF_DECLARE_5(t0, t1, t2, t3, t4) CHEF_LOCAL(5, t5)
#define CHEF_DECLARE_7(t0, t1, t2, t3, t4, t5, t6)                                                 \
    CHEF_DECLARE_6(t0, t1, t2, t3, t4, t5) CHEF_LOCAL(6, t6)
#define CHEF_DECLARE_8(t0, t1, t2, t3, t4, t5, t6, t7)                                             \
    CHEF_DECLARE_7(t0, t1, t2, t3, t4, t5, t6) CHEF_LOCAL(7, t7)

#endif
