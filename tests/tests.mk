# tests.mk - unit and command-line tests (included by the Makefile).
#
# tests/kernels/ holds kernels used only by tests (3D indexing, atomics, a divergent barrier, an
# out-of-bounds write); they are compiled for the emulator like kernels/ are, into their own tables.

TEST_BIN := $(BUILD)/tests
# Nothing of the tree's place is built into a test: each finds the tree at run time (tests/test_tree.h:
# CUDACHEF_TEST_SOURCE_DIR from scripts/run-tests.sh, else the folders above the program), so that a
# copy of a built tree tests the copy.
TEST_CFLAGS := $(CFLAGS) -Wno-shadow
TESTS := test_emu test_host test_jobs test_kitchen test_cli test_race test_lessons test_demos test_layout test_replay test_tui test_progress test_exercises test_watch test_bench test_badinput test_faults test_programs

TEST_KERNELS := $(patsubst tests/kernels/%,$(BUILD)/tests/kernels/emu/%,$(wildcard tests/kernels/*.cu tests/kernels/*.def))
$(BUILD)/tests/kernels/emu/%: tests/kernels/% $(PREP)
	@mkdir -p $(dir $@)
	$(PREP) $< $@ tests/kernels/$*
$(BUILD)/tests/test_kernels_fast.o: $(KIT)/emu_table.c $(TEST_KERNELS) $(BUILD)/.flags | $(BUILD)/.mode
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(EMU_KIT_FLAGS) -I$(BUILD)/tests/kernels/emu $(CFLAGS) $(DEPFLAGS) -DKERNEL_DEF='"test_kernels.def"' -DEMU_TABLE=test_kernels_fast -c $< -o $@
$(BUILD)/tests/test_kernels_checked.o: $(KIT)/emu_table.c $(TEST_KERNELS) $(BUILD)/.flags | $(BUILD)/.mode
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(EMU_KIT_FLAGS) -I$(BUILD)/tests/kernels/emu $(CFLAGS) $(DEPFLAGS) $(EMU_CHECK_FLAGS) -DKERNEL_DEF='"test_kernels.def"' -DEMU_TABLE=test_kernels_checked -c $< -o $@

$(TEST_BIN)/%: tests/%.c $(LIB) $(BUILD)/tests/test_kernels_fast.o $(BUILD)/tests/test_kernels_checked.o $(BUILD)/.flags
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(TEST_CFLAGS) $(DEPFLAGS) $< $(BUILD)/tests/test_kernels_fast.o $(BUILD)/tests/test_kernels_checked.o \
	  $(LIB) -o $@ -lcmocka $(LDLIBS) $(GPU_LDLIBS)

# test_tui drives the real program in a pseudo-terminal and reads the screen with libvterm.
$(TEST_BIN)/test_tui: LDLIBS += -lvterm -lutil
# test_bench reads the progress line from a pseudo-terminal (forkpty).
$(TEST_BIN)/test_bench: LDLIBS += -lutil
# test_badinput runs the full-screen interface in a pseudo-terminal (openpty).
$(TEST_BIN)/test_badinput: LDLIBS += -lutil

# Once everything is built, what it was built from is recorded (scripts/build-stamp.sh), for the
# targets that must run a build without compiling (test-gpu, bench-gpu, install on such a machine).
.PHONY: tests
tests: $(addprefix $(TEST_BIN)/,$(TESTS)) $(BIN)
	@scripts/build-stamp.sh write $(BUILD)

# CUDACHEF_TEST_BACKEND picks the backend the kitchen and CLI tests use (emu here, gpu for test-gpu).
test: deps-test
	@$(MAKE) --no-print-directory $(MAKE_JOBS) tests
	@CUDACHEF_TEST_BACKEND=emu CUDACHEF_TESTS_EXPECTED="$(TEST_PROGRAMS)" scripts/run-tests.sh $(BUILD)

# test-gpu builds the tests where this machine can compile and runs them on the GPU; without a GPU
# it prints SKIP and exits 0. On a GPU machine that cannot compile (no headers) it runs a build
# carried there, if its stamp is current (scripts/gpu-ready.sh; make carry builds one).
test-gpu: GPU_READY_PKGS = $(DEPS_TEST)
test-gpu:
	@$(GPU_READY) test-gpu $(MAKE_JOBS) tests; st=$$?; [ $$st -eq 3 ] && exit 0; [ $$st -eq 0 ] || exit $$st; \
	  CUDACHEF_TEST_BACKEND=gpu CUDACHEF_TESTS_EXPECTED="$(TEST_PROGRAMS)" scripts/run-tests.sh $(BUILD)

# The authors' check of the exercises (docs/EXERCISES.md): every reference solution passes and
# every starting file fails, on the emulator (on a GPU machine, make test-gpu runs the same check
# in tests/test_exercises.c with the GPU).
check-exercises: all
	@CUDACHEF_STATE_HOME=$$(mktemp -d) CUDACHEF_CACHE_HOME=$$(mktemp -d) scripts/check-exercises.sh $(BIN)

.PHONY: check-exercises

# scripts/grade-class.slurm on a real one-node SLURM of this machine (docs/GRADING.md): the daemons
# from Debian's packages, configured in a temporary folder; root is needed for them.
DEPS_SLURM = slurmctld slurmd slurm-client munge
test-slurm: all
	@scripts/deps.sh $(DEPS_SLURM)
	@scripts/test-slurm.sh $(BUILD)

.PHONY: test-slurm

# The install and what data cannot do (issue 7): test_security is cmocka (lesson and exercise files
# with shell syntax, paths and control codes are refused or shown as text, never run); test_install
# is a shell script (tests/test_install.sh: make install into a staging folder, the installed
# program run from elsewhere, the manual page against --help, make uninstall), run through a
# two-line wrapper in BUILD/tests so that scripts/run-tests.sh finds it like the others.
TESTS += test_security test_sandbox
TEST_SCRIPTS := test_install test_layers test_hacking test_slurm
# Every test program `make tests` makes (test_fuzz_corpus: tests/sanitize.mk), for run-tests.sh.
TEST_PROGRAMS = $(TESTS) $(TEST_SCRIPTS) test_fuzz_corpus
# The wrapper finds the script as the C tests find the tree: CUDACHEF_TEST_SOURCE_DIR, else the
# tree's place relative to the wrapper's own (BUILD/tests/NAME: ../.. for BUILD=build), never an
# absolute path of the tree it was made in.
TEST_TREE_FROM_BIN = $(shell realpath -m --relative-to='$(abspath $(TEST_BIN))' '$(CURDIR)')
$(TEST_BIN)/%: tests/%.sh tests/tests.mk | $(BUILD)/.mode
	@mkdir -p $(dir $@)
	@printf '#!/bin/sh\nexec sh "$${CUDACHEF_TEST_SOURCE_DIR:-$$(dirname "$$0")/%s}/%s" "$$@"\n' \
	  '$(TEST_TREE_FROM_BIN)' '$<' > $@ && chmod +x $@
tests: $(addprefix $(TEST_BIN)/,test_security test_sandbox $(TEST_SCRIPTS))
