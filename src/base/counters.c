/*
 * counters.c - the table of launch counters: their Nsight Compute names and what they mean.
 */
#include "base/counters.h"

#include "base/i18n.h"

const counter_info counter_table[COUNTER_COUNT] = {
    [COUNTER_GLOBAL_LD_REQUESTS] = {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", N_("global load requests")},
    [COUNTER_GLOBAL_LD_SECTORS] = {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", N_("global load sectors")},
    [COUNTER_GLOBAL_ST_REQUESTS] = {"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", N_("global store requests")},
    [COUNTER_GLOBAL_ST_SECTORS] = {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", N_("global store sectors")},
    [COUNTER_GLOBAL_ATOMICS] = {"cudachef__t_requests_mem_global_op_atomic.sum", N_("global atomic requests")},
    [COUNTER_SHARED_LD_INSTRUCTIONS] = {"smsp__sass_inst_executed_op_shared_ld.sum", N_("shared load instructions")},
    [COUNTER_SHARED_LD_WAVEFRONTS] = {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
                                      N_("shared load wavefronts")},
    [COUNTER_SHARED_LD_CONFLICTS] = {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
                                     N_("shared load bank conflicts")},
    [COUNTER_SHARED_ST_INSTRUCTIONS] = {"smsp__sass_inst_executed_op_shared_st.sum", N_("shared store instructions")},
    [COUNTER_SHARED_ST_WAVEFRONTS] = {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
                                      N_("shared store wavefronts")},
    [COUNTER_SHARED_ST_CONFLICTS] = {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
                                     N_("shared store bank conflicts")},
    [COUNTER_SHARED_ATOMICS] = {"cudachef__t_requests_mem_shared_op_atomic.sum", N_("shared atomic requests")},
    [COUNTER_BARRIERS] = {"cudachef__warp_barriers.sum", N_("warp barriers (__syncthreads)")},
    [COUNTER_MEMORY_INSTRUCTIONS] = {"cudachef__warp_memory_instructions.sum", N_("warp memory instructions")},
    [COUNTER_DIVERGENT] = {"cudachef__warp_memory_instructions_divergent.sum",
                           N_("of them with part of the warp (divergent)")},
    [COUNTER_WARP_BLOCKS] = {"cudachef__warp_blocks.sum", N_("warp runs of basic blocks")},
    [COUNTER_WARP_BLOCKS_DIVERGENT] = {"cudachef__warp_blocks_divergent.sum",
                                       N_("of them with part of the warp (a branch taken apart)")},
    [COUNTER_GLOBAL_SECTORS_DISTINCT] = {"cudachef__global_sectors_distinct.sum",
                                         N_("distinct global sectors (the least memory traffic)")},
    [COUNTER_FP32_OPS] = {"cudachef__thread_fp32_flops.sum", N_("float operations (an FMA is 2)")},
    [COUNTER_FP32_SPECIAL] = {"cudachef__thread_fp32_div_sqrt.sum", N_("float divides and square roots")},
    [COUNTER_FP64_OPS] = {"cudachef__thread_fp64_ops.sum", N_("double operations")},
    [COUNTER_ATOMICS_ONE_ADDRESS] = {"cudachef__thread_atomics_one_address.max",
                                     N_("the most atomics on one address (they wait for each other)")},
};

/* The counter over every team of the launch (docs/EMULATOR.md: sampled launches). */
double counters_scaled(const counters *c, counter_id id)
{
    if (!c->valid || c->teams_counted == 0)
        return 0.0;
    double v = (double)c->value[id];
    uint64_t seen = c->teams_counted;
    if ((id == COUNTER_GLOBAL_SECTORS_DISTINCT || id == COUNTER_ATOMICS_ONE_ADDRESS) && c->teams_checked)
        seen = c->teams_checked;
    if (seen < c->teams)
        v *= (double)c->teams / (double)seen;
    if (id == COUNTER_GLOBAL_SECTORS_DISTINCT && c->sectors_in_buffers && v > (double)c->sectors_in_buffers)
        v = (double)c->sectors_in_buffers; /* teams left out share much of what the counted touched */
    return v;
}

/* Adds b into a (a worker's teams into the launch's); the shared memory per team is the larger. */
void counters_add(counters *a, const counters *b)
{
    a->teams += b->teams;
    a->teams_counted += b->teams_counted;
    a->teams_checked += b->teams_checked;
    if (b->shared_bytes_per_team > a->shared_bytes_per_team)
        a->shared_bytes_per_team = b->shared_bytes_per_team;
    for (int i = 0; i < COUNTER_COUNT; i++)
        a->value[i] += b->value[i];
}
