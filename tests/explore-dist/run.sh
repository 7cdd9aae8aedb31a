#!/usr/bin/env bash
# `turnspec explore --against` in two processes on loopback, two workers
# each (docs/explore.md, "Several machines"): process 0's report must be
# byte for byte the single-process one, in JSON and in text (less the
# timing line), and process 1 must print nothing on stdout.
#
#   tests/explore-dist/run.sh [DEPTH]     default 6
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
depth=${1:-6}

(cd "$root" && cargo build --locked --release -q -p turnspec-cli)
target="${CARGO_TARGET_DIR:-$root/target}"
case "$target" in /*) ;; *) target="$root/$target" ;; esac
bin="$target/release/turnspec"

work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

cd "$root"
search=(explore games/mtg.toml --against games/mtg-classic.toml --depth "$depth")

# Two ports free now on loopback (the system picks them).
read -r port0 port1 < <(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])
for x in s: x.close()')
printf '# process 0, then process 1\n127.0.0.1:%s\n127.0.0.1:%s\n' "$port0" "$port1" > "$work/hosts.txt"

for format in json text; do
  "$bin" "${search[@]}" --format "$format" > "$work/single.$format" 2> /dev/null
  "$bin" "${search[@]}" --format "$format" --workers 2 --hosts "$work/hosts.txt" --process 1 \
    --connect-timeout 30 > "$work/p1.$format" 2> "$work/p1.err" &
  pids=($!)
  "$bin" "${search[@]}" --format "$format" --workers 2 --hosts "$work/hosts.txt" --process 0 \
    --connect-timeout 30 > "$work/p0.$format" 2> "$work/p0.err" \
    || { cat "$work/p0.err" "$work/p1.err"; exit 1; }
  wait "${pids[0]}" || { echo "process 1 failed:"; cat "$work/p1.err"; exit 1; }
  pids=()
  if [ "$format" = text ]; then
    # The last line is the timing: states per second and memory.
    for f in single p0; do sed -i '$d' "$work/$f.text"; done
  fi
  cmp "$work/single.$format" "$work/p0.$format" \
    || { diff "$work/single.$format" "$work/p0.$format" | head -20; exit 1; }
  [ ! -s "$work/p1.$format" ] || { echo "process 1 printed a report"; exit 1; }
done
states=$(sed -n 's/.*"states": \([0-9]*\).*/\1/p' "$work/single.json")
echo "explore --against on 2 processes x 2 workers on loopback: the same report as one process ($states pairs of states, depth $depth)"
