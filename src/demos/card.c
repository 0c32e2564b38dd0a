/*
 * card.c - the recipe card: what the compiler gave a kernel, and the occupancy it allows (card.h).
 */
#include "demos/card.h"

#include <stdlib.h>
#include <string.h>

#include "base/i18n.h"
#include "engine/recipes.h"

/* One recipe's card on device d. */
int card_fill(const model_device *d, const char *name, int cooks, card_row *out, chef_error *err)
{
    memset(out, 0, sizeof *out);
    const recipe *rc = recipe_find(name);
    if (!rc)
        return chef_fail(err, CHEF_EXIT_USAGE, _("`cudachef list` shows the recipes"), _("no recipe '%s'"), name);
    snprintf(out->recipe, sizeof out->recipe, "%s", rc->name);
    snprintf(out->kernel, sizeof out->kernel, "%s", rc->kernel ? rc->kernel : "");
    const kernel_resource *k = rc->library ? NULL : resources_card(rc->kernel, d->compute_capability);
    out->cooks_per_team = cooks > 0 ? cooks : rc->default_threads_per_block > 0 ? rc->default_threads_per_block : 256;
    out->max_warps = d->threads_per_station / 32;
    if (!k)
        return 0;
    out->known = 1;
    out->card = *k;
    model_launch l = {.teams = 1, .cooks_per_team = (uint64_t)out->cooks_per_team,
                      .shared_bytes_per_team = (uint64_t)k->shared_bytes, .registers_per_cook = k->registers};
    out->teams_per_station = model_occupancy(d, &l, &out->limited_by);
    out->warps_per_station = out->teams_per_station * ((out->cooks_per_team + 31) / 32);
    return 0;
}

/* The cards of the demo's recipes. */
int card_run(const demo_params *p, card_result **out, chef_error *err)
{
    *out = NULL;
    card_result *r = calloc(1, sizeof *r);
    if (!r)
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, NULL, "%s", _("out of host memory"));
    if (model_device_open(p->run.model, &r->device, err) != 0) {
        free(r);
        return err->exit_code;
    }
    int n = p->nrecipes;
    const char *one[1] = {p->run.recipe};
    const char *const *names = n > 0 ? p->recipes : one;
    if (n == 0)
        n = p->run.recipe ? 1 : 0;
    for (int i = 0; i < n; i++)
        if (card_fill(&r->device, names[i], p->run.threads_per_block, &r->rows[r->nrows++], err) != 0) {
            free(r);
            return err->exit_code;
        }
    *out = r;
    return 0;
}

/* One card, for people. */
void card_row_text(FILE *out, const model_device *d, const card_row *r)
{
    fprintf(out, _("  %s (kernel %s), as nvcc compiled it for sm_%d, the %s's architecture:\n"), r->recipe,
            r->kernel[0] ? r->kernel : "-", (int)(d->compute_capability * 10 + 0.5), d->name);
    if (!r->known) {
        fprintf(out, "    %s\n",
                r->kernel[0] ? _("no card: this build was made without nvcc (CUDA=0), so ptxas never reported on it")
                             : _("no card: a library call, not a kernel of kernels/"));
        return;
    }
    const kernel_resource *k = &r->card;
    fprintf(out, _("    registers per cook (pockets)      %6d\n"), k->registers);
    fprintf(out, _("    static shared memory per team     %6d bytes (the locker)\n"), k->shared_bytes);
    fprintf(out, _("    stack frame per cook (local)      %6d bytes\n"), k->stack_bytes);
    fprintf(out, _("    spilled registers                 %6d bytes stored, %d loaded\n"), k->spill_stores,
            k->spill_loads);
    fprintf(out, _("    barriers used                     %6d\n"), k->barriers);
    fprintf(out, _("    => teams of %d cooks: %d teams per station, %d of its %d warps (%.0f%%), limited by %s\n"),
            r->cooks_per_team, r->teams_per_station, r->warps_per_station, r->max_warps,
            100.0 * r->warps_per_station / (r->max_warps ? r->max_warps : 1), _(r->limited_by));
}

/* Every card, for people. */
void card_text(FILE *out, const card_result *r)
{
    for (int i = 0; i < r->nrows; i++)
        card_row_text(out, &r->device, &r->rows[i]);
    fprintf(out, "%s\n", _("  (from `nvcc -Xptxas -v` while the build compiled the kernels; the occupancy is the "
                           "one the model uses, from the device file's limits)"));
}

/* One card, for programs. */
json_t *card_row_json(const card_row *r)
{
    json_t *o = json_pack("{s:s, s:s, s:b}", "recipe", r->recipe, "kernel", r->kernel, "known", r->known);
    if (r->known) {
        const kernel_resource *k = &r->card;
        json_object_update_missing_new(
            o, json_pack("{s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:s}", "sm", k->sm, "registers",
                         k->registers, "shared_bytes", k->shared_bytes, "stack_bytes", k->stack_bytes,
                         "spill_stores", k->spill_stores, "spill_loads", k->spill_loads, "barriers", k->barriers,
                         "cooks_per_team", r->cooks_per_team, "teams_per_station", r->teams_per_station,
                         "warps_per_station", r->warps_per_station, "max_warps_per_station", r->max_warps,
                         "limited_by", r->limited_by));
    }
    return o;
}

/* Every card, for programs. */
json_t *card_json(const card_result *r)
{
    json_t *rows = json_array();
    for (int i = 0; i < r->nrows; i++)
        json_array_append_new(rows, card_row_json(&r->rows[i]));
    json_t *o = json_pack("{s:s, s:s, s:s, s:f, s:o}", "kind", "card", "device", r->device.id, "device_name",
                          r->device.name, "compute_capability", r->device.compute_capability, "cards", rows);
    demo_status_json(o, 0, NULL);
    return o;
}

/* Frees a result. */
void card_free(card_result *r)
{
    free(r);
}
