#!/usr/bin/env bash
# Wall clock per turn, engine against the hand-written machines (MTG, Grand
# Archive, Lorcana), runs interleaved so both see the same machine: min /
# median / max of N runs, all-pass and busy, 2 and 4 players. An engine run
# plays one game of 200,000 turns, a hand-written run ten (they are faster;
# the figure is per turn either way).
#
#   crates/turnspec-bench/scripts/wall-clock.sh [ENGINE_BINARY] [N] [PEER_BINARY] [GAMES]
#
# GAMES: which games, space-separated (default "mtg ga lorcana").
# Both binaries are builds of the `workload` example: the engine's is run
# with `engine-GAME`, the peer's with `hand-GAME`. The engine's defaults to
# the dist build (cargo build --profile dist -p turnspec-bench --example
# workload), the peer's to the engine's binary (both machines built alike);
# the targets compare with the peer built as the `peer` profile
# (target/peer/examples/workload: fat LTO, one codegen unit, panic =
# "abort"). Check that nothing else runs (uptime, ps) before trusting the
# figures.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
bin=${1:-${CARGO_TARGET_DIR:-$root/target}/dist/examples/workload}
n=${2:-11}
peer=${3:-$bin}
games=${4:-mtg ga lorcana}
ns() { "$@" | awk '{ print $(NF-1) }'; }
stats() { sort -n | awk '{ v[NR] = $1 } END { printf "%s / %s / %s", v[1], v[int((NR + 1) / 2)], v[NR] }'; }
echo "game workload players | engine min / median / max | hand-written min / median / max | ratio of minimums / medians"
for game in $games; do
  for w in "all-pass 2" "all-pass 4" "busy 2" "busy 4"; do
    set -- $w
    engine=(); hand=()
    for _ in $(seq "$n"); do
      engine+=("$(ns "$bin" "engine-$game" "$1" "$2" 200000)")
      hand+=("$(ns "$peer" "hand-$game" "$1" "$2" 200000 10)")
    done
    e=$(printf '%s\n' "${engine[@]}" | stats); h=$(printf '%s\n' "${hand[@]}" | stats)
    ratio=$(awk -v e="$e" -v h="$h" 'BEGIN { split(e, a, " / "); split(h, b, " / ");
      printf "%.2fx / %.2fx", a[1] / b[1], a[2] / b[2] }')
    echo "$game $1 $2 | $e | $h | $ratio"
  done
done
