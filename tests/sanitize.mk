# sanitize.mk - the test suite under memory tools, and the parsers of outside input fuzzed
# (included by the Makefile; docs/SANITIZERS.md says more).
#
#   make asan       the program and every test built with AddressSanitizer and UndefinedBehavior-
#                   Sanitizer in build-asan (CUDA=0), then the whole test suite; a report fails it
#   make valgrind   the tests under valgrind's memcheck (build-valgrind, CUDA=0): every test binary,
#                   and the cudachef program they run, leaks of lost memory counted as errors; the
#                   few cases that cook for seconds cook less under it (test_lesson_demos: lessons
#                   1-9, 11 and 17, every kind of demo; test_ladder_rungs: n up to 130 in one order;
#                   test_missing_barriers_fail: two orders; test_wrong_versions: one exercise),
#                   since memcheck is 20-60 times slower and make asan runs them whole
#                   (docs/SANITIZERS.md says why that loses nothing memcheck would find)
#   make fuzz       builds the libFuzzer targets of tests/fuzz/ with clang and runs each for
#                   FUZZ_SECONDS on its corpus in tests/fuzz/corpus/TARGET/, then merges what it
#                   found into the corpus (FUZZ_TARGETS=... picks some)
#
# The emulator switches stacks by hand (fibers) and catches its own faults with guard pages: see
# src/emu/fiber.c for how the tools are told, and src/kit/emu_table.c for how its checked build
# keeps out of AddressSanitizer's way.

ASAN_BUILD     ?= build-asan
VALGRIND_BUILD ?= build-valgrind
FUZZ_BUILD     ?= build-fuzz
SAN_LOGS = $(abspath $(BUILD))/sanitizer-logs

# ---- make asan -----------------------------------------------------------------------------------

SAN_FLAGS    := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
# The checked kernels are built with -fsanitize=kernel-address, which cannot go with address: they
# keep UndefinedBehaviorSanitizer only (their accesses are the emulator's to check).
SAN_UB_FLAGS := -fsanitize=undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
# Reports go to files (one per process, children included) as well as to stderr, and any file
# fails the run: a child's report is never lost in a test's captured output.
# CUDACHEF_TEST_SANITIZER tells the tests which tool watches them, for the few cases a tool makes
# impossible (under AddressSanitizer a process cannot start with an address-space limit).
ASAN_ENV = ASAN_OPTIONS=detect_leaks=1:strict_string_checks=1:check_initialization_order=1:detect_stack_use_after_return=1:log_path=$(SAN_LOGS)/asan:log_exe_name=1 \
           UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:log_path=$(SAN_LOGS)/ubsan:log_exe_name=1 \
           LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0 \
           CUDACHEF_TEST_SANITIZER=address

# The memory tools' builds carry the planted faults (src/kit/planted.h), asleep until
# CUDACHEF_PLANTED_FAULT wakes one: make asan-planted and make valgrind-planted prove with them
# that the tools' selections below still reach every layer.
ifeq ($(PLANTED),1)
CPPFLAGS += -DCHEF_PLANTED_FAULTS
endif

ifeq ($(SANITIZE),address)
SAN_CFLAGS = $(SAN_FLAGS)
CFLAGS += $(SAN_CFLAGS)
TEST_CFLAGS += $(SAN_FLAGS)
$(BUILD)/kernels/emu_checked.o $(BUILD)/tests/test_kernels_checked.o: SAN_CFLAGS = $(SAN_UB_FLAGS)
endif

# What AddressSanitizer need not run: the programs that run none of cudachef's C (test_layers and
# test_hacking read the sources and docs), and those that only drive the program in ways the
# others already do under the tool (test_install: the installed program, as test_cli runs it;
# test_slurm: grade --class, as test_sandbox runs it). make asan-planted proves that what runs
# still reaches every layer.
ASAN_SKIP ?= test_layers test_hacking test_install test_slurm

.PHONY: asan asan-tests asan-planted asan-planted-run
asan: deps-test
	@$(MAKE) --no-print-directory BUILD=$(ASAN_BUILD) CUDA=0 SANITIZE=address PLANTED=1 asan-tests

