/*
 * cmd_list.c - `cudachef list`: what can be run.
 */
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>

#include "cli.h"
#include "recipes.h"
#include "report.h"

static const char list_usage[] =
    "usage: cudachef list [--format text|json]\n"
    "\n"
    "Lists what `cudachef run` can cook.\n";

/* `cudachef list [--format text|json]`. */
int cmd_list(int argc, char **argv)
{
    static const struct option opts[] = {{"format", required_argument, 0, 'f'},
                                         {"help", no_argument, 0, 'h'},
                                         {"version", no_argument, 0, 'V'},
                                         {0, 0, 0, 0}};
    cli_format format = CLI_FORMAT_TEXT;
    chef_error err = {0};
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        switch (c) {
        case 'f':
            if (cli_parse_format(optarg, &format, &err) != 0)
                return cli_usage_error("list", "%s", err.message);
            break;
        default:
            return cli_common_option(c, "list", list_usage, argv);
        }
    }
    if (optind < argc)
        return cli_usage_error("list", "unexpected argument '%s'", argv[optind]);
    const recipe *const *all = recipe_all();
    if (format == CLI_FORMAT_JSON) {
        json_t *items = json_array();
        for (int i = 0; all[i]; i++)
            json_array_append_new(items, json_pack("{s:s, s:s, s:s, s:s, s:I, s:i}", "name", all[i]->name, "kind",
                                                   "recipe", "kernel", all[i]->kernel, "summary", all[i]->summary,
                                                   "default_n", (json_int_t)all[i]->default_n,
                                                   "default_threads_per_block", all[i]->default_threads_per_block));
        json_t *o = json_pack("{s:s, s:o}", "schema", REPORT_LIST_SCHEMA, "items", items);
        int rc = report_json_write(stdout, o);
        json_decref(o);
        return rc == 0 ? 0 : CHEF_EXIT_ENVIRONMENT;
    }
    printf("What cudachef can cook (cudachef run NAME):\n\n");
    for (int i = 0; all[i]; i++)
        printf("  %-24s %s\n", all[i]->name, all[i]->summary);
    return 0;
}
