#!/usr/bin/env bash
# The JSON-lines protocol (docs/protocol.md) driven from other languages:
# builds the release binary, plays Magic from Node (drive.mjs) and from
# Python (drive.py), then a request loop of 100,000 moves whose peak
# resident memory may grow by at most 1 MiB between move 10,000 and the
# end. Node and Python use their standard libraries only.
#
#   tests/protocol/run.sh [MOVES]     default 100000
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
moves=${1:-100000}

(cd "$root" && cargo build --locked --release -q -p turnspec-cli)
target="${CARGO_TARGET_DIR:-$root/target}"
case "$target" in /*) ;; *) target="$root/$target" ;; esac
export TURNSPEC_BIN="$target/release/turnspec"

node "$here/drive.mjs"
python3 "$here/drive.py"
python3 "$here/drive.py" --memory "$moves" --bound 1024
