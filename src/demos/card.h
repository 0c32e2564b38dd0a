/*
 * card.h - the "card" demo (lesson 18, looking inside a kernel): each recipe's recipe card.
 *
 * What ptxas said about the kernel while the build compiled it for the modeled GPU's architecture
 * (sm_90 for the H200; resources.h): registers per cook, static shared memory per team, the stack
 * frame in local memory per cook and the bytes it spilled there, the barriers it uses. Beside it,
 * the occupancy that allows on that GPU with the recipe's team size: teams and warps per station
 * and what limits them, by the model's own computation (model_occupancy). Nothing runs: the card is
 * the compiler's, read from the build. A build without CUDA has no card, and says so.
 *
 * `cudachef inside RECIPE` prints the same card before the kernel's PTX and SASS (cmd_inside.c).
 */
#ifndef CUDACHEF_CARD_H
#define CUDACHEF_CARD_H

#include <jansson.h>
#include <stdio.h>

#include "demos/demo.h"
#include "engine/model.h"
#include "engine/resources.h"

/* One recipe's card. */
typedef struct card_row {
    char recipe[64];
    char kernel[64];
    int known;                  /* 0: the build has no row for this kernel (no CUDA, or a library) */
    kernel_resource card;       /* known: the row (card.kernel points into the build's table) */
    int cooks_per_team;
    int teams_per_station;      /* the occupancy model_occupancy allows */
    int warps_per_station;
    int max_warps;              /* the station's limit: threads_per_station / 32 */
    const char *limited_by;     /* untranslated: "threads", "teams", "shared memory", "registers" */
} card_row;

typedef struct card_result {
    model_device device;        /* the GPU whose architecture the card is for */
    int nrows;
    card_row rows[DEMO_MAX_RECIPES];
} card_result;

/* Fills the card of the recipe called name for device d, teams of cooks cooks (0: the recipe's default). 0, or -1
   with err (exit code 2) when there is no such recipe. */
int card_fill(const model_device *d, const char *name, int cooks, card_row *out, chef_error *err);

/* The cards of p's recipes (p->recipes, else p->run.recipe) on the modeled GPU (p->run.model). */
int card_run(const demo_params *p, card_result **out, chef_error *err);

/* Prints one card, for people (the first line names the recipe and the GPU). */
void card_row_text(FILE *out, const model_device *d, const card_row *r);

void card_text(FILE *out, const card_result *r);
json_t *card_row_json(const card_row *r);
json_t *card_json(const card_result *r);
void card_free(card_result *r);

#endif
