#!/usr/bin/env bash
# The WebAssembly engine and the npm package `turnspec` (docs/javascript.md).
#
#   bash scripts/wasm.sh build   # installs what is missing, builds the release
#                                # wasm, the npm package (crates/turnspec-wasm/npm/pkg)
#                                # and the browser build (target/studio-wasm)
#   bash scripts/wasm.sh test    # build, then the package's tests (node --test)
#                                # and the TypeScript example (tsc --noEmit)
#   bash scripts/wasm.sh         # the same as test; what .ci/run runs
#
# Idempotent: the wasm32 target is added and wasm-bindgen-cli installed only
# when missing (the CLI at exactly the wasm-bindgen version of Cargo.lock,
# since the two must match); npm ci runs only when package-lock.json changed.
# Needs rustup, cargo, node (18 or later) and npm.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-test}
npm_dir=crates/turnspec-wasm/npm
web_dir=target/studio-wasm
wasm=target/wasm32-unknown-unknown/release/turnspec_wasm.wasm

tools() {
  if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    rustup target add wasm32-unknown-unknown
  fi
  local want have
  want=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/"/, "", $3); print $3; exit }' Cargo.lock)
  have=$(wasm-bindgen --version 2>/dev/null | awk '{ print $2 }' || true)
  if [ "$have" != "$want" ]; then
    echo "installing wasm-bindgen-cli $want (found: ${have:-none})"
    # --locked builds the CLI's own lock file; when a crate it pins has
    # been yanked from the registry since (webpki-roots 1.0.11 for 0.2.130),
    # cargo refuses it, and the newest compatible versions are used instead.
    cargo install wasm-bindgen-cli --version "$want" --locked \
      || cargo install wasm-bindgen-cli --version "$want"
  fi
  if [ ! -f "$npm_dir/node_modules/.package-lock.json" ] \
    || [ "$npm_dir/package-lock.json" -nt "$npm_dir/node_modules/.package-lock.json" ]; then
    (cd "$npm_dir" && npm ci --no-audit --no-fund --loglevel=error)
  fi
}

build() {
  tools
  cargo build --locked --release -p turnspec-wasm --target wasm32-unknown-unknown
  wasm-bindgen --target nodejs --out-dir "$npm_dir/pkg" "$wasm"
  wasm-bindgen --target web --out-dir "$web_dir" "$wasm"
  # The TypeScript types of the JSON shapes, from the schema of the Rust
  # types (`cargo test -p turnspec-wasm` checks the schema is up to date).
  (cd "$npm_dir" && npm run -s types)
  cp "$npm_dir/pkg/types.d.ts" "$web_dir/types.d.ts"
  echo "npm package: $npm_dir ($(du -h "$npm_dir/pkg/turnspec_wasm_bg.wasm" | cut -f1) of wasm); browser build: $web_dir"
}

test_package() {
  # The determinism test compares traces with the native command's.
  cargo build --locked --release --quiet -p turnspec-cli
  export TURNSPEC_BIN="$PWD/target/release/turnspec"
  (cd "$npm_dir" && node --test test/ && npx tsc --noEmit -p .)
}

case "$mode" in
  build) build ;;
  test) build && test_package ;;
  *) echo "usage: bash scripts/wasm.sh [build|test]" >&2; exit 2 ;;
esac