# (run by make asan, with BUILD=build-asan SANITIZE=address)
asan-tests: tests
	@rm -rf $(SAN_LOGS) && mkdir -p $(SAN_LOGS)
	@$(ASAN_ENV) CUDACHEF_TEST_BACKEND=emu CUDACHEF_TESTS_EXPECTED="$(TEST_PROGRAMS)" CUDACHEF_TEST_SKIP="$(ASAN_SKIP)" \
	   scripts/run-tests.sh $(BUILD); \
	 status=$$?; \
	 if ls $(SAN_LOGS)/* >/dev/null 2>&1; then \
	   echo "!! sanitizer reports (in $(SAN_LOGS)):"; cat $(SAN_LOGS)/*; status=1; fi; \
	 [ $$status -eq 0 ] && echo "asan: the test suite is clean under AddressSanitizer and UBSan"; exit $$status

# Each planted fault (src/kit/planted.h) in turn under make asan's selection: every one must be
# reported (scripts/sanitize-planted.sh). PLANTED_FAULTS=LAYER:KIND ... picks some.
asan-planted: deps-test
	@$(MAKE) --no-print-directory BUILD=$(ASAN_BUILD) CUDA=0 SANITIZE=address PLANTED=1 asan-planted-run
# The programs that do their C work in their own process go first: a fault they reach shows in
# seconds.
PLANTED_FIRST ?= test_host test_emu test_fuzz_corpus test_progress test_replay test_layout test_watch test_jobs \
                 test_race test_demos test_lessons test_kitchen
asan-planted-run: tests
	@$(ASAN_ENV) CUDACHEF_TEST_BACKEND=emu CUDACHEF_TEST_SKIP="$(ASAN_SKIP)" CUDACHEF_TEST_FIRST="$(PLANTED_FIRST)" \
	   scripts/sanitize-planted.sh asan $(BUILD) $(SAN_LOGS) $(PLANTED_FAULTS)

# ---- make fuzz -----------------------------------------------------------------------------------

# One target per parser of outside input (tests/fuzz/fuzz_NAME.c); each runs FUZZ_SECONDS, so that
# all of them take ten minutes.
FUZZ_TARGETS  ?= lesson markdown progress exercise kernel_name check_result i18n theme watch
FUZZ_SECONDS  ?= 67
FUZZ_CC       ?= clang
FUZZ_MAX_LEN  ?= 4096
FUZZ_BIN       = $(BUILD)/fuzz
FUZZ_COMMON   := tests/fuzz/fuzz_common.c
FUZZ_CPPFLAGS  = -Isrc -Itests/fuzz -DFUZZ_SOURCE_DIR='"$(CURDIR)"'
DEPS_FUZZ     := $(DEPS_BUILD) clang libclang-rt-dev

ifeq ($(SANITIZE),fuzzer)
# Everything is built with clang's coverage for libFuzzer, AddressSanitizer and UBSan; the checked
# kernels (never run by a fuzz target) with clang's spelling of their options.
SAN_CFLAGS = -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
CFLAGS += $(SAN_CFLAGS)
EMU_CHECK_FLAGS := -fsanitize=kernel-address -mllvm -asan-instrumentation-with-call-threshold=0 \
                   -mllvm -asan-stack=0 -mllvm -asan-globals=0 -DEMU_CHECKED
$(BUILD)/kernels/emu_checked.o: SAN_CFLAGS = $(SAN_UB_FLAGS)
endif

# A fuzz target: its own file, the shared helpers, and the program's library (the theme is in the
# full-screen interface, which the library leaves out).
$(FUZZ_BIN)/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_COMMON) tests/fuzz/fuzz.h $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(FUZZ_CPPFLAGS) $(CFLAGS) -fsanitize=fuzzer $(filter %.c %.o,$^) $(LIB) -o $@ $(LDLIBS)
$(FUZZ_BIN)/fuzz_theme: $(BUILD)/src/ui/theme.o
$(FUZZ_BIN)/fuzz_theme: FUZZ_CPPFLAGS += -DNCURSES_WIDECHAR=1

.PHONY: fuzz fuzz-targets fuzz-run
fuzz:
	@scripts/deps.sh $(DEPS_FUZZ)
	@$(MAKE) --no-print-directory BUILD=$(FUZZ_BUILD) CUDA=0 CC=$(FUZZ_CC) SANITIZE=fuzzer fuzz-run

fuzz-targets: $(addprefix $(FUZZ_BIN)/fuzz_,$(FUZZ_TARGETS))

# (run by make fuzz, with BUILD=build-fuzz SANITIZE=fuzzer) Each target fuzzes from its corpus into
# a scratch folder, with the words of its format from tests/fuzz/TARGET.dict where there is one. A
# crash, leak or timeout stops the run with the input in $(BUILD)/fuzz-artifacts/ (add it to the
# corpus as regress-WHAT once fixed). Then the corpus is made again, small: its named files (seed-*
# from lessons/, exercises/ and assets/ or made by hand, and regress-* that once crashed) are kept
# as they are, and of the rest, old and new, -merge=1 keeps only inputs that reach code (edges, not
# hit counts: -use_counters=0) the others do not.
fuzz-run: fuzz-targets
	@mkdir -p $(BUILD)/fuzz-artifacts
	@for t in $(FUZZ_TARGETS); do \
	  echo "== fuzz_$$t: $(FUZZ_SECONDS) s"; \
	  new=$(BUILD)/fuzz-new/$$t; kept=tests/fuzz/corpus/$$t; \
	  rm -rf $$new $$new.min && mkdir -p $$new $$new.min $$kept || exit 1; \
	  dict=; [ -f tests/fuzz/$$t.dict ] && dict=-dict=tests/fuzz/$$t.dict; \
	  $(FUZZ_BIN)/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -max_len=$(FUZZ_MAX_LEN) -timeout=10 -rss_limit_mb=4096 \
	    -print_final_stats=1 -artifact_prefix=$(BUILD)/fuzz-artifacts/$$t- $$dict $$new $$kept \
	    2>$(BUILD)/fuzz-$$t.log || \
	    { tail -60 $(BUILD)/fuzz-$$t.log; echo "fuzz_$$t found a problem: see $(BUILD)/fuzz-artifacts/"; exit 1; }; \
	  grep -E "^stat::number_of_executed_units" $(BUILD)/fuzz-$$t.log; \
	  cp $$kept/seed-* $$kept/regress-* $$new.min/ 2>/dev/null; \
	  $(FUZZ_BIN)/fuzz_$$t -merge=1 -use_counters=0 -max_len=$(FUZZ_MAX_LEN) $$new.min $$kept $$new 2>>$(BUILD)/fuzz-$$t.log || exit 1; \
	  rm -rf $$kept && mv $$new.min $$kept; \
	  echo "   corpus: $$(ls $$kept | wc -l) files, $$(cat $$kept/* | wc -c) bytes"; \
	done

# ---- the corpus in make test ---------------------------------------------------------------------

# tests/test_fuzz_corpus replays every kept input through the targets' own code, built with the
# program's compiler (and, in make asan and make valgrind, under the memory tools).
FUZZ_ALL := lesson markdown progress exercise kernel_name check_result i18n theme watch
tests: $(TEST_BIN)/test_fuzz_corpus
$(TEST_BIN)/test_fuzz_corpus: tests/test_fuzz_corpus.c $(FUZZ_ALL:%=tests/fuzz/fuzz_%.c) $(FUZZ_COMMON) tests/fuzz/fuzz.h tests/test_tree.h \
                              $(BUILD)/src/ui/theme.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(TEST_CFLAGS) $(FUZZ_CPPFLAGS) -DFUZZ_REPLAY -DNCURSES_WIDECHAR=1 $(filter %.c %.o,$^) $(LIB) \
	  -o $@ -lcmocka $(LDLIBS) $(GPU_LDLIBS)

# ---- make valgrind -------------------------------------------------------------------------------

# memcheck on every test program and on the cudachef program they run ($CUDACHEF_BIN points at
# tests/valgrind-cudachef.sh). A definite leak counts as an error. Each process writes its report
# to a file, text and XML: an <error> in any XML file fails the run (warnings, such as memcheck's
# note on the pseudo-terminal ioctl, do not), and its text is shown. tests/valgrind.supp holds
# suppressions for third-party libraries only.
VALGRIND_OPTIONS = --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite --show-leak-kinds=definite \
                   --suppressions=$(CURDIR)/tests/valgrind.supp --num-callers=30 --child-silent-after-fork=yes
# memcheck runs the programs whose own process does the C work: the emulator, the host runtime,
# the kitchen, the parsers (the fuzz corpus, progress, lessons), the demos' and the jobs' code.
# Left out: the programs that mostly drive the cudachef program in child processes (test_cli,
# test_exercises, test_faults, test_badinput, test_bench, test_security, test_sandbox, test_install,
# test_slurm: make asan runs them, the children under AddressSanitizer too), those that run none of
# cudachef's C (test_layers, test_hacking), and test_tui (its screens animate in real time, and
# the interface runs under AddressSanitizer). make valgrind-planted proves that what runs still
# reaches every layer.
VALGRIND_SKIP ?= test_tui test_cli test_exercises test_faults test_badinput test_bench test_security test_sandbox \
                 test_install test_slurm test_layers test_hacking test_programs
# The tests run two at a time (CI has two cores; memcheck runs a program's threads one at a time),
# these, the longest under memcheck, first.
VALGRIND_HEAVY ?= test_kitchen test_emu test_lessons test_demos test_race
# test_kitchen, the longest by far under memcheck, runs as four processes, two at a time, each with
# every fourth case (tests/test_shard.h), so that both cores work while it runs and its heavy cases
# (the ladder, the tensor rung, the missing barriers) fall in different shards.
VALGRIND_SHARDS ?= test_kitchen:4
DEPS_VALGRIND := $(DEPS_TEST) valgrind

.PHONY: valgrind valgrind-tests valgrind-planted valgrind-planted-run sanitize-planted
valgrind:
	@scripts/deps.sh $(DEPS_VALGRIND)
	@$(MAKE) --no-print-directory BUILD=$(VALGRIND_BUILD) CUDA=0 PLANTED=1 valgrind-tests

# Each planted fault in turn under make valgrind's selection (as asan-planted).
valgrind-planted:
	@scripts/deps.sh $(DEPS_VALGRIND)
	@$(MAKE) --no-print-directory BUILD=$(VALGRIND_BUILD) CUDA=0 PLANTED=1 valgrind-planted-run
valgrind-planted-run: tests
	@$(VALGRIND_ENV) CUDACHEF_TEST_SKIP="$(VALGRIND_SKIP)" CUDACHEF_TEST_JOBS=2 CUDACHEF_TEST_FIRST="$(PLANTED_FIRST)" \
	   scripts/sanitize-planted.sh valgrind $(BUILD) $(SAN_LOGS) $(PLANTED_FAULTS)

# Both tools' planted runs.
sanitize-planted: asan-planted valgrind-planted

# memcheck's report files of one process: text, and XML to count the errors in
valgrind_logs = --log-file=$(SAN_LOGS)/$1.%p.txt --xml=yes --xml-file=$(SAN_LOGS)/$1.%p.xml
VALGRIND_ENV = CUDACHEF_TEST_BACKEND=emu CUDACHEF_TEST_SANITIZER=valgrind CUDACHEF_TESTS_EXPECTED="$(TEST_PROGRAMS)" \
               CUDACHEF_TEST_WRAPPER="valgrind -q $(VALGRIND_OPTIONS) $(call valgrind_logs,test)" \
               CUDACHEF_VALGRIND_OPTIONS="-q $(VALGRIND_OPTIONS) $(call valgrind_logs,cudachef)" \
               CUDACHEF_VALGRIND_BIN=$(abspath $(BIN)) CUDACHEF_TEST_PROGRAM=$(CURDIR)/tests/valgrind-cudachef.sh

# (run by make valgrind, with BUILD=build-valgrind) The sum of the programs' counts, then each
# process's memcheck errors.
valgrind-tests: tests
	@rm -rf $(SAN_LOGS) && mkdir -p $(SAN_LOGS)
	@$(VALGRIND_ENV) CUDACHEF_TEST_SKIP="$(VALGRIND_SKIP)" CUDACHEF_TEST_JOBS=2 CUDACHEF_TEST_FIRST="$(VALGRIND_HEAVY)" \
	   CUDACHEF_TEST_SHARDS="$(VALGRIND_SHARDS)" scripts/run-tests.sh $(BUILD); status=$$?; \
	 for f in $(SAN_LOGS)/*.xml; do grep -q "<error>" "$$f" || continue; \
	   echo "!! memcheck: $${f%.xml}.txt"; cat "$${f%.xml}.txt"; \
	   grep -A1 -E "<kind>|<fn>|<file>|<line>" "$$f" | grep -vE "^--$$" | sed 's/<[^>]*>//g' | head -40; status=1; done; \
	 [ $$status -eq 0 ] && echo "valgrind: the test suite is clean under memcheck (the counts above ran under it)"; \
	 exit $$status
