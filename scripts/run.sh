#!/bin/sh
# run.sh - what `make run` starts. On a terminal: cudachef itself, full-screen (the lessons, the
# reader, the kitchen). Elsewhere (output piped or logged): the guided first taste as text, the
# lessons listed, lesson 1 printed and its demos run, then what to type next.
set -e
bin=${1:-build/cudachef}
if [ -t 0 ] && [ -t 1 ]; then
    exec "$bin"
fi
"$bin" list
echo
"$bin" read 1
"$bin" run 1
echo "Next: '$bin' on a terminal opens the lessons full-screen; '$bin read 2' and '$bin run 2'"
echo "print and run lesson 2; '--lang ko' reads in Korean; '$bin run --help' lists every option."
