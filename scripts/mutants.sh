#!/usr/bin/env bash
# Mutation testing of the turn transitions and the compiled tier with
# cargo-mutants (docs/reliability.md, "Mutation testing"). Installs the
# pinned cargo-mutants if it is missing, then mutates:
#
#   crates/turnspec-engine/src/turn.rs          the transitions
#   crates/turnspec-engine/src/compiled/*.rs    the program's executor
#   crates/turnspec-engine/src/program/mod.rs   the ops and their passes
#   crates/turnspec-engine/src/program/compile.rs  the compiler
#   crates/turnspec-engine/src/cached.rs        the cached answers
#
# and runs, for each mutant, the engine's integration tests (one binary,
# crates/turnspec-engine/tests/engine: the program's differential against the
# interpreter, the compiled tier, the transitions, the invariants, the turn
# shapes, the workloads, commands, endless turns, the property tests) and
# the scenario runner's, which play every scenario under tests/scenarios on
# both tiers (crates/turnspec-scenario/tests/scenario/scenarios.rs).
# Not run: the allocation counter (20 s a run), the fuzzers, and the other
# crates' tests.
#
# Usage:
#   scripts/mutants.sh                       every mutant of the files above
#   scripts/mutants.sh -f crates/turnspec-engine/src/turn.rs
#                                            only these files (-f repeats)
#   scripts/mutants.sh --shard 2/4           a quarter of them
#   scripts/mutants.sh -F 'phase_began'      mutants whose name matches
#   scripts/mutants.sh --list                list, run nothing
# Any other option goes to `cargo mutants` as it is.
#
# Environment:
#   MUTANTS_JOBS     parallel builds (default 1: a 2-core machine)
#   MUTANTS_OUT      where mutants.out goes (default target/mutants)
#   MUTANTS_TIMEOUT  seconds a mutant's tests may take before the mutant
#                    counts as caught by timeout (default 60; the tests take
#                    about 5 s unmutated)
#   MUTANTS_TARGET_DIR  the cargo target directory of the mutants' builds
#                    (default target/mutants/build)
#   MUTANTS_BASELINE_TARGET_DIR  that of the baseline run in the source
#                    tree (default: the usual target directory)
#
# Mutants are built in target/mutants/build with no debug info (shared by
# runs, so only the workspace's own crates are rebuilt after the first); a
# mutant costs about 20-40 s on 2 cores shared with other builds, most
# of it the build.
set -euo pipefail
cd "$(dirname "$0")/.."

version=27.1.0
if [ "$(cargo mutants --version 2>/dev/null)" != "cargo-mutants $version" ]; then
  cargo install --locked cargo-mutants --version "$version"
fi

files=()
rest=()
while [ $# -gt 0 ]; do
  case "$1" in
    -f | --file)
      files+=(-f "$2")
      shift 2
      ;;
    *)
      rest+=("$1")
      shift
      ;;
  esac
done
if [ ${#files[@]} -eq 0 ]; then
  files=(
    -f crates/turnspec-engine/src/turn.rs
    -f 'crates/turnspec-engine/src/compiled/*.rs'
    -f crates/turnspec-engine/src/program/mod.rs
    -f crates/turnspec-engine/src/program/compile.rs
    -f crates/turnspec-engine/src/cached.rs
  )
fi

# The tests each mutant runs, as arguments to every cargo command of the
# run (the build too, so no other test binary is built).
tests=(engine scenario)
selection=(-p turnspec-engine -p turnspec-scenario)
for t in "${tests[@]}"; do selection+=(--test "$t"); done

listing=false
for a in ${rest[@]+"${rest[@]}"}; do
  case "$a" in --list | --list-files) listing=true ;; esac
done
# cargo-mutants' own baseline tests only the mutated package, where the
# scenarios' test target is not: the script runs the baseline itself, in
# the source tree, and cargo-mutants skips its own.
# It builds in the project's usual target directory: the mutants' builds
# share theirs with scratch copies of the tree at other paths, where cargo
# could take a mutant's build for the source tree's.
if ! $listing; then
  echo "baseline: cargo test ${selection[*]}"
  CARGO_TARGET_DIR="${MUTANTS_BASELINE_TARGET_DIR:-${CARGO_TARGET_DIR:-$PWD/target}}" \
    cargo test --locked -q "${selection[@]}" > /dev/null
fi

# The mutants' builds: no debug info (faster builds and links), in a
# directory of their own that runs share, so only the workspace's crates
# are rebuilt after the first run.
export CARGO_TARGET_DIR="${MUTANTS_TARGET_DIR:-$PWD/target/mutants/build}"
export CARGO_PROFILE_DEV_DEBUG=0
export CARGO_PROFILE_TEST_DEBUG=0

cargo_args=()
for t in "${tests[@]}"; do cargo_args+=("--cargo-arg=--test=$t"); done
exec cargo mutants \
  -p turnspec-engine \
  "${files[@]}" \
  --test-package turnspec-engine,turnspec-scenario \
  --baseline skip \
  "${cargo_args[@]}" \
  -j "${MUTANTS_JOBS:-1}" \
  --timeout "${MUTANTS_TIMEOUT:-60}" \
  --build-timeout 1200 \
  -o "${MUTANTS_OUT:-target/mutants}" \
  ${rest[@]+"${rest[@]}"} \
  -- --locked
