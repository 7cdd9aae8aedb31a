// All-pass Magic turns per second in WebAssembly under Node
// (docs/performance.md, "WebAssembly"):
//   node crates/turnspec-wasm/npm/bench.js [TURNS]
// after `bash scripts/wasm.sh build`. Best of 5 runs of each driver.
"use strict";

const fs = require("node:fs");
const path = require("node:path");
const turnspec = require(".");

const root = path.resolve(__dirname, "../../..");
const mtg = turnspec.loadSpec(fs.readFileSync(path.join(root, "games/mtg.toml"), "utf8"), "games/mtg.toml");
const turns = Number(process.argv[2] || 20000);

function best(name, n, run) {
  let rate = 0;
  for (let i = 0; i < 5; i++) {
    const t0 = process.hrtime.bigint();
    run();
    const s = Number(process.hrtime.bigint() - t0) / 1e9;
    rate = Math.max(rate, n / s);
  }
  console.log(`${name}: ${Math.round(rate).toLocaleString("en")} turns/s`);
}

best(`playTurns(${turns * 10}) (the policy inside WebAssembly)`, turns * 10, () => {
  const g = new turnspec.Game(mtg, { recordEvents: false });
  g.playTurns(turns * 10);
});
best(`one apply("pass") per pass, recordEvents false (${turns} turns)`, turns, () => {
  const g = new turnspec.Game(mtg, { recordEvents: false });
  while (g.turn <= turns) g.apply("pass");
});
best(`the same, keeping events and reading events() after each pass (${turns / 10} turns)`, turns / 10, () => {
  const g = new turnspec.Game(mtg);
  while (g.turn <= turns / 10) {
    g.apply("pass");
    g.events();
  }
});
