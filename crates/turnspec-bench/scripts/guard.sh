#!/usr/bin/env bash
# The instruction-count guard: instructions per turn of the engine, counted
# exactly by valgrind's callgrind (never wall clock), for every reference
# game x {all-pass, busy} x {2, 4 players} (4 only where the spec allows
# it), compared with the committed baseline; fails when any grows by more
# than 3 %.
#
#   crates/turnspec-bench/scripts/guard.sh            # check (CI runs this)
#   crates/turnspec-bench/scripts/guard.sh --update   # measure and rewrite the baseline
#
# Per turn = (I(N2 turns) - I(N1 turns)) / (N2 - N1) of the release build
# of the `workload` example, so loading the spec and setting up cancel out.
# The baseline, crates/turnspec-bench/baseline.toml, records each figure
# and the commit it was measured at. Installs valgrind (Debian's package)
# if it is missing. Counts depend on the compiler: rebaseline (--update)
# when the toolchain changes, and say so in the commit.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
baseline=$root/crates/turnspec-bench/baseline.toml
limit_pct=3
n1=200
n2=1200
update=false
case "${1:-}" in
  "") ;;
  --update) update=true ;;
  *) echo "usage: $0 [--update]" >&2; exit 2 ;;
esac

if ! command -v valgrind >/dev/null; then
  echo "installing valgrind" >&2
  sudo=; [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get install -y -qq valgrind >/dev/null 2>&1 ||
    { $sudo apt-get update -qq && $sudo apt-get install -y -qq valgrind >/dev/null; }
fi

cd "$root"
cargo build --locked --quiet --release -p turnspec-bench --example workload
bin=${CARGO_TARGET_DIR:-$root/target}/release/examples/workload

ir() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" "$@" 2>&1 |
    grep -oP 'refs:\s+\K[0-9,]+' | tr -d ,
}
per_turn() {
  local a b
  a=$(ir "$@" "$n1"); b=$(ir "$@" "$n2")
  awk -v a="$a" -v b="$b" -v n=$((n2 - n1)) 'BEGIN { printf "%.1f", (b - a) / n }'
}

# game:max players of its spec (pokemon-tcg, yugioh and star-wars-unlimited allow 2)
games="mtg:4 ga:4 lorcana:4 pokemon:2 yugioh:2 fab:4 swu:2"
keys=(); figures=()
for g in $games; do
  game=${g%%:*}; max=${g##*:}
  for w in all-pass busy; do
    for p in 2 4; do
      [ "$p" -le "$max" ] || continue
      keys+=("$game $w $p")
      figures+=("$(per_turn "engine-$game" "$w" "$p")")
    done
  done
done

if $update; then
  commit=$(git rev-parse --short HEAD)
  git diff --quiet HEAD -- crates ':!crates/turnspec-bench/baseline.toml' || commit="$commit+changes"
  {
    echo "# Instructions per turn of the engine, by callgrind: written by"
    echo "# crates/turnspec-bench/scripts/guard.sh --update, which CI checks"
    echo "# against (fails above +${limit_pct} %). Release build of the workload example,"
    echo "# (I($n2 turns) - I($n1 turns)) / $((n2 - n1)); $(rustc --version | cut -d' ' -f1-2)."
    echo "commit = \"$commit\""
    echo
    echo "[per_turn]"
    for i in "${!keys[@]}"; do echo "\"${keys[$i]}\" = ${figures[$i]}"; done
  } > "$baseline"
  echo "baseline written to ${baseline#"$root"/} (commit $commit)"
fi

[ -f "$baseline" ] || { echo "no baseline: run $0 --update" >&2; exit 1; }
base_commit=$(grep -oP '^commit = "\K[^"]+' "$baseline")
echo "instructions per turn against the baseline of $base_commit (limit +${limit_pct} %)"
printf '%-8s %-9s %7s %10s %10s %8s\n' game workload players baseline now change
failed=0
for i in "${!keys[@]}"; do
  key=${keys[$i]}; now=${figures[$i]}
  base=$(grep -oP "^\"$key\" = \K[0-9.]+" "$baseline" || true)
  set -- $key
  if [ -z "$base" ]; then
    printf '%-8s %-9s %7s %10s %10s %8s\n' "$1" "$2" "$3" "-" "$now" "MISSING"
    failed=1; continue
  fi
  read -r change bad < <(awk -v b="$base" -v n="$now" -v l="$limit_pct" \
    'BEGIN { c = (n - b) * 100 / b; printf "%+.2f %d\n", c, (c > l) }')
  printf '%-8s %-9s %7s %10s %10s %7s%%%s\n' "$1" "$2" "$3" "$base" "$now" "$change" \
    "$([ "$bad" = 1 ] && echo '  FAIL')"
  [ "$bad" = 0 ] || failed=1
done
if [ "$failed" = 1 ]; then
  echo "instructions per turn grew by more than ${limit_pct} % (or a figure has no baseline)." >&2
  echo "If that is intended, rewrite the baseline with $0 --update and say why in the commit." >&2
  exit 1
fi
