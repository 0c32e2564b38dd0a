#!/bin/sh
# kernel-resources.sh - the registers each kernel's cook uses on each GPU architecture, as ptxas
# reported them while nvcc built the GPU kernels (nvcc --resource-usage), written as a C table
# for the model's occupancy (src/engine/resources.h). Without a log (a build without CUDA) the
# table is empty and the model says the registers are not known.
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
        # "Compiling entry function '_ZN10chef_plain12matmul_tiledEPKfS1_Pfi' for 'sm_90'" then "Used 32
        # registers"; the traced copies (namespace chef_traced) are left out: the model is of the plain one
        awk -v q="'" '
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
                next
            }
            /Used [0-9]+ registers/ && name != "" {
                regs = $0; sub(/.*Used /, "", regs); sub(/ registers.*/, "", regs)
                printf "    {\"%s\", %d, %d},\n", name, arch, regs
                name = ""
            }' "$log" | sort -u
    fi
    echo "    {0, 0, 0}};"
} > "$tmp"
mv "$tmp" "$out"
