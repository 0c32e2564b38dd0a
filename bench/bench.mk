# bench.mk - benchmarks (included by the Makefile); docs/BENCHMARKS.md says what they measure.
#
#   make bench       the emulator against plain C on this CPU (bench/bench_emu.c), then bench-tui
#                    and bench-grade
#   make bench-programs  whole programs against recipes on the emulator: the same kernel source's
#                    time both ways, and a one-file program's build, cold and warm
#                    (scripts/bench-programs.sh)
#   make bench-grade grading every exercise of a workspace on the emulator: cold build, then cached
#   make bench-grade-class  a class of 60 graded with grade --class, cold and cached
#   make bench-tui   the full-screen interface in a pseudo-terminal: first frame (also with a slow
#                    CUDA start), keypress answer, idle CPU, resident memory, and the kitchen
#                    replay's frame rate and CPU against issue 4's goals (bench/bench_tui.c, ~25 s)
#   make bench-gpu   on a machine with an NVIDIA GPU: vector add against a device-to-device copy,
#                    the matmul ladder against cuBLAS, `cudachef bench` (the size sweep and the
#                    transfers), and cudachef's kernel time against a bare CUDA program's
#                    (scripts/bench-gpu.sh; docs/PERFORMANCE.md holds the H200's figures);
#                    prints one SKIP line and exits 0 where there is no usable GPU.
#   make bench-peers the emulator against two peers running the same kernels on this CPU, side by
#                    side in one run: Numba's CUDA simulator (bench/peer_cudasim.py) and POCL,
#                    OpenCL on the CPU (bench/peer_pocl.c); scripts/bench-peers.py drives them
#                    (about 3 to 4 minutes). Installs DEPS_PEERS first (as root; else prints the
#                    apt-get command and stops). BENCH_PEERS_ARGS="--quick" runs one size of each.
# Benchmarks report figures; a missed goal is printed, not failed (exit 0).

BENCH_BIN := $(BUILD)/bench

# The peers of `make bench-peers`, from Debian. Numba and NumPy are Debian's, so the driver runs
# under Debian's python (PEERS_PYTHON), not whichever python3 comes first on PATH.
DEPS_PEERS   = python3-numba python3-numpy pocl-opencl-icd ocl-icd-opencl-dev opencl-c-headers
PEERS_PYTHON ?= /usr/bin/python3

$(BENCH_BIN)/bench_emu: bench/bench_emu.c bench/bench_stats.h $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -Isrc $< $(LIB) -o $@ $(LDLIBS) $(GPU_LDLIBS)

# Drives build/cudachef from outside (forkpty): no cudachef code is linked in.
$(BENCH_BIN)/bench_tui: bench/bench_tui.c bench/bench_stats.h | $(BUILD)/.mode
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $< -o $@ -lutil

# What starting CUDA adds to a process's memory (the same probe as the TUI's), for bench_tui.
$(BENCH_BIN)/cuda_probe_rss: bench/cuda_probe_rss.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -Isrc $< $(LIB) -o $@ $(LDLIBS) $(GPU_LDLIBS)

# The GPU programs are built with nvcc alone: the GPU machine has no cmocka or jansson headers,
# and they include the kernels' source directly (no cudachef code).
$(BENCH_BIN)/bench_gpu: bench/bench_gpu.cu kernels/vector_add.cu kernels/vector_add_grid_stride.cu src/kit/kernel.h | $(BUILD)/.mode
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCCFLAGS) $(KIT_FLAGS) -o $@ $<

# The matmul ladder against cuBLAS (links cuBLAS, which the CUDA toolkit ships).
$(BENCH_BIN)/bench_matmul_gpu: bench/bench_matmul_gpu.cu bench/bench_gpu_common.h $(wildcard kernels/matmul*.cu kernels/matmul*.h) src/kit/kernel.h | $(BUILD)/.mode
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCCFLAGS) $(KIT_FLAGS) -o $@ $< -lcublas

# Lesson 21's tensor-core kernels against cublasGemmEx in each precision (scripts/tensor-gpu-check.sh).
$(BENCH_BIN)/bench_tensor_gpu: bench/bench_tensor_gpu.cu bench/bench_gpu_common.h $(wildcard kernels/matmul*.cu kernels/m*.h) src/kit/kernel.h | $(BUILD)/.mode
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCCFLAGS) $(KIT_FLAGS) -o $@ $< -lcublas

$(BENCH_BIN)/bare_vector_add: bench/bare_vector_add.cu kernels/vector_add.cu src/kit/kernel.h | $(BUILD)/.mode
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCCFLAGS) $(KIT_FLAGS) -o $@ $<

# POCL's side of bench-peers: the kernels as OpenCL C, no cudachef code.
$(BENCH_BIN)/peer_pocl: bench/peer_pocl.c bench/bench_stats.h | $(BUILD)/.mode
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $< -o $@ -lOpenCL -lm

bench: deps
	@$(MAKE) --no-print-directory $(BENCH_BIN)/bench_emu
	@$(BENCH_BIN)/bench_emu
	@echo
	@$(MAKE) --no-print-directory bench-tui
	@echo
	@$(MAKE) --no-print-directory bench-programs
	@echo
	@$(MAKE) --no-print-directory bench-grade

bench-tui: deps
	@$(MAKE) --no-print-directory $(BIN) $(BENCH_BIN)/bench_tui $(BENCH_BIN)/cuda_probe_rss
	@$(BENCH_BIN)/bench_tui $(BIN) $(BENCH_BIN)/cuda_probe_rss

# Builds cudachef where this machine can compile, or runs a current build carried here
# (scripts/gpu-ready.sh); SKIP without a GPU. The script builds its nvcc-only programs itself (nvcc
# and the kernels, nothing of cudachef's C), once it knows there is a GPU.
bench-gpu:
	@$(GPU_READY) bench-gpu; st=$$?; [ $$st -eq 3 ] && exit 0; [ $$st -eq 0 ] || exit $$st; \
	  MAKE="$(MAKE)" scripts/bench-gpu.sh $(BUILD)

# Grading every exercise of one workspace on the emulator, cold and with nothing changed.
bench-grade: all
	@scripts/bench-grade.sh $(BIN)

# A class of 60 workspaces graded with grade --class on the emulator, cold and with nothing changed
# (BENCH_CLASS_STUDENTS to change the size; about 3 minutes on 2 cores).
BENCH_CLASS_STUDENTS ?= 60
bench-grade-class: all
	@scripts/bench-grade-class.sh $(BIN) $(BENCH_CLASS_STUDENTS)

# The emulator against Numba's CUDA simulator and POCL (docs/BENCHMARKS.md, "Peers").
bench-peers: deps
	@scripts/deps.sh $(DEPS_PEERS) || { echo "bench-peers: stopped: the peers' Debian packages are not installed (the command above installs them)" >&2; exit 2; }
	@$(MAKE) --no-print-directory $(BIN) $(BENCH_BIN)/peer_pocl
	@$(PEERS_PYTHON) scripts/bench-peers.py --build $(BUILD) $(BENCH_PEERS_ARGS)

.PHONY: bench-tui bench-grade bench-grade-class bench-peers

bench-programs: all
	@scripts/bench-programs.sh $(BUILD)
.PHONY: bench-programs
