#!/usr/bin/env bash
# Load and abuse test of `turnspec serve` (docs/reliability.md): builds
# turnspec and the test client (crates/turnspec-serve/examples/abuse.rs),
# starts the workbench on a free loopback port in a scratch folder holding a
# copy of games/, sends the hostile requests (each must get a 4xx and touch
# nothing outside the folder), then CLIENTS clients each play a game of
# MOVES moves, one request per move. Stops the server; bounded in time.
#
#   tests/load/run.sh [CLIENTS MOVES]     default 100 200; .ci/run: 20 50
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
clients=${1:-100}
moves=${2:-200}

(cd "$root" && cargo build --release --locked -q -p turnspec-cli \
  && cargo build --release --locked -q -p turnspec-serve --example abuse)
target="${CARGO_TARGET_DIR:-$root/target}"
case "$target" in /*) ;; *) target="$root/$target" ;; esac
bin="$target/release/turnspec"
client="$target/release/examples/abuse"

work=$(mktemp -d)
mkdir "$work/served" "$work/outside"
cp -r "$root/games" "$work/served/games"
log="$work/serve.log"
(cd "$work/served" && exec "$bin" serve games --port 0 >"$log" 2>&1) &
server=$!
cleanup() {
  kill "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

url=""
for _ in $(seq 1 100); do
  url=$(grep -o 'http://[^ ]*' "$log" 2>/dev/null | head -1 || true)
  [ -n "$url" ] && break
  if ! kill -0 "$server" 2>/dev/null; then
    cat "$log"
    echo "load test: turnspec serve did not start"
    exit 1
  fi
  sleep 0.1
done
if [ -z "$url" ]; then
  cat "$log"
  echo "load test: turnspec serve printed no address"
  exit 1
fi
echo "load test: workbench at $url, $clients clients x $moves moves"
timeout 600 "$client" --url "$url" --folder "$work/served" --outside "$work/outside" \
  --pid "$server" --clients "$clients" --moves "$moves"
