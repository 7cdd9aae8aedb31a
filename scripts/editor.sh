#!/usr/bin/env bash
# Builds the workbench's spec editor: CodeMirror 6 and the spec format's
# JSON Schema (docs/schema/spec.schema.json), bundled and minified by
# esbuild from crates/turnspec-serve/editor/ into one file,
# crates/turnspec-serve/assets/editor.js. The bundle is committed, so
# building turnspec (and `cargo install`) needs no npm.
#
#   bash scripts/editor.sh          rebuild assets/editor.js
#   bash scripts/editor.sh check    rebuild into a scratch file and fail if
#                                   it differs from the committed bundle
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
editor="$root/crates/turnspec-serve/editor"
bundle="$root/crates/turnspec-serve/assets/editor.js"

if ! command -v npm >/dev/null; then
  echo "editor bundle: SKIPPED, no node/npm to build it (the committed assets/editor.js is used)"
  exit 0
fi

(cd "$editor" && npm ci --no-audit --no-fund --loglevel=error)

build() {
  # No source maps, no timestamps, no absolute paths: the same sources and
  # lock file give the same bytes on any machine.
  (cd "$editor" && ./node_modules/.bin/esbuild src/editor.js \
    --bundle --minify --format=iife --global-name=TurnspecEditor \
    --target=es2020 --charset=utf8 --legal-comments=none --log-level=warning \
    --outfile="$1")
}

case "${1:-build}" in
  build)
    build "$bundle"
    echo "editor bundle: $bundle ($(wc -c < "$bundle") bytes)"
    ;;
  check)
    scratch=$(mktemp -d)
    trap 'rm -rf "$scratch"' EXIT
    build "$scratch/editor.js"
    if ! cmp -s "$scratch/editor.js" "$bundle"; then
      echo "crates/turnspec-serve/assets/editor.js differs from what its sources build: run bash scripts/editor.sh and commit it" >&2
      exit 1
    fi
    echo "editor bundle matches its sources ($(wc -c < "$bundle") bytes)"
    ;;
  *)
    echo "usage: scripts/editor.sh [build|check]" >&2
    exit 2
    ;;
esac
