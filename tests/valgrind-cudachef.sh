#!/bin/sh
# valgrind-cudachef.sh - the cudachef program under valgrind's memcheck, for make valgrind.
#
# The tests run $CUDACHEF_BIN; make valgrind points it here, so that the program they drive is
# checked as well as the test programs themselves. CUDACHEF_VALGRIND_BIN is the real program,
# CUDACHEF_VALGRIND_OPTIONS memcheck's options (each process writes its report to a file of its
# own, which make valgrind reads when the tests are done). Programs the cudachef program starts in
# turn (the compiler, the child that checks an exercise) run as they are: see docs/SANITIZERS.md.
exec valgrind $CUDACHEF_VALGRIND_OPTIONS "$CUDACHEF_VALGRIND_BIN" "$@"
