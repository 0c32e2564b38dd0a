#!/bin/sh
# tensor-gpu-check.sh - lesson 21's measurements on a GPU: our WMMA kernels (FP16, BF16, TF32),
# lesson 12's mma.sync rung and rung 9 on the CUDA cores, each against cuBLAS's cublasGemmEx in the
# same precision, timed side by side in one program (bench/bench_tensor_gpu.cu); then, when the
# prebuilt program is here and a GPU works, lesson 21's own demos on the GPU.
#
# Usage: scripts/tensor-gpu-check.sh [SIZES [ROUNDS]]   (default 1024,2048,4096,8192 and 10)
# Environment: NVCC (default nvcc), CUDA_ARCH (default: the first GPU's, from nvidia-smi; else 90),
# BUILD (default build: where the bench program goes, and where cudachef is looked for).
# Builds with nvcc alone (no cudachef code): the same command a reader can type,
#   nvcc -O3 -std=c++17 -gencode arch=compute_90,code=sm_90 -Isrc/kit -Ikernels \
#        bench/bench_tensor_gpu.cu -lcublas -o build/bench/bench_tensor_gpu
# Exit: 0 every result right, 1 a wrong result or a failed demo, 2 the build failed, 5 no GPU.
set -u
cd "$(dirname "$0")/.." || exit 2
build=${BUILD:-build}
nvcc=${NVCC:-nvcc}
sizes=${1:-1024,2048,4096,8192}
rounds=${2:-10}
arch=${CUDA_ARCH:-}
if [ -z "$arch" ] && command -v nvidia-smi >/dev/null 2>&1; then
    arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n 1 | tr -d ' .')
fi
arch=${arch:-90}
mkdir -p "$build/bench" || exit 2
echo "== building bench_tensor_gpu for sm_$arch"
if ! "$nvcc" -O3 -std=c++17 -gencode "arch=compute_$arch,code=sm_$arch" -Isrc/kit -Ikernels \
        bench/bench_tensor_gpu.cu -lcublas -o "$build/bench/bench_tensor_gpu"; then
    echo "tensor-gpu-check: nvcc could not build bench/bench_tensor_gpu.cu" >&2
    exit 2
fi
echo "== WMMA, mma.sync and rung 9 against cublasGemmEx, each in its own precision"
"$build/bench/bench_tensor_gpu" "$sizes" "$rounds"
status=$?
[ "$status" -eq 5 ] && exit 5
if [ -x "$build/cudachef" ] && "$build/cudachef" info --format json 2>/dev/null | grep -q '"backend": *"gpu"'; then
    for demo in precisions wmma-mma; do
        echo
        echo "== cudachef run 21 --demo $demo --backend gpu"
        "$build/cudachef" run 21 --demo "$demo" --backend gpu || status=1
    done
else
    echo
    echo "(no prebuilt $build/cudachef with a working GPU: lesson 21's demos skipped; build with make here and carry $build/)"
fi
exit "$status"
