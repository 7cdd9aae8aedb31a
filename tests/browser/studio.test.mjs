// The workbench's editor in a real browser, from an empty spec to a played
// turn and a saved, passing scenario without leaving the page. run.sh
// starts `turnspec serve` in a scratch folder (TURNSPEC_WORK), where the
// spec and the scenario are saved.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, existsSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execFileSync } from "node:child_process";
import { chromium } from "playwright-core";

const URL = process.env.TURNSPEC_URL;
const BIN = process.env.TURNSPEC_BIN;
const WORK = process.env.TURNSPEC_WORK;
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";
// TURNSPEC_STATIC=1: the page is the static studio page
// (scripts/studio-page.sh): files live in the page, not in TURNSPEC_WORK.
const STATIC = process.env.TURNSPEC_STATIC === "1";

let context;
let profile;
let page;
const errors = [];

before(async () => {
  assert.ok(URL && (STATIC || (BIN && WORK)), "run this through tests/browser/run.sh");
  profile = mkdtempSync(join(tmpdir(), "turnspec-chromium-"));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1500, height: 1000 },
    args: [
      "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
    ],
  });
  page = context.pages()[0] || (await context.newPage());
  page.on("pageerror", (e) => { errors.push(e.message); console.error("page error:", e.message); });
});

after(async () => {
  await context?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

// Waits for the update an action starts: replays and saves count on <body
// data-updates>, the editor's checks, saves and scenario runs on
// <body data-checks>.
async function settle(action, counter = "updates") {
  const before = Number((await page.evaluate((c) => document.body.dataset[c], counter)) || 0);
  await action();
  await page.waitForFunction(
    ([c, n]) => Number(document.body.dataset[c] || 0) > n, [counter, before]);
}
const click = (selector) => settle(() => page.click(selector));
const studioClick = (selector) => settle(() => page.click(selector), "checks");
const text = (selector) => page.textContent(selector);

// A saved file's text: on disk under the server's folder, or in the page.
const fileText = (path) => STATIC
  ? page.evaluate((p) => window.turnspecBackend.files()[p], path)
  : readFileSync(join(WORK, path), "utf8");

// Types into the editor as a designer would, and waits for the loader's
// answer to the text as it then stands.
async function typeInEditor(keys) {
  await page.evaluate(() => studio.editor.focus());
  await settle(keys, "checks");
  // A check of an earlier text may have counted first: wait until the
  // problems drawn are those of the text in the editor.
  await page.waitForFunction(() => studio.checkedText === studio.editor.text());
}

async function passUntil(done, limit = 20) {
  for (let i = 0; i < limit; i++) {
    if (await done()) return;
    await click("#pass-all");
  }
  assert.fail("passing never got there");
}

// A spec from nothing: a draw, a main phase where both players get
// priority, and a timing class to play there.
const SPEC = `[game]
name = "Studio Sketch"
rule = "1"
players = { min = 2, max = 2 }

[timing.spell]
name = "cast a spell"
description = "Anything a player casts in the main phase."
rule = "2"
who = "active_player"
during = ["main"]

[[phase]]
id = "start"
name = "Start"
rule = "3"
actions = [{ id = "draw", name = "Draw a card", rule = "3.1" }]

[[phase]]
id = "main"
name = "Main"
rule = "4"
priority = "always"
`;

test("studio: an empty spec typed, a mistake shown at its line, fixed, played, saved, its scenario saved and run", async () => {
  await page.goto(URL);
  await page.waitForFunction(() => Number(document.body.dataset.updates || 0) >= 1);
  await page.click("#view-edit");
  assert.ok(await page.isVisible("#edit-view"));
  assert.ok(await page.isHidden("#play-view"));
  await page.click("#edit-new");
  await page.fill("#edit-path", "studio/sketch.toml");
  assert.equal(await page.evaluate(() => studio.editor.text()), "");

  // The spec typed in: it loads, with no problem, and its diagram is drawn.
  await typeInEditor(() => page.keyboard.insertText(SPEC));
  assert.match(await text("#edit-diagnostics"), /no problems/);
  await page.waitForSelector("#edit-diagram svg");
  assert.match(await text("#edit-diagram"), /Main/);
  assert.doesNotMatch(await text("#edit-diagram"), /End/);
  assert.match(await text("#edit-summary"), /Studio Sketch/);

  // Completion offers the keys of the table the cursor is in, with their
  // meaning; hovering a key shows its description.
  await page.keyboard.press("Control+End");
  await page.keyboard.insertText("\n");
  await page.keyboard.press("Control+Space");
  await page.waitForSelector(".cm-tooltip-autocomplete");
  const offered = await page.$$eval(".cm-tooltip-autocomplete li", (ls) => ls.map((l) => l.textContent));
  for (const key of ["between_turns", "optional", "sequence", "step"]) {
    assert.ok(offered.some((o) => o.startsWith(key)), `${key} offered in [[phase]]: ${offered.join(", ")}`);
  }
  assert.ok(!offered.some((o) => o.startsWith("during")), "a timing class's key is not offered in a phase");
  await page.keyboard.press("Escape");
  const at = await page.evaluate(() => {
    const v = studio.editor.view;
    const c = v.coordsAtPos(v.state.doc.toString().indexOf("description =") + 3);
    return { x: c.left + 2, y: (c.top + c.bottom) / 2 };
  });
  await page.mouse.move(at.x, at.y);
  await page.waitForSelector(".ts-hover");
  assert.match(await text(".ts-hover"), /timing\.spell\.description.*For the designer/s);
  await page.mouse.move(0, 0);

  // A mistake: a third phase with a misspelt key. The loader's diagnostic
  // is shown inline at that line, and in the list with its line and column.
  await typeInEditor(async () => {
    await page.keyboard.press("Control+End");
    await page.keyboard.insertText('[[phase]]\nid = "end"\nname = "End"\npriorty = "always"');
  });
  const lines = await page.evaluate(() => studio.editor.text().split("\n").length);
  const item = `#edit-diagnostics li.diagnostic.error[data-line="${lines}"]`;
  await page.waitForSelector(item);
  assert.match(await text(item), new RegExp(`^${lines}:1 error\\[turnspec::unknown-key\\]: .*priorty`));
  assert.match(await text(item), /did you mean `priority`/);
  await page.waitForSelector(".cm-lintRange-error");
  const marked = await page.$eval(".cm-lintRange-error", (e) => e.closest(".cm-line").textContent);
  assert.equal(marked, 'priorty = "always"');
  assert.match(await text("#edit-summary"), /does not load/);

  // Fixed: no problems, and the diagram has the new phase.
  await typeInEditor(async () => {
    await page.keyboard.press("Control+End");
    await page.keyboard.press("Shift+Home");
    await page.keyboard.insertText('priority = "always"');
  });
  assert.match(await text("#edit-diagnostics"), /no problems/);
  assert.equal(await page.$$eval(".cm-lintRange-error", (es) => es.length), 0);
  await page.waitForSelector("#edit-diagram svg");
  assert.match(await text("#edit-diagram"), /End/);
  assert.match(await text("#edit-summary"), /3 phases \(start → main → end\)/);

  // Played without saving: a draft, in the play view.
  await click("#edit-play");
  assert.ok(await page.isVisible("#play-view"));
  await page.waitForSelector('.phase.current[data-phase="main"]');
  assert.equal(await text("#state-holder"), "P1");
  await page.fill("#label", "Lightning");
  await click('#timing [data-timing="spell"]');
  assert.match(await text("#stack"), /Lightning \(P1, spell\)/);
  await passUntil(async () => /^2 /.test(await text("#state-turn")));
  assert.match(await text('.trace[data-side="0"]'), /Draw a card/);

  // Saved: the file is written and the spec joins the list.
  await page.click("#view-edit");
  await studioClick("#edit-save");
  assert.match(await text("#edit-status"), /saved to studio\/sketch\.toml/);
  assert.equal(await fileText("studio/sketch.toml"), await page.evaluate(() => studio.editor.text()));
  assert.match(await page.$$eval("#spec option", (os) => os.map((o) => o.textContent).join("\n")), /Studio Sketch/);
  assert.match(await text("#edit-diff"), /no changes/);

  // Played as saved, and the session saved as a scenario from the play view.
  await click("#edit-play");
  await page.waitForSelector('.phase.current[data-phase="main"]');
  await page.fill("#label", "Lightning");
  await click('#timing [data-timing="spell"]');
  await passUntil(async () => /^2 /.test(await text("#state-turn")));
  await page.fill("#save-name", "studio: a spell in the first turn");
  await page.fill("#save-path", "studio/scenarios/sketch-turn.toml");
  await click("#save");
  assert.match(await text("#save-result"), /passes \(\d+ checks\)/);
  if (STATIC) {
    assert.match(await fileText("studio/scenarios/sketch-turn.toml"), /\[scenario\]/);
  } else {
    const scenario = join(WORK, "studio/scenarios/sketch-turn.toml");
    assert.ok(existsSync(scenario), `${scenario} was written`);
    assert.match(execFileSync(BIN, ["test", scenario], { encoding: "utf8" }), /1 passed, 0 failed, 0 invalid/);
  }

  // The spec's scenarios, run from the editor: the one just saved passes.
  await page.click("#view-edit");
  await studioClick("#edit-scenarios");
  const results = `${await text("#edit-status")} ${await text("#edit-scenario-results")}`;
  assert.match(results, /1 passed, 0 failed/);
  assert.equal(await page.$$eval("#edit-scenario-results .scenario.passed", (ss) => ss.length), 1);
  assert.match(await text("#edit-scenario-results"), /sketch-turn\.toml/);

  // An edit after saving shows in the diff against the saved spec.
  await typeInEditor(async () => {
    await page.keyboard.press("Control+End");
    await page.keyboard.insertText('\n\n[timing.ability]\nname = "use an ability"\nrule = "5"\nwho = "active_player"\nduring = ["main"]\n');
  });
  assert.match(await text("#edit-diagnostics"), /no problems/);
  assert.match(await text("#edit-diff"), /ability/);

  // The saved spec's source, opened again from the picker.
  await page.click("#edit-new");
  assert.equal(await page.evaluate(() => studio.editor.text()), "");
  const saved = await page.$$eval("#spec option", (os) => os.find((o) => o.textContent.endsWith("studio/sketch.toml")).value);
  await settle(() => page.selectOption("#spec", saved));
  await studioClick("#edit-open");
  assert.equal(await page.inputValue("#edit-path"), "studio/sketch.toml");
  assert.equal(await page.evaluate(() => studio.editor.text()), await fileText("studio/sketch.toml"));

  // Download: the text leaves the page as a file named after its path.
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#edit-download")]);
  assert.equal(download.suggestedFilename(), "sketch.toml");
  const downloaded = await download.path();
  assert.equal(readFileSync(downloaded, "utf8"), await fileText("studio/sketch.toml"));
  assert.deepEqual(errors, []);
});
