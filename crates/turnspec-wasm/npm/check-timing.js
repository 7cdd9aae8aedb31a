// How long the static studio's check of a spec takes in WebAssembly, as a
// keystroke in the editor asks it (docs/performance.md, "The studio"):
//   node crates/turnspec-wasm/npm/check-timing.js games/*.toml
// after `bash scripts/wasm.sh build`. Median and slowest of 31 runs each,
// against `cargo run --release -p turnspec-workbench --example
// check_timing -- games/*.toml` for the native server.
"use strict";

const fs = require("node:fs");
const turnspec = require(".");

const RUNS = 31;
// The files given, so an edition finds the base it extends.
const files = Object.fromEntries(process.argv.slice(2).map((f) => [f, fs.readFileSync(f, "utf8")]));
const studio = new turnspec.Studio(files);
for (const [file, text] of Object.entries(files)) {
  const body = JSON.stringify({ text, path: file });
  const ms = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = process.hrtime.bigint();
    const answer = studio.call("POST", "/api/check", body);
    ms.push(Number(process.hrtime.bigint() - t0) / 1e6);
    if (answer.status !== 200) console.error(`${file}: status ${answer.status}`);
  }
  ms.sort((a, b) => a - b);
  console.log(`${file}: ${Buffer.byteLength(text)} bytes, median ${ms[RUNS >> 1].toFixed(2)} ms, slowest ${ms[RUNS - 1].toFixed(2)} ms`);
}
