/*
 * cooperative_groups.h - CUDA's cooperative groups for a whole program on the emulator: the team
 * (thread_block), tiles of a warp made at compile time (thread_block_tile<N>) or at run time
 * (tiled_partition(parent, n)), the lanes that are here together (coalesced_threads(),
 * binary_partition, labeled_partition), their collectives (sync, shuffles, votes, reduce and the
 * scans of cooperative_groups/reduce.h and scan.h), and memcpy_async with wait.
 *
 * Every collective is the emulator's warp rendezvous of the group's lanes (src/kit/cxx/
 * cudachef_device.h), so a lane that skips it is named as it is for __shfl_sync. A tile is a
 * warp's lanes by linear index, as on a GPU. What is not emulated and refused when it is compiled
 * (the compiler's error names the line): the grid's and the multi-grid's sync (they need every team
 * resident at once: cudaLaunchCooperativeKernel), tiles wider than a warp (block_tile_memory).
 */
#ifndef CUDACHEF_CXX_COOPERATIVE_GROUPS_H
#define CUDACHEF_CXX_COOPERATIVE_GROUPS_H

#include "cudachef.h"

namespace cooperative_groups {

namespace details {
/* The cook's rank in its team (x fastest), and its lane in its warp. */
inline unsigned block_rank() { return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z); }
inline unsigned lane() { return block_rank() % 32u; }
inline unsigned lanes_below() { return (1u << lane()) - 1u; }
} // namespace details

/* Any group: what every kind answers. */
class thread_group {
  protected:
    unsigned mask_;  /* the lanes of the caller's warp in the group (warp-sized groups) */
    unsigned size_;  /* its cooks */
    unsigned rank_;  /* the caller's rank in it */
    int block_;      /* 1: the whole team */

  public:
    thread_group(unsigned mask, unsigned size, unsigned rank, int block) : mask_(mask), size_(size), rank_(rank), block_(block) {}
    unsigned long long size() const { return size_; }
    unsigned long long num_threads() const { return size_; }
    unsigned long long thread_rank() const { return rank_; }
    bool is_valid() const { return size_ > 0; }
    void sync(int line = __builtin_LINE()) const
    {
        if (block_)
            emu_syncthreads(line);
        else
            __syncwarp(mask_, line);
    }
    unsigned get_mask() const { return mask_; }
};

/* The team. */
class thread_block : public thread_group {
  public:
    thread_block() : thread_group(0xffffffffu, blockDim.x * blockDim.y * blockDim.z, details::block_rank(), 1) {}
    static dim3 group_index() { return dim3(blockIdx); }
    static dim3 thread_index() { return dim3(threadIdx); }
    static dim3 group_dim() { return dim3(blockDim); }
    static dim3 dim_threads() { return dim3(blockDim); }
};
inline thread_block this_thread_block() { return thread_block(); }

/* The grid: its ranks and sizes; its sync needs every team at once, which the emulator does not
   do (teams run a few at a time, as on a GPU without a cooperative launch). */
class grid_group {
  public:
    unsigned long long thread_rank() const
    {
        unsigned long long team = blockIdx.x + (unsigned long long)gridDim.x * (blockIdx.y + (unsigned long long)gridDim.y * blockIdx.z);
        return team * (blockDim.x * blockDim.y * blockDim.z) + details::block_rank();
    }
    unsigned long long size() const
    {
        return (unsigned long long)gridDim.x * gridDim.y * gridDim.z * blockDim.x * blockDim.y * blockDim.z;
    }
    unsigned long long num_threads() const { return size(); }
    unsigned long long block_rank() const { return blockIdx.x + (unsigned long long)gridDim.x * (blockIdx.y + (unsigned long long)gridDim.y * blockIdx.z); }
    unsigned long long num_blocks() const { return (unsigned long long)gridDim.x * gridDim.y * gridDim.z; }
    static dim3 group_dim() { return dim3(gridDim); }
    static dim3 dim_blocks() { return dim3(gridDim); }
    static dim3 block_index() { return dim3(blockIdx); }
    bool is_valid() const { return true; }
    void sync() const __attribute__((error("grid.sync() (a cooperative launch) is not emulated: run this program on a GPU (--backend gpu)")));
};
inline grid_group this_grid() { return grid_group(); }

/* A group of lanes of one warp, by mask: shuffles by rank in the group, votes, sync. */
class warp_group : public thread_group {
  protected:
    /* the warp lane of the group's rank-th member */
    unsigned lane_of(unsigned rank) const
    {
        unsigned m = mask_;
        for (unsigned r = 0; r < rank && m; r++)
            m &= m - 1;
        return m ? (unsigned)__builtin_ctz(m) : details::lane();
    }

