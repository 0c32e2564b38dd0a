# cudachef - GNU Make build.
#
#   make run        build and start cudachef
#   make test       build and run the tests (CPU emulator; no GPU needed)
#   make test-gpu   the same cases on the GPU (skips with a message when there is none)
#   make bench      benchmarks on the emulator; make bench-gpu on a GPU
#   make sanitize-gpu  every kernel under compute-sanitizer (on a GPU)
#   make ncu-check   the emulator's counters beside Nsight Compute's; make model-check the model beside the GPU
#   make screenshots  the pictures of docs/screenshots/, made again from the running program
#   make install    PREFIX=/usr/local DESTDIR=...; make uninstall removes exactly those files
#   make CUDA=0     build without CUDA (emulator only); CUDA=1 forces it
#
# Each target first makes sure the Debian packages it needs are installed (scripts/deps.sh).

CC       ?= gcc
NVCC     ?= $(shell command -v nvcc 2>/dev/null || ls /usr/local/cuda/bin/nvcc 2>/dev/null)
CUDA_HOME ?= $(patsubst %/bin/nvcc,%,$(NVCC))
ifeq ($(origin CUDA),undefined)
CUDA     := $(if $(NVCC),1,0)
endif
BUILD    ?= build
WERROR   ?= 0
OPT      ?= -O2

CPPFLAGS += -D_GNU_SOURCE
CFLAGS   += -std=c11 $(OPT) -g -ffile-prefix-map=$(CURDIR)=. -Wall -Wextra -Wshadow -Wstrict-prototypes -pthread
ifeq ($(WERROR),1)
CFLAGS   += -Werror
endif
LDLIBS   += -linih -lmd4c -ljansson -lncursesw -lcrypto -lseccomp -lm -ldl -pthread
# The GPU code is built for the GPUs this machine has (nvidia-smi's compute capability) and for
# Hopper, sm_90, always: the model of an H200 reads its kernels' registers from ptxas's report, and
# a build carried to the GPU machine runs there. Without a GPU that is one architecture, not four,
# and the first screen comes sooner (nvcc takes most of a build). GPU_ARCH=all builds machine code
# for Turing (sm_75), Ampere and Ada (sm_80, which sm_86 and sm_89 run) and Hopper (sm_90) plus
# compute_75 PTX that newer drivers compile (make carry), GPU_ARCH="80 90" those named; the models
# of the GPUs left out say their registers are not known. nvcc builds the architectures side by
# side (--threads 0).
GPU_ARCH ?= auto
ifeq ($(GPU_ARCH),auto)
# asked of nvidia-smi once: the make run, make test and GPU targets start sub-makes, which inherit it
GPU_ARCH_AUTO ?= $(sort 90 $(shell nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | tr -d '. ' | grep -E '^[0-9]+$$'))
export GPU_ARCH_AUTO := $(GPU_ARCH_AUTO)
GPU_ARCH_LIST := $(GPU_ARCH_AUTO)
GPU_PTX :=
else ifeq ($(GPU_ARCH),all)
GPU_ARCH_LIST := 75 80 90
GPU_PTX := -gencode arch=compute_75,code=compute_75
else
GPU_ARCH_LIST := $(GPU_ARCH)
GPU_PTX :=
endif
NVCCFLAGS ?= -O3 -std=c++17 --threads 0 $(foreach a,$(GPU_ARCH_LIST),-gencode arch=compute_$a,code=sm_$a) $(GPU_PTX)

