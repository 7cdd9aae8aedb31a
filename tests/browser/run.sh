#!/usr/bin/env bash
# Browser test of `turnspec serve`: Debian's Chromium driven by
# playwright-core from npm (it downloads no browser of its own). Installs
# what it needs, builds turnspec, starts the workbench on a free loopback
# port in a scratch folder, runs workbench.test.mjs and studio.test.mjs (the
# editor) one after the other with node's test runner
# and stops the server. Skips, saying so, when Chromium cannot be had.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
chromium=${CHROMIUM:-/usr/bin/chromium}

if [ ! -x "$chromium" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "browser test: installing Debian's chromium"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
if [ ! -x "$chromium" ]; then
  echo "browser test SKIPPED: no Chromium at $chromium (install it with: apt-get install -y chromium)"
  exit 0
fi
if ! command -v npm >/dev/null; then
  echo "browser test SKIPPED: no node/npm to run playwright-core"
  exit 0
fi

(cd "$here" && npm ci --no-audit --no-fund --loglevel=error)

(cd "$root" && cargo build --release --locked -q -p turnspec-cli)
bin="${CARGO_TARGET_DIR:-$root/target}/release/turnspec"
case "$bin" in /*) ;; *) bin="$root/$bin" ;; esac

work=$(mktemp -d)
log="$work/serve.log"
(cd "$work" && exec "$bin" serve "$root/games" --port 0 >"$log" 2>&1) &
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
    echo "browser test: turnspec serve did not start"
    exit 1
  fi
  sleep 0.1
done
if [ -z "$url" ]; then
  cat "$log"
  echo "browser test: turnspec serve printed no address"
  exit 1
fi
echo "browser test: workbench at $url"

TURNSPEC_URL="$url" TURNSPEC_BIN="$bin" TURNSPEC_WORK="$work" CHROMIUM="$chromium" \
  node --test --test-concurrency=1 --test-reporter=spec "$here/workbench.test.mjs" "$here/studio.test.mjs"