  public:
    warp_group(unsigned mask, unsigned size, unsigned rank) : thread_group(mask, size, rank, 0) {}
    unsigned meta_group_rank() const { return 0; }
    unsigned meta_group_size() const { return 1; }
    unsigned ballot(int pred, int line = __builtin_LINE()) const
    {
        unsigned lanes = __ballot_sync(mask_, pred, line), bits = 0, r = 0;
        for (unsigned m = mask_; m; m &= m - 1, r++) /* bit r: the group's rank-r member */
            if (lanes & (m & -m))
                bits |= 1u << r;
        return bits;
    }
    int any(int pred, int line = __builtin_LINE()) const { return __any_sync(mask_, pred, line); }
    int all(int pred, int line = __builtin_LINE()) const { return __all_sync(mask_, pred, line); }
    template <class T> T shfl(T var, unsigned src_rank, int line = __builtin_LINE()) const
    {
        return __shfl_sync(mask_, var, (int)lane_of(src_rank % size_), 32, line);
    }
};

/* The lanes that reached the call together (CUDA's coalesced_threads()). */
class coalesced_group : public warp_group {
  public:
    explicit coalesced_group(unsigned mask)
        : warp_group(mask, (unsigned)__builtin_popcount(mask), (unsigned)__builtin_popcount(mask & details::lanes_below())) {}
    template <class T> T shfl_up(T var, unsigned delta, int line = __builtin_LINE()) const
    {
        unsigned r = rank_ >= delta ? rank_ - delta : rank_;
        return __shfl_sync(mask_, var, (int)lane_of(r), 32, line);
    }
    template <class T> T shfl_down(T var, unsigned delta, int line = __builtin_LINE()) const
    {
        unsigned r = rank_ + delta < size_ ? rank_ + delta : rank_;
        return __shfl_sync(mask_, var, (int)lane_of(r), 32, line);
    }
};
inline coalesced_group coalesced_threads(int line = __builtin_LINE()) { return coalesced_group(__activemask(line)); }

/* A tile of Size lanes (a power of two up to 32), made by tiled_partition<Size>(parent). */
template <unsigned Size, class Parent = void> class thread_block_tile : public warp_group {
    static_assert(Size >= 1 && Size <= 32 && (Size & (Size - 1)) == 0,
                  "a tile of the emulator is a power of two up to 32 lanes (wider tiles need block_tile_memory, "
                  "which is not emulated)");

  public:
    thread_block_tile()
        : warp_group(Size == 32 ? 0xffffffffu : ((1u << Size) - 1u) << (details::lane() / Size * Size), Size,
                     details::block_rank() % Size) {}
    template <class P> thread_block_tile(const thread_block_tile<Size, P> &) : thread_block_tile() {}
    static constexpr unsigned num_threads() { return Size; }
    static constexpr unsigned size() { return Size; }
    unsigned meta_group_rank() const { return details::block_rank() / Size; }
    unsigned meta_group_size() const { return (blockDim.x * blockDim.y * blockDim.z + Size - 1) / Size; }
    template <class T> T shfl(T var, int src, int line = __builtin_LINE()) const
    {
        return __shfl_sync(mask_, var, src, (int)Size, line);
    }
    template <class T> T shfl_up(T var, unsigned delta, int line = __builtin_LINE()) const
    {
        return __shfl_up_sync(mask_, var, delta, (int)Size, line);
    }
    template <class T> T shfl_down(T var, unsigned delta, int line = __builtin_LINE()) const
    {
        return __shfl_down_sync(mask_, var, delta, (int)Size, line);
    }
    template <class T> T shfl_xor(T var, unsigned lane_mask, int line = __builtin_LINE()) const
    {
        return __shfl_xor_sync(mask_, var, (int)lane_mask, (int)Size, line);
    }
    unsigned ballot(int pred, int line = __builtin_LINE()) const { return __ballot_sync(mask_, pred, line) >> (mask_ ? __builtin_ctz(mask_) : 0); }
};

/* Tiles made at compile time. */
template <unsigned Size, class Parent> inline thread_block_tile<Size, Parent> tiled_partition(const Parent &)
{
    return thread_block_tile<Size, Parent>();
}
/* A tile made at run time: size lanes (a power of two up to 32); sync, ranks and sizes only. */
inline thread_group tiled_partition(const thread_group &parent, unsigned size)
{
    unsigned rank = (unsigned)parent.thread_rank();
    if (size > 32)
        return thread_group(0xffffffffu, size, rank % size, 1);
    unsigned lane = details::lane(), mask = size == 32 ? 0xffffffffu : ((1u << size) - 1u) << (lane / size * size);
    return thread_group(mask, size, rank % size, 0);
}

