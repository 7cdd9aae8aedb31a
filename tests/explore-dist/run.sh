#!/usr/bin/env bash
# `turnspec explore` and `turnspec explore --against` in two processes on
# loopback, two workers each (docs/explore.md, "Several workers and
# machines"): process 0's report must be byte for byte the single-process
# one, in JSON and in text (less the timing line), with the same exit
# status, and process 1 must print nothing on stdout.
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
# Two ports free now on loopback (the system picks them).
read -r port0 port1 < <(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])
for x in s: x.close()')
printf '# process 0, then process 1\n127.0.0.1:%s\n127.0.0.1:%s\n' "$port0" "$port1" > "$work/hosts.txt"

# Runs "$@" on one process, then on two (process 1 in the background),
# and compares process 0's report and exit status with the single one's;
# sets `states` to the states the report counts.
same_on_two_processes() {
  local format rc_single rc0 rc1
  for format in json text; do
    rc_single=0
    "$bin" "$@" --format "$format" > "$work/single.$format" 2> /dev/null || rc_single=$?
    "$bin" "$@" --format "$format" --workers 2 --hosts "$work/hosts.txt" --process 1 \
      --connect-timeout 30 > "$work/p1.$format" 2> "$work/p1.err" &
    pids=($!)
    rc0=0
    "$bin" "$@" --format "$format" --workers 2 --hosts "$work/hosts.txt" --process 0 \
      --connect-timeout 30 > "$work/p0.$format" 2> "$work/p0.err" || rc0=$?
    rc1=0
    wait "${pids[0]}" || rc1=$?
    pids=()
    [ "$rc1" = 0 ] || { echo "$*: process 1 failed ($rc1):"; cat "$work/p1.err"; exit 1; }
    [ "$rc0" = "$rc_single" ] \
      || { echo "$*: process 0 exits $rc0, one process $rc_single:"; cat "$work/p0.err"; exit 1; }
    if [ "$format" = text ]; then
      # The last line is the timing: states per second and memory.
      for f in single p0; do sed -i '$d' "$work/$f.text"; done
    fi
    cmp "$work/single.$format" "$work/p0.$format" \
      || { diff "$work/single.$format" "$work/p0.$format" | head -20; exit 1; }
    [ ! -s "$work/p1.$format" ] || { echo "$*: process 1 printed a report"; exit 1; }
  done
  states=$(sed -n 's/.*"states": \([0-9]*\).*/\1/p' "$work/single.json" | head -1)
}

same_on_two_processes explore games/mtg.toml --against games/mtg-classic.toml --depth "$depth"
echo "explore --against on 2 processes x 2 workers on loopback: the same report as one process ($states pairs of states, depth $depth)"
same_on_two_processes explore games/mtg.toml --turns 2 --depth "$depth"
echo "explore on 2 processes x 2 workers on loopback: the same report as one process ($states states, depth $depth, --turns 2)"

# A process that dies during the search: the other stops with one error
# naming it (exit 2), not a wait or a cascade of panics. The search is far
# longer than the 3 s before process 1 is killed (loopback connects at once).
long=(explore games/mtg.toml --turns 2 --depth 40 --workers 2 --hosts "$work/hosts.txt" --connect-timeout 30)
"$bin" "${long[@]}" --process 1 > /dev/null 2> "$work/p1.err" &
pids=($!)
"$bin" "${long[@]}" --process 0 > /dev/null 2> "$work/p0.err" &
pids+=($!)
sleep 3
kill -9 "${pids[0]}"
wait "${pids[0]}" 2> /dev/null || true
rc0=0
wait "${pids[1]}" || rc0=$?
pids=()
[ "$rc0" = 2 ] || { echo "process 0 exits $rc0 when process 1 dies, not 2:"; cat "$work/p0.err"; exit 1; }
grep -q "the connection to process 1 failed" "$work/p0.err" && ! grep -q "panicked" "$work/p0.err" \
  || { echo "process 0's error when process 1 dies:"; cat "$work/p0.err"; exit 1; }
echo "a process killed during the search: the other stops at once with: $(cat "$work/p0.err")"
