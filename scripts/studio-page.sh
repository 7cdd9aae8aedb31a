#!/usr/bin/env bash
# The static studio page: the workbench's page with turnspec-wasm's Studio
# in place of the server, in one folder any static file server can serve.
#
#   bash scripts/studio-page.sh [OUT]     (default: target/studio-page)
#   bash scripts/studio-page.sh test      build it, serve it on loopback and
#                                         run tests/browser/studio.test.mjs
#                                         against it (TURNSPEC_STATIC=1)
#
# Needs the browser build of turnspec-wasm in target/studio-wasm (or
# $STUDIO_WASM), which `bash scripts/wasm.sh build` makes. The page ships
# the specs under games/ (files.json); what the designer saves stays in the
# browser's storage.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mode=build
if [ "${1:-}" = test ]; then mode=test; shift; fi
out=${1:-$root/target/studio-page}
wasm=${STUDIO_WASM:-$root/target/studio-wasm}
assets=$root/crates/turnspec-serve/assets
if [ ! -f "$wasm/turnspec_wasm.js" ]; then
  echo "studio page: no $wasm/turnspec_wasm.js; build it with: bash scripts/wasm.sh build" >&2
  exit 1
fi
rm -rf "$out"
mkdir -p "$out"
cp "$assets/app.js" "$assets/editor.js" "$assets/style.css" "$out/"
cp "$root/crates/turnspec-serve/static/boot.js" "$out/"
cp "$wasm/turnspec_wasm.js" "$wasm/turnspec_wasm_bg.wasm" "$out/"
# The served page, with the backend started before app.js.
sed 's#<script src="editor.js" defer></script>#<script src="boot.js"></script>\n<script src="editor.js" defer></script>#' \
  "$assets/index.html" > "$out/index.html"
grep -q 'src="boot.js"' "$out/index.html"
# The specs under games/, as {"games/mtg.toml": text, ...}.
(cd "$root" && node -e '
const fs = require("fs"), path = require("path");
const files = {};
const walk = (d) => { for (const e of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name < b.name ? -1 : 1)) {
  const p = path.join(d, e.name);
  if (e.isDirectory()) walk(p); else if (p.endsWith(".toml")) files[p] = fs.readFileSync(p, "utf8");
} };
walk("games");
process.stdout.write(JSON.stringify(files));
') > "$out/files.json"
echo "studio page: $out ($(du -sh "$out" | cut -f1)); serve it with any static file server, e.g. python3 -m http.server -d $out"

if [ "$mode" = test ]; then
  (cd "$root/tests/browser" && npm ci --no-audit --no-fund --loglevel=error)
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  python3 -m http.server --bind 127.0.0.1 --directory "$out" "$port" >/dev/null 2>&1 &
  server=$!
  trap 'kill "$server" 2>/dev/null || true' EXIT
  for _ in $(seq 1 50); do
    curl -fsS -o /dev/null "http://127.0.0.1:$port/" 2>/dev/null && break
    sleep 0.1
  done
  TURNSPEC_STATIC=1 TURNSPEC_URL="http://127.0.0.1:$port/" CHROMIUM="${CHROMIUM:-/usr/bin/chromium}" \
    node --test --test-reporter=spec "$root/tests/browser/studio.test.mjs"
fi
