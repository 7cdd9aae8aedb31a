// How long the static studio page takes to start (the wasm loaded, the
// shipped specs read) and to check each shipped spec in the page, as a
// keystroke asks it (docs/performance.md, "The studio"). A figure to read,
// not a test: wall clock, median and slowest of 31 checks each.
//
//   bash scripts/studio-page.sh           # builds target/studio-page
//   python3 -m http.server -d target/studio-page 8765 &
//   TURNSPEC_URL=http://127.0.0.1:8765/ node tests/browser/studio-timing.mjs
import { chromium } from "playwright-core";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const URL = process.env.TURNSPEC_URL;
const profile = mkdtempSync(join(tmpdir(), "turnspec-chromium-"));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  headless: true,
  args: [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
  ],
});
try {
  const page = context.pages()[0] || (await context.newPage());
  const t0 = Date.now();
  await page.goto(URL);
  await page.evaluate(() => window.turnspecBackendReady);
  console.log(`page loaded and the WebAssembly Studio ready: ${Date.now() - t0} ms`);
  const lines = await page.evaluate(async () => {
    const files = await (await fetch("files.json")).json();
    const out = [];
    for (const [path, text] of Object.entries(files)) {
      if (path.includes("/stops/")) continue; // stop profiles, not specs
      const body = JSON.stringify({ text, path });
      const ms = [];
      for (let i = 0; i < 31; i++) {
        const t = performance.now();
        const answer = window.turnspecBackend.call("POST", "/api/check", body);
        ms.push(performance.now() - t);
        if (answer.status !== 200) out.push(`${path}: status ${answer.status}`);
      }
      ms.sort((a, b) => a - b);
      out.push(`${path}: median ${ms[15].toFixed(2)} ms, slowest ${ms[30].toFixed(2)} ms`);
    }
    return out;
  });
  for (const line of lines) console.log(line);
} finally {
  await context.close();
  rmSync(profile, { recursive: true, force: true });
}