/* The lanes of a group split by a predicate (or a label): each cook's part. */
template <class Group> inline coalesced_group binary_partition(const Group &g, bool pred, int line = __builtin_LINE())
{
    unsigned mask = g.get_mask(), yes = __ballot_sync(mask, pred, line);
    return coalesced_group(pred ? yes & mask : ~yes & mask);
}
template <class Group, class Label> inline coalesced_group labeled_partition(const Group &g, Label label, int line = __builtin_LINE())
{
    unsigned mask = g.get_mask(), same = 0;
    for (unsigned m = mask; m; m &= m - 1) {
        int src = __builtin_ctz(m);
        Label other = __shfl_sync(mask, label, src, 32, line);
        if (other == label)
            same |= 1u << src;
    }
    return coalesced_group(same);
}

/* Tiles wider than a warp need this scratch memory on a GPU; the emulator has no such tiles. */
template <unsigned Size, unsigned MaxBlock = 1024> struct block_tile_memory {
    static_assert(Size == 0, "cooperative_groups::block_tile_memory (tiles wider than a warp) is not emulated: run this "
                             "program on a GPU (--backend gpu)");
};

template <unsigned Size, unsigned MaxBlock> inline thread_block this_thread_block(block_tile_memory<Size, MaxBlock> &)
{
    return thread_block();
}

/* sync(group), as the free function. */
template <class Group> inline void sync(const Group &g, int line = __builtin_LINE()) { g.sync(line); }
inline void sync(const grid_group &g) { g.sync(); }

/* The operators reduce and the scans take. */
template <class T> struct plus { T operator()(T a, T b) const { return a + b; } };
template <class T> struct less { T operator()(T a, T b) const { return b < a ? b : a; } };
template <class T> struct greater { T operator()(T a, T b) const { return a < b ? b : a; } };
template <class T> struct bit_and { T operator()(T a, T b) const { return a & b; } };
template <class T> struct bit_or { T operator()(T a, T b) const { return a | b; } };
template <class T> struct bit_xor { T operator()(T a, T b) const { return a ^ b; } };

/* reduce(group, value, op): every member gets op over the group's values. */
template <class Group, class T, class Op> inline T reduce(const Group &g, T value, Op op, int line = __builtin_LINE())
{
    unsigned mask = g.get_mask();
    T total = value;
    bool first = true;
    for (unsigned m = mask; m; m &= m - 1) { /* every member's value, in rank order, at every member */
        T v = __shfl_sync(mask, value, __builtin_ctz(m), 32, line);
        total = first ? v : op(total, v);
        first = false;
    }
    return total;
}
/* The scans: each member gets op over the values of the members up to itself (inclusive) or
   before it (exclusive; the first member gets a value-initialised T). */
template <class Group, class T, class Op> inline T inclusive_scan(const Group &g, T value, Op op, int line = __builtin_LINE())
{
    unsigned mask = g.get_mask(), me = details::lane();
    T total = value;
    bool first = true;
    for (unsigned m = mask; m; m &= m - 1) {
        unsigned src = (unsigned)__builtin_ctz(m);
        T v = __shfl_sync(mask, value, (int)src, 32, line);
        if (src <= me) {
            total = first ? v : op(total, v);
            first = false;
        }
    }
    return total;
}
template <class Group, class T> inline T inclusive_scan(const Group &g, T value, int line = __builtin_LINE())
{
    return inclusive_scan(g, value, plus<T>(), line);
}
template <class Group, class T, class Op> inline T exclusive_scan(const Group &g, T value, Op op, int line = __builtin_LINE())
{
    unsigned mask = g.get_mask(), me = details::lane();
    T total = T();
    bool first = true;
    for (unsigned m = mask; m; m &= m - 1) {
        unsigned src = (unsigned)__builtin_ctz(m);
        T v = __shfl_sync(mask, value, (int)src, 32, line);
        if (src < me) {
            total = first ? v : op(total, v);
            first = false;
        }
    }
    return total;
}
template <class Group, class T> inline T exclusive_scan(const Group &g, T value, int line = __builtin_LINE())
{
    return exclusive_scan(g, value, plus<T>(), line);
}

/* memcpy_async(group, dst, src, bytes): the group's members copy it together (each its share of
   4-byte words, in the order of their ranks); wait(group) is the group's sync. */
template <class Group> inline void memcpy_async(const Group &g, void *dst, const void *src, size_t bytes)
{
    size_t rank = (size_t)g.thread_rank(), size = (size_t)g.size();
    if (bytes % 4 == 0 && (uintptr_t)dst % 4 == 0 && (uintptr_t)src % 4 == 0)
        for (size_t w = rank; w < bytes / 4; w += size)
            ((float *)dst)[w] = ((const float *)src)[w];
    else
        for (size_t b = rank; b < bytes; b += size)
            ((char *)dst)[b] = ((const char *)src)[b];
}
template <class Group> inline void wait(const Group &g, int line = __builtin_LINE()) { g.sync(line); }
template <unsigned N, class Group> inline void wait_prior(const Group &g, int line = __builtin_LINE()) { g.sync(line); }

} // namespace cooperative_groups

#endif
