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
};

/* The counter over every team of the launch (docs/EMULATOR.md: sampled launches). */
double counters_scaled(const counters *c, counter_id id)
{
    if (!c->valid || c->teams_counted == 0)
        return 0.0;
    double v = (double)c->value[id];
    return c->teams_counted == c->teams ? v : v * (double)c->teams / (double)c->teams_counted;
}

/* Adds b into a (a worker's teams into the launch's). */
void counters_add(counters *a, const counters *b)
{
    a->teams += b->teams;
    a->teams_counted += b->teams_counted;
    for (int i = 0; i < COUNTER_COUNT; i++)
        a->value[i] += b->value[i];
}
