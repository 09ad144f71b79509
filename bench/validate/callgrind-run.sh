#!/bin/sh
# Runs a bench script under callgrind with instrumentation off until the script switches it on
# (CALLGRIND=1 makes writer-cpu.ts do so around its measured loop), then prints the
# instructions counted per thread. usage: bench/validate/callgrind-run.sh <script.ts> [args...]
set -e
out=$(mktemp -d /tmp/toolgate-cg-XXXXXX)
CALLGRIND=1 valgrind --tool=callgrind --instr-atstart=no --separate-threads=yes --callgrind-out-file="$out/cg.out" \
  node $NODE_FLAGS --import tsx "$@" 2>"$out/valgrind.log" | grep -v '^$' || { tail -20 "$out/valgrind.log"; exit 1; }
for f in "$out"/cg.out.*; do
  [ -e "$f" ] || continue
  total=$(callgrind_annotate "$f" 2>/dev/null | sed -n 's/^\([0-9,]*\) (100.0%) *PROGRAM TOTALS.*/\1/p' | tr -d ,)
  [ -n "$total" ] && [ "$total" -gt 0 ] && echo "thread $(sed -n 's/^thread: //p' "$f" | head -1): $total instructions"
done
[ -n "$KEEP" ] && echo "kept $out" || rm -rf "$out"
