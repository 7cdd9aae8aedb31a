#!/usr/bin/env bash
# Instructions per turn, engine against the hand-written machines (MTG,
# Grand Archive, Lorcana), all-pass and busy, 2 and 4 players:
# (I(1200 turns) - I(200 turns)) / 1000 by valgrind's callgrind, so loading
# and set-up cancel out. Pokémon has no hand-written machine: its engine
# figures are given alone.
#
#   crates/turnspec-bench/scripts/instructions.sh [ENGINE_BINARY [PEER_BINARY]]
#
# Both binaries are builds of the `workload` example: the engine's is run
# with `engine-GAME`, the peer's with `hand-GAME`. The engine's defaults
# to the release build (cargo build --release -p turnspec-bench --example
# workload), the peer's to the engine's binary (both machines built alike);
# the targets compare with the peer built as the `peer` profile
# (target/peer/examples/workload: fat LTO, one codegen unit, panic =
# "abort"). The instruction guard (guard.sh) counts the engine alone.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
bin=${1:-${CARGO_TARGET_DIR:-$root/target}/release/examples/workload}
peer=${2:-$bin}
command -v valgrind >/dev/null || { echo "needs valgrind (apt-get install valgrind)" >&2; exit 2; }
ir() { local b=$1; shift; valgrind --tool=callgrind --callgrind-out-file=/dev/null "$b" "$@" 2>&1 |
  grep -oP 'refs:\s+\K[0-9,]+' | tr -d ,; }
per_turn() { local b=$1; shift; echo $(( ($(ir "$b" "$@" 1200) - $(ir "$b" "$@" 200)) / 1000 )); }
echo "game workload players | engine | hand-written | ratio"
for game in mtg ga lorcana pokemon; do
  for w in "all-pass 2" "all-pass 4" "busy 2" "busy 4"; do
    set -- $w
    [ "$game" = pokemon ] && [ "$2" = 4 ] && continue   # a two-player game
    e=$(per_turn "$bin" "engine-$game" "$1" "$2")
    if [ "$game" = pokemon ]; then
      echo "$game $1 $2 | $e | - | -"
      continue
    fi
    h=$(per_turn "$peer" "hand-$game" "$1" "$2")
    echo "$game $1 $2 | $e | $h | $(awk "BEGIN { printf \"%.2f\", $e / $h }")x"
  done
done