# Kernels compiled as C: their `#pragma unroll` is for nvcc. (They read float arrays through float4
# pointers, as CUDA code does: float4 is declared may_alias in src/kit/emu_kernel.h, so C's aliasing
# rules stay on for the rest, and the cook loop keeps blockIdx and blockDim in registers.)
EMU_KERNEL_FLAGS := -Wno-unknown-pragmas
# The checked build of emulator kernels: every load and store calls back into emu_check.c
# (ThreadSanitizer's instrumentation, which keeps every access; EMU_CHECKED renames the calls to
# the emulator's own functions, see src/kit/emu_table.c).
# Its locals start as a pattern (-ftrivial-auto-var-init=pattern), so a local read before it is
# written shows; and the compiler may not merge several cooks' accesses into one vector access,
# so the counters see one access per source load or store per cook (nor split a float4 copy
# into four: -fno-tree-sra). Every basic block calls the emulator too (-fsanitize-coverage=trace-pc),
# which counts the block's floating-point arithmetic, read from its machine code with Capstone.
EMU_CHECK_FLAGS := -fsanitize=thread -DEMU_CHECKED \
                   -ftrivial-auto-var-init=pattern -fno-tree-vectorize -fno-tree-slp-vectorize -fno-tree-sra \
                   -fsanitize-coverage=trace-pc

DEPS_BUILD = gcc g++ make libjansson-dev libinih-dev libmd4c-dev libopenblas-dev libncurses-dev libssl-dev libseccomp-dev bubblewrap $(DEPS_ARCH)
DEPS_TEST  = $(DEPS_BUILD) libcmocka-dev python3-jsonschema libvterm-dev man-db

ARCH := $(shell uname -m)
ifeq ($(ARCH),x86_64)
FIBER_OBJ := $(BUILD)/src/emu/fiber_x86_64.o
# the counters' arithmetic reads x86-64 machine code (src/emu/emu_check.c)
CPPFLAGS  += -DEMU_WITH_CAPSTONE
LDLIBS    += -lcapstone
DEPS_ARCH := libcapstone-dev
endif

