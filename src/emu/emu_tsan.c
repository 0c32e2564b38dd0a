/*
 * emu_tsan.c - the calls of ThreadSanitizer's instrumentation that a whole program's checked build
 * makes besides its loads and stores (docs/EMULATOR.md, "Whole programs"): its atomics (a static
 * local's guard, std::atomic, shared_ptr's counts) and the virtual-table notes. No sanitizer
 * run-time is involved: these do the operation itself, as the plain build would, and the
 * emulator's checks see the kernel's own loads and stores (src/kit/cxx/cudachef.h renames those).
 * Exported from the program that runs the learner's code (exports.list).
 */
#include <stdint.h>
#include <string.h>

/* The atomics of one width (8 to 64 bits; 128-bit ones would need libatomic): every memory order is done as sequentially consistent, which is at
   least as strong as any asked for. */
#define EMU_TSAN_ATOMIC(bits, T)                                                                   \
    T __tsan_atomic##bits##_load(const volatile T *a, int mo);                                    \
    T __tsan_atomic##bits##_load(const volatile T *a, int mo)                                     \
    {                                                                                              \
        (void)mo;                                                                                  \
        return __atomic_load_n(a, __ATOMIC_SEQ_CST);                                               \
    }                                                                                              \
    void __tsan_atomic##bits##_store(volatile T *a, T v, int mo);                                  \
    void __tsan_atomic##bits##_store(volatile T *a, T v, int mo)                                   \
    {                                                                                              \
        (void)mo;                                                                                  \
        __atomic_store_n(a, v, __ATOMIC_SEQ_CST);                                                  \
    }                                                                                              \
    EMU_TSAN_RMW(bits, T, exchange, __atomic_exchange_n)                                           \
    EMU_TSAN_RMW(bits, T, fetch_add, __atomic_fetch_add)                                           \
    EMU_TSAN_RMW(bits, T, fetch_sub, __atomic_fetch_sub)                                           \
    EMU_TSAN_RMW(bits, T, fetch_and, __atomic_fetch_and)                                           \
    EMU_TSAN_RMW(bits, T, fetch_or, __atomic_fetch_or)                                             \
    EMU_TSAN_RMW(bits, T, fetch_xor, __atomic_fetch_xor)                                           \
    EMU_TSAN_RMW(bits, T, fetch_nand, __atomic_fetch_nand)                                         \
    int __tsan_atomic##bits##_compare_exchange_strong(volatile T *a, T *c, T v, int mo, int fmo);  \
    int __tsan_atomic##bits##_compare_exchange_strong(volatile T *a, T *c, T v, int mo, int fmo)   \
    {                                                                                              \
        (void)mo;                                                                                  \
        (void)fmo;                                                                                 \
        return __atomic_compare_exchange_n(a, c, v, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);        \
    }                                                                                              \
    int __tsan_atomic##bits##_compare_exchange_weak(volatile T *a, T *c, T v, int mo, int fmo);    \
    int __tsan_atomic##bits##_compare_exchange_weak(volatile T *a, T *c, T v, int mo, int fmo)     \
    {                                                                                              \
        return __tsan_atomic##bits##_compare_exchange_strong(a, c, v, mo, fmo);                    \
    }                                                                                              \
    T __tsan_atomic##bits##_compare_exchange_val(volatile T *a, T c, T v, int mo, int fmo);        \
    T __tsan_atomic##bits##_compare_exchange_val(volatile T *a, T c, T v, int mo, int fmo)         \
    {                                                                                              \
        __tsan_atomic##bits##_compare_exchange_strong(a, &c, v, mo, fmo);                          \
        return c;                                                                                  \
    }
/* One read-modify-write operation. */
#define EMU_TSAN_RMW(bits, T, name, builtin)                                                       \
    T __tsan_atomic##bits##_##name(volatile T *a, T v, int mo);                                    \
    T __tsan_atomic##bits##_##name(volatile T *a, T v, int mo)                                     \
    {                                                                                              \
        (void)mo;                                                                                  \
        return builtin(a, v, __ATOMIC_SEQ_CST);                                                    \
    }

EMU_TSAN_ATOMIC(8, uint8_t)
EMU_TSAN_ATOMIC(16, uint16_t)
EMU_TSAN_ATOMIC(32, uint32_t)
EMU_TSAN_ATOMIC(64, uint64_t)


void __tsan_atomic_thread_fence(int mo);
void __tsan_atomic_thread_fence(int mo)
{
    (void)mo;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

void __tsan_atomic_signal_fence(int mo);
void __tsan_atomic_signal_fence(int mo)
{
    (void)mo;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
}

/* A store or read of an object's virtual-table pointer: the store itself is the program's. */
void __tsan_vptr_update(void **vptr_p, void *new_val);
void __tsan_vptr_update(void **vptr_p, void *new_val)
{
    (void)vptr_p;
    (void)new_val;
}

void __tsan_vptr_read(void **vptr_p);
void __tsan_vptr_read(void **vptr_p)
{
    (void)vptr_p;
}

/* Copies and fills the instrumentation may call by name. */
void *__tsan_memcpy(void *dst, const void *src, size_t n);
void *__tsan_memcpy(void *dst, const void *src, size_t n)
{
    return memcpy(dst, src, n);
}

void *__tsan_memmove(void *dst, const void *src, size_t n);
void *__tsan_memmove(void *dst, const void *src, size_t n)
{
    return memmove(dst, src, n);
}

void *__tsan_memset(void *dst, int c, size_t n);
void *__tsan_memset(void *dst, int c, size_t n)
{
    return memset(dst, c, n);
}
