#!/usr/bin/env bash
# Instructions per turn, engine against the hand-written machine, for the
# four workloads of docs/performance.md: (I(1200 turns) - I(200 turns)) /
# 1000 by valgrind's callgrind, so loading and set-up cancel out.
#
#   crates/turnspec-bench/scripts/instructions.sh [WORKLOAD_BINARY]
#
# The binary defaults to the release build of the `workload` example
# (cargo build --release -p turnspec-bench --example workload).
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
bin=${1:-${CARGO_TARGET_DIR:-$root/target}/release/examples/workload}
command -v valgrind >/dev/null || { echo "needs valgrind (apt-get install valgrind)" >&2; exit 2; }
ir() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" "$@" 2>&1 |
  grep -oP 'refs:\s+\K[0-9,]+' | tr -d ,; }
per_turn() { echo $(( ($(ir "$@" 1200) - $(ir "$@" 200)) / 1000 )); }
echo "workload players | engine | hand-written | ratio | Grand Archive"
for w in "all-pass 2" "all-pass 4" "busy 2" "busy 4"; do
  set -- $w
  e=$(per_turn engine "$1" "$2"); h=$(per_turn hand "$1" "$2"); g=$(per_turn engine-ga "$1" "$2")
  echo "$1 $2 | $e | $h | $(awk "BEGIN { printf \"%.2f\", $e / $h }")x | $g"
done