# src/ is one folder per layer (docs/HACKING.md draws them): base, emu, engine, demos, lessons,
# grading and cli make the library the tests link; ui is the full-screen interface, the only code
# that includes curses, linked into the program alone; kit is what every kernel is compiled with.
# Files are found by folder, and each includes the others as "folder/file.h" from -Isrc.
LAYERS   := base emu engine demos lessons grading cli
# A module's GPU half is NAME_gpu.c beside it: it talks to the CUDA runtime and is built only with
# CUDA; NAME_gpu_none.c stands in for it without CUDA.
GPU_SRC  := $(filter-out %_none.c,$(wildcard src/*/*_gpu.c))
NONE_SRC := $(wildcard src/*/*_gpu_none.c)
CORE_SRC := $(filter-out $(GPU_SRC) $(NONE_SRC),$(foreach l,$(LAYERS),$(wildcard src/$l/*.c)))
UI_SRC   := $(wildcard src/ui/*.c)
UI_OBJ   := $(UI_SRC:%.c=$(BUILD)/%.o)
CPPFLAGS += -Isrc
$(UI_OBJ): CPPFLAGS += -DNCURSES_WIDECHAR=1

# The kernel kit (src/kit/): the headers a kernel is compiled with, for nvcc and for the C
# compiler, and the two files that turn a .def list of kernels into a table the program launches
# (emu_table.c for the emulator, gpu_table.cu for the GPU). The program's kernels (kernels/),
# the tests' and every learner's exercise are built from it; it is installed as one folder and
# src/grading/exercise_build.c finds it through CHEF_KIT_DIR, set here.
KIT       := src/kit
KIT_FILES := $(sort $(shell find $(KIT) -type f))
KIT_FLAGS := -I$(KIT) -Ikernels
# Before the C compiler sees a kernel file, the source pass of src/kit/emu_prep.c (the build's
# tool BUILD/emu-prep, from tools/emu-prep.c) registers and poisons its __shared__ arrays: kernels/ as the emulator
# compiles it is BUILD/kernels/emu/ (docs/EMULATOR.md).
PREP := $(BUILD)/emu-prep
EMU_KERNEL_FILES := $(wildcard kernels/*.cu kernels/*.h) kernels/kernels.def
EMU_KERNELS := $(EMU_KERNEL_FILES:kernels/%=$(BUILD)/kernels/emu/%)
EMU_KIT_FLAGS := -I$(KIT) -I$(BUILD)/kernels/emu
CORE_OBJ := $(CORE_SRC:%.c=$(BUILD)/%.o) $(FIBER_OBJ) $(BUILD)/src/kit/emu_prep.o $(BUILD)/src/kit/prog_prep.o \
            $(BUILD)/kernels/emu_fast.o $(BUILD)/kernels/emu_checked.o $(BUILD)/kernels/resources.o

ifeq ($(CUDA),1)
CPPFLAGS += -DCHEF_WITH_CUDA
CORE_OBJ += $(GPU_SRC:%.c=$(BUILD)/%.o) $(BUILD)/kernels/gpu_kernels.o
GPU_LDLIBS := -L$(CUDA_HOME)/lib64 -L$(CUDA_HOME)/targets/x86_64-linux/lib -lcudart_static -ldl -lrt -lstdc++
$(GPU_SRC:%.c=$(BUILD)/%.o): CPPFLAGS += -I$(CUDA_HOME)/include -DCHEF_CUDA_LIB_DIR='"$(CUDA_HOME)/lib64"'
else
CORE_OBJ += $(NONE_SRC:%.c=$(BUILD)/%.o)
GPU_LDLIBS :=
endif

LIB := $(BUILD)/libcudachef.a
BIN := $(BUILD)/cudachef
CHECK_BIN := $(BUILD)/cudachef-check

.PHONY: all run test test-gpu bench bench-gpu deps deps-test clean check-build-mode FORCE
all: $(BIN)

deps:
	@scripts/deps.sh $(DEPS_BUILD)
# The packages, checked once per build folder before its first compiler starts (with -j the
# compilers must not run before the headers are there): every object waits for this stamp.
$(BUILD)/.deps: | $(BUILD)/.mode
	@scripts/deps.sh $(DEPS_BUILD) && touch $@
deps-test:
	@scripts/deps.sh $(DEPS_TEST)

# Every object depends on the flags it is built with (BUILD/.flags, rewritten only when they change),
# so a new -D or OPT=-O0 rebuilds what it touches instead of linking stale objects (-Werror changes
# no object: WERROR=1 does not rebuild).
# (BUILD_FLAGS is set once, at the end of this file, from the flags as every part left them: the
# flags one target adds for itself, -DNCURSES_WIDECHAR for the interface, must not enter it.)
$(BUILD)/.flags: FORCE | $(BUILD)/.mode
	@printf '%s\n' '$(subst ','\'',$(BUILD_FLAGS))' | cmp -s - $@ || \
	  printf '%s\n' '$(subst ','\'',$(BUILD_FLAGS))' > $@
FORCE:

# Every function of src/ that other files call is declared in a header first (one header per
# module): -Wmissing-prototypes, an error under WERROR=1 as every warning is.
$(BUILD)/src/%.o: CFLAGS += -Wmissing-prototypes

# Each object is built with -MMD -MP: the compiler writes the headers it read into NAME.d, which
# make reads back below, so touching a header rebuilds only the files that include it.
DEPFLAGS = -MMD -MP
$(BUILD)/%.o: %.c $(BUILD)/.flags | $(BUILD)/.mode $(BUILD)/.deps
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(DEPFLAGS) -c $< -o $@

$(BUILD)/src/emu/fiber_x86_64.o: src/emu/fiber_x86_64.S $(BUILD)/.flags | $(BUILD)/.mode
	@mkdir -p $(dir $@)
	$(CC) -c $< -o $@

# Kernels as C for the emulator: through the source pass, then once plain, once checked.
$(PREP): tools/emu-prep.c $(KIT)/emu_prep.c $(KIT)/emu_prep.h $(KIT)/text_out.h $(BUILD)/.flags | $(BUILD)/.mode $(BUILD)/.deps
	$(CC) $(CFLAGS) -I$(KIT) tools/emu-prep.c $(KIT)/emu_prep.c -o $@
$(BUILD)/kernels/emu/%: kernels/% $(PREP)
	@mkdir -p $(dir $@)
	$(PREP) $< $@ kernels/$*
$(BUILD)/kernels/emu_fast.o: $(KIT)/emu_table.c $(EMU_KERNELS) $(BUILD)/.flags | $(BUILD)/.mode $(BUILD)/.deps
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(EMU_KIT_FLAGS) $(CFLAGS) $(DEPFLAGS) $(EMU_KERNEL_FLAGS) -DEMU_TABLE=emu_kernels_fast -c $< -o $@
$(BUILD)/kernels/emu_checked.o: $(KIT)/emu_table.c $(EMU_KERNELS) $(BUILD)/.flags | $(BUILD)/.mode $(BUILD)/.deps
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(EMU_KIT_FLAGS) $(CFLAGS) $(DEPFLAGS) $(EMU_KERNEL_FLAGS) $(EMU_CHECK_FLAGS) -DEMU_TABLE=emu_kernels_checked -c $< -o $@
$(BUILD)/src/emu/emu_registry.o: CPPFLAGS += -DEMU_HAVE_CHECKED
# test_kitchen checks the registers' table against the architectures built.
$(BUILD)/tests/test_kitchen: CPPFLAGS += -DCHEF_GPU_SMS='"$(GPU_ARCH_LIST)"'
$(BUILD)/src/grading/exercise_build.o: CPPFLAGS += -DCHEF_KIT_DIR='"$(KIT)"'

# Kernels for the GPU: machine code for GPU_ARCH_LIST (above).
# ptxas's report of each kernel's registers (--resource-usage) goes to BUILD/kernels/ptxas.log, and
# becomes the table the model's occupancy reads (scripts/kernel-resources.sh, src/engine/resources.h);
# nvcc's other words still reach the terminal. Without CUDA the table is empty.
$(BUILD)/kernels/gpu_kernels.o: $(KIT)/gpu_table.cu $(BUILD)/.flags | $(BUILD)/.mode
	@mkdir -p $(dir $@)
	@echo '$(NVCC) $(NVCCFLAGS) $(KIT_FLAGS) -MMD -MP $(NVCC_REPORT) -c $< -o $@'
	@$(NVCC) $(NVCCFLAGS) $(KIT_FLAGS) -MMD -MP $(NVCC_REPORT) -c $< -o $@ 2> $(BUILD)/kernels/ptxas.log; st=$$?; \
	  grep -v -e '^ptxas info' -e '^    [0-9]* bytes stack frame' $(BUILD)/kernels/ptxas.log >&2; exit $$st
NVCC_REPORT := --resource-usage
ifeq ($(CUDA),1)
$(BUILD)/kernels/resources.c: $(BUILD)/kernels/gpu_kernels.o scripts/kernel-resources.sh
	scripts/kernel-resources.sh $(BUILD)/kernels/ptxas.log $@
else
$(BUILD)/kernels/resources.c: scripts/kernel-resources.sh | $(BUILD)/.mode
	@mkdir -p $(dir $@)
	scripts/kernel-resources.sh - $@
endif
$(BUILD)/kernels/resources.o: $(BUILD)/kernels/resources.c $(BUILD)/.flags | $(BUILD)/.mode $(BUILD)/.deps
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

# What the compiler found each object to include (see DEPFLAGS).
-include $(wildcard $(BUILD)/src/*/*.d $(BUILD)/src/*.d $(BUILD)/kernels/*.d $(BUILD)/tests/*.d $(BUILD)/bench/*.d)

# A build made with CUDA=0 must not be mixed with one made with CUDA=1. A folder that holds files
# but no .mode is not a build folder (BUILD=tests, say): it is never wiped.
$(BUILD)/.mode: check-build-mode
check-build-mode:
	@if [ -d $(BUILD) ] && [ ! -f $(BUILD)/.mode ] && [ -n "$$(ls -A $(BUILD))" ]; then \
	  echo "error: BUILD=$(BUILD) holds files but is not a cudachef build folder (no .mode): name a new or empty folder" >&2; exit 2; fi
	@mkdir -p $(BUILD); if [ "$$(cat $(BUILD)/.mode 2>/dev/null)" != "CUDA=$(CUDA)" ]; then \
	  rm -rf $(BUILD)/src $(BUILD)/kernels $(BUILD)/tests $(LIB) $(BIN) $(CHECK_BIN); echo "CUDA=$(CUDA)" > $(BUILD)/.mode; fi

$(LIB): $(filter-out $(BUILD)/src/main.o,$(CORE_OBJ))
	@rm -f $@
	ar rcs $@ $^

# The emulator's entry points are exported, so that a learner's kernel built into a module of its
# own (src/grading/exercise_build.c) finds them when the child cudachef loads it.
$(BIN): $(BUILD)/src/main.o $(UI_OBJ) $(LIB) src/emu/exports.list | $(CHECK_BIN)
	$(CC) $(CFLAGS) $(filter-out src/emu/exports.list,$^) -o $@ -Wl,--dynamic-list=src/emu/exports.list $(LDLIBS) $(GPU_LDLIBS)

# cudachef-check runs a learner's kernel (in the sandbox): the same library without the program's
# own kernels (src/check_main.c's tables are empty) and with recipes that hold no CPU reference, so
# the learner's code finds no right answer to borrow in its process. cudachef finds it beside itself.
$(BUILD)/src/engine/recipes_noref.o: src/engine/recipes.c $(BUILD)/.flags | $(BUILD)/.mode $(BUILD)/.deps
	$(CC) $(CPPFLAGS) $(CFLAGS) $(DEPFLAGS) -DCHEF_RECIPES_NO_REFERENCE -c $< -o $@
$(BUILD)/src/check_main.o: CPPFLAGS += -Ikernels
$(CHECK_BIN): $(BUILD)/src/check_main.o $(BUILD)/src/engine/recipes_noref.o $(LIB) src/emu/exports.list
	$(CC) $(CFLAGS) $(filter-out src/emu/exports.list,$^) -o $@ -Wl,--dynamic-list=src/emu/exports.list $(LDLIBS) $(GPU_LDLIBS)
ifeq ($(CUDA),0)
	@echo "note: built without CUDA: the CPU emulator cooks every kernel (install nvcc for GPU support)"
endif

# make run builds with every core unless told how many (-j): a learner types `make run` alone.
MAKE_JOBS = $(if $(filter j%,$(firstword $(MAKEFLAGS)))$(filter -j%,$(MAKEFLAGS)),,-j$(shell nproc 2>/dev/null || echo 2))
run:
	@$(MAKE) --no-print-directory $(MAKE_JOBS) all
	@scripts/run.sh $(BIN)

# The GPU targets build what they need where this machine can compile, then skip without a GPU
# (scripts/gpu-ready.sh); where it cannot, they run a build carried here whose stamp is current.
GPU_READY_PKGS = $(DEPS_BUILD)
GPU_READY = GPU_READY_DEPS="$(GPU_READY_PKGS)" MAKE="$(MAKE)" CC="$(CC)" scripts/gpu-ready.sh $(BUILD)

# make carry: the build to carry to a GPU machine that cannot compile (docs/HACKING.md): every
# GPU architecture (GPU_ARCH=all) and every test program, stamped.
carry:
	@$(MAKE) --no-print-directory $(MAKE_JOBS) GPU_ARCH=all tests
.PHONY: carry

# Every kernel under compute-sanitizer's memcheck, racecheck and synccheck (a GPU machine with the
# CUDA toolkit; prints SKIP elsewhere). Uses the prebuilt $(BIN) and never compiles, as bench-gpu.
sanitize-gpu:
	@$(GPU_READY) sanitize-gpu; st=$$?; [ $$st -eq 3 ] && exit 0; [ $$st -eq 0 ] || exit $$st; \
	  scripts/sanitize-gpu.sh $(BUILD)
.PHONY: sanitize-gpu

# The emulator's counters beside Nsight Compute's for every recipe, with each kernel's load and
# store widths from cuobjdump (scripts/ncu-check.py); and the model's times beside the GPU's
# (scripts/model-calibrate.py). A GPU machine with the CUDA toolkit; SKIP elsewhere; never compile.
ncu-check:
	@$(GPU_READY) ncu-check; st=$$?; [ $$st -eq 3 ] && exit 0; [ $$st -eq 0 ] || exit $$st; \
	  python3 scripts/ncu-check.py $(BUILD)
model-check:
	@$(GPU_READY) model-check; st=$$?; [ $$st -eq 3 ] && exit 0; [ $$st -eq 0 ] || exit $$st; \
	  python3 scripts/model-calibrate.py $(BUILD)
.PHONY: ncu-check model-check

include tests/tests.mk
include bench/bench.mk
include tests/sanitize.mk

# The pictures of docs/screenshots/ made again from the running program (scripts/screenshots.sh,
# with the capture tool tools/screenshot.c on libvterm).
$(BUILD)/screenshot: tools/screenshot.c | $(BUILD)/.mode
	$(CC) $(CFLAGS) tools/screenshot.c -o $@ -lvterm -lutil
screenshots: $(BIN)
	@scripts/deps.sh $(DEPS_TEST)
	@$(MAKE) --no-print-directory $(BUILD)/screenshot
	@scripts/screenshots.sh $(BUILD)
.PHONY: screenshots

clean:
	rm -rf $(BUILD)

# ---- make install, make uninstall ---------------------------------------------------------------
#
#   make install   [PREFIX=/usr/local] [DESTDIR=/staging]   the program, its data and cudachef(1)
#   make uninstall (the same variables)                    removes exactly the files install puts
#
# GNU's variables work too (prefix, bindir, datadir, mandir). The data goes to DATADIR/cudachef:
# lessons/, exercises/, assets/, kernels/ and the sources a learner's kernel is compiled with
# (src/grading/exercise_build.c). The program looks for it beside itself first (BINDIR/../share/cudachef,
# src/base/chef.c), so a DESTDIR-staged or moved install works; DATADIR/cudachef is compiled into
# src/chef.o as the last resort. Install needs the built program and nothing else: it never runs
# deps.sh (no apt-get as root), and PREFIX or DESTDIR never make anything rebuild. Uninstall takes
# out the files one by one and only the folders of DATADIR/cudachef that are left empty.
PREFIX      ?= /usr/local
prefix      ?= $(PREFIX)
exec_prefix ?= $(prefix)
bindir      ?= $(exec_prefix)/bin
datarootdir ?= $(prefix)/share
datadir     ?= $(datarootdir)
mandir      ?= $(datarootdir)/man
man1dir     ?= $(mandir)/man1
pkgdatadir   = $(datadir)/cudachef
INSTALL         ?= install
INSTALL_PROGRAM ?= $(INSTALL) -m 755
INSTALL_DATA    ?= $(INSTALL) -m 644

$(BUILD)/src/base/chef.o: CPPFLAGS += -DCHEF_DATA_DIR='"$(pkgdatadir)"'

# Everything the program reads at run time, as paths relative to the data folder.
INSTALL_FILES := $(wildcard lessons/*/lesson.ini lessons/*/*.md lessons/glossary.*.md) \
                 $(wildcard exercises/*/*/exercise.ini exercises/*/*/*.cu exercises/*/*/wrong/*.cu exercises/*/*/*.md) \
                 $(wildcard assets/art/*.txt assets/themes/*.ini assets/i18n/*/*.json assets/devices/*.ini assets/devices/*.tsv) \
                 $(wildcard kernels/*.cu kernels/*.h) kernels/kernels.def $(KIT_FILES)
INSTALL_DIRS := $(sort $(dir $(INSTALL_FILES)))
# The files of INSTALL_FILES that are directly in folder $1.
install_files_in = $(foreach f,$(INSTALL_FILES),$(if $(filter $1,$(dir $f)),$f))
# One folder's install, as a command line of its own (all of them in one would pass the shell's
# limit on one argument).
define install_dir
$(INSTALL) -d "$(DESTDIR)$(pkgdatadir)/$1" && $(INSTALL_DATA) $(call install_files_in,$1) "$(DESTDIR)$(pkgdatadir)/$1"

endef

# A build whose CUDA mode was found again differently (nvcc not on root's PATH under sudo) would be
# wiped and rebuilt by check-build-mode: stop before that.
ifneq ($(filter install,$(MAKECMDGOALS)),)
ifeq ($(origin CUDA),file)
INSTALL_BUILT_MODE := $(shell cat $(BUILD)/.mode 2>/dev/null)
ifneq ($(INSTALL_BUILT_MODE),)
ifneq ($(INSTALL_BUILT_MODE),CUDA=$(CUDA))
$(error $(BUILD) was built with $(INSTALL_BUILT_MODE), but this make found CUDA=$(CUDA) (is nvcc on this user's PATH?): run make install $(INSTALL_BUILT_MODE), so that nothing is rebuilt)
endif
endif
endif
endif

# A build whose stamp says it is current (scripts/build-stamp.sh) is installed as it is: on a machine
# that cannot compile (another CC, no headers) install must not start a rebuild its flags ask for.
ifneq ($(filter install,$(MAKECMDGOALS)),)
INSTALL_BUILD := $(if $(wildcard $(BIN)),$(shell scripts/build-stamp.sh check $(BUILD) 2>/dev/null || echo $(BIN)),$(BIN))
endif

.PHONY: install uninstall
install: $(INSTALL_BUILD) docs/cudachef.1
	$(INSTALL) -d "$(DESTDIR)$(bindir)" "$(DESTDIR)$(man1dir)"
	$(INSTALL_PROGRAM) $(BIN) "$(DESTDIR)$(bindir)/cudachef"
	$(INSTALL_PROGRAM) $(CHECK_BIN) "$(DESTDIR)$(bindir)/cudachef-check"
	$(INSTALL_DATA) docs/cudachef.1 "$(DESTDIR)$(man1dir)/cudachef.1"
	@echo "$(INSTALL_DATA) ... $(words $(INSTALL_FILES)) files into $(DESTDIR)$(pkgdatadir)"
	@$(foreach d,$(INSTALL_DIRS),$(call install_dir,$d))
	@if [ "$(abspath $(bindir)/../share)" != "$(abspath $(datadir))" ]; then \
	  echo "note: the data is not at BINDIR/../share/cudachef: cudachef finds it only if src/base/chef.c was"; \
	  echo "      built with this datadir (touch src/base/chef.c; make datadir=$(datadir)), or with"; \
	  echo "      CUDACHEF_DATA=$(pkgdatadir) set where it runs"; fi

uninstall:
	rm -f "$(DESTDIR)$(bindir)/cudachef" "$(DESTDIR)$(bindir)/cudachef-check" "$(DESTDIR)$(man1dir)/cudachef.1"
	@echo "rm -f ... $(words $(INSTALL_FILES)) files of $(DESTDIR)$(pkgdatadir)"
	@if cd "$(DESTDIR)$(pkgdatadir)" 2>/dev/null; then rm -f $(INSTALL_FILES) && \
	  for d in $(INSTALL_DIRS); do rmdir -p "$$d" 2>/dev/null || true; done; fi
	@rmdir "$(DESTDIR)$(pkgdatadir)" 2>/dev/null || true

# What every object is built with, for $(BUILD)/.flags: expanded here, once, after every part of the
# build has added its flags, so that no target's own flags enter it.
BUILD_FLAGS := $(CC) $(CPPFLAGS) $(filter-out -Werror,$(CFLAGS)) $(EMU_KERNEL_FLAGS) $(EMU_CHECK_FLAGS) $(NVCC) $(NVCCFLAGS) $(NVCC_REPORT)
