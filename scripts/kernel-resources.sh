#!/bin/sh
# kernel-resources.sh - each kernel's recipe card on each GPU architecture, as ptxas reported it
# while nvcc built the GPU kernels (nvcc --resource-usage): the registers of one cook, the static
# shared memory of one team, the stack frame (local memory) of one cook and the bytes ptxas had to
# spill there, and the barriers it uses. Written as a C table for the model's occupancy and the
# recipe card (src/engine/resources.h). Without a log (a build without CUDA) the table is empty
# and the model says the registers are not known.
#
# Usage: scripts/kernel-resources.sh PTXAS_LOG|- OUT.c
set -eu
log=$1
out=$2
tmp="$out.tmp"
if [ "$log" != "-" ] && [ ! -r "$log" ]; then
    echo "kernel-resources: $log is missing (nvcc writes it while it builds the GPU kernels)" >&2
    exit 1
fi
{
    echo "/* Made by scripts/kernel-resources.sh from nvcc --resource-usage: do not edit. */"
    echo "#include \"engine/resources.h\""
    echo ""
    echo "const kernel_resource kernel_resources[] = {"
    if [ "$log" != "-" ]; then
        # For each kernel ptxas writes, in this order:
        #   ptxas info : Compiling entry function '_ZN10chef_plain12matmul_tiledEPKfS1_Pfi' for 'sm_90'
        #   ptxas info : Function properties for _ZN10chef_plain12matmul_tiledEPKfS1_Pfi
        #       0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
        #   ptxas info : Used 32 registers, used 1 barriers, 2048 bytes smem, 380 bytes cmem[0]
        # (no "smem" when the kernel has no __shared__ array, no "barriers" before CUDA 12). The
        # traced copies (namespace chef_traced) are left out: the card is of the plain one.
        # Columns: name, sm, registers, shared bytes, stack bytes, spill stores, spill loads, barriers.
        awk -v q="'" '
            function number_before(text, word,    m) {
                if (match(text, "[0-9]+ " word)) {
                    m = substr(text, RSTART, RLENGTH); sub(/ .*/, "", m); return m + 0
                }
                return 0
            }
            /Compiling entry function/ {
                split($0, part, q) # part[2] the function, part[4] "sm_90"
                name = part[2]
                arch = part[4]; sub(/^sm_/, "", arch)
                if (name ~ /^_ZN10chef_plain[0-9]/) { # chef_plain::NAME(...): <length><NAME>
                    sub(/^_ZN10chef_plain/, "", name)
                    len = name; sub(/[^0-9].*/, "", len)
                    sub(/^[0-9]+/, "", name)
                    name = substr(name, 1, len + 0)
                } else if (name ~ /^_Z/) {
                    name = ""
                }
                stack = 0; stores = 0; loads = 0
                next
            }
            /bytes stack frame/ && name != "" {
                stack = number_before($0, "bytes stack frame")
                stores = number_before($0, "bytes spill stores")
                loads = number_before($0, "bytes spill loads")
            }
            /Used [0-9]+ registers/ && name != "" {
                regs = number_before($0, "registers")
                printf "    {\"%s\", %d, %d, %d, %d, %d, %d, %d},\n", name, arch, regs,
                       number_before($0, "bytes smem"), stack, stores, loads, number_before($0, "barriers")
                name = ""
            }' "$log" | sort -u
    fi
    echo "    {0, 0, 0, 0, 0, 0, 0, 0}};"
} > "$tmp"
mv "$tmp" "$out"
