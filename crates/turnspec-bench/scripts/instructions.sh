#!/usr/bin/env bash
# Instructions per turn, engine against the hand-written machine, for the
# four workloads of docs/performance.md: (I(1200 turns) - I(200 turns)) /
# 1000 by valgrind's callgrind, so loading and set-up cancel out.
#
#   crates/turnspec-bench/scripts/instructions.sh [ENGINE_BINARY [PEER_BINARY]]
#
# Both binaries are builds of the `workload` example: the engine's is run
# with `engine`/`engine-ga`, the peer's with `hand`. The engine's defaults
# to the release build (cargo build --release -p turnspec-bench --example
# workload), the peer's to the engine's binary (both machines built alike);
# the targets compare with the peer built as the `peer` profile
# (target/peer/examples/workload: fat LTO, one codegen unit, panic =
# "abort").
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
bin=${1:-${CARGO_TARGET_DIR:-$root/target}/release/examples/workload}
peer=${2:-$bin}
command -v valgrind >/dev/null || { echo "needs valgrind (apt-get install valgrind)" >&2; exit 2; }
ir() { local b=$1; shift; valgrind --tool=callgrind --callgrind-out-file=/dev/null "$b" "$@" 2>&1 |
  grep -oP 'refs:\s+\K[0-9,]+' | tr -d ,; }
per_turn() { local b=$1; shift; echo $(( ($(ir "$b" "$@" 1200) - $(ir "$b" "$@" 200)) / 1000 )); }
echo "workload players | engine | hand-written | ratio | Grand Archive"
for w in "all-pass 2" "all-pass 4" "busy 2" "busy 4"; do
  set -- $w
  e=$(per_turn "$bin" engine "$1" "$2"); h=$(per_turn "$peer" hand "$1" "$2"); g=$(per_turn "$bin" engine-ga "$1" "$2")
  echo "$1 $2 | $e | $h | $(awk "BEGIN { printf \"%.2f\", $e / $h }")x | $g"
done
