/*
 * cmd_info.c - `cudachef info`: meet your kitchen (the GPU, or the emulator and why).
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "engine/backend.h"
#include "cli/cli.h"
#include "engine/report.h"

static const char info_usage[] =
    "usage: cudachef info [--backend auto|gpu|emu] [--format text|json]\n"
    "\n"
    "Shows who will cook: the GPU's name, compute capability, stations (SMs), warp size,\n"
    "limits and memory; or, without a usable GPU, the CPU emulator and why no GPU was used.\n"
    "Exit codes: 0 ok, 2 usage error, 5 --backend gpu without a usable GPU.\n";

/* The commands (each parses its own options). */
int cmd_info(int argc, char **argv)
{
    static const struct option opts[] = {{"backend", required_argument, 0, 'b'},
                                         {"format", required_argument, 0, 'f'},
                                         {"help", no_argument, 0, 'h'},
                                         {"version", no_argument, 0, 'V'},
                                         {0, 0, 0, 0}};
    backend_kind want = BACKEND_AUTO;
    cli_format format = CLI_FORMAT_TEXT;
    chef_error err = {0};
    int c;
    optind = 1;
    opterr = 0;
    uint64_t seen = 0;
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        if (cli_once("info", opts, c, &seen) != 0) /* options are given once */
            return CHEF_EXIT_USAGE;
        switch (c) {
        case 'b':
            if (backend_kind_parse(optarg, &want) != 0)
                return cli_usage_error("info", "unknown backend '%s' (use auto, gpu or emu)", optarg);
            break;
        case 'f':
            if (cli_parse_format(optarg, &format, &err) != 0)
                return cli_usage_error("info", "%s", err.message);
            break;
        default:
            return cli_common_option(c, "info", info_usage, argv);
        }
    }
    if (optind < argc)
        return cli_usage_error("info", "unexpected argument '%s'", argv[optind]);
    backend *b = backend_open(want, &err);
    if (!b) {
        chef_error_print(&err);
        return err.exit_code;
    }
    int rc = 0;
    if (format == CLI_FORMAT_JSON) {
        json_t *j = report_info_json(&b->info);
        rc = report_json_write(stdout, j);
        json_decref(j);
    } else {
        report_info_text(stdout, &b->info);
    }
    backend_close(b);
    return rc == 0 ? 0 : CHEF_EXIT_ENVIRONMENT;
}
