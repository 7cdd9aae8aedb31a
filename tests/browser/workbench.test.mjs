// The workbench in a real browser: Debian's Chromium driven by
// playwright-core (which downloads no browser). run.sh starts `turnspec
// serve` and sets TURNSPEC_URL, TURNSPEC_BIN and TURNSPEC_WORK (the folder
// the server runs in, where saved scenarios land).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execFileSync } from "node:child_process";
import { chromium } from "playwright-core";

const URL = process.env.TURNSPEC_URL;
const BIN = process.env.TURNSPEC_BIN;
const WORK = process.env.TURNSPEC_WORK;
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";

let context;
let profile;
let page;

before(async () => {
  assert.ok(URL && BIN && WORK, "run this through tests/browser/run.sh");
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
  page.on("pageerror", (e) => console.error("page error:", e.message));
});

after(async () => {
  await context?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

// Does `action` and waits until the page has finished the update it starts
// (app.js counts finished updates on <body data-updates>). Waiting for the
// server's response instead raced with the drawing, and with the second
// replay the page sends after a refusal.
async function settle(action) {
  const before = Number((await page.getAttribute("body", "data-updates")) || 0);
  await action();
  await page.waitForFunction(
    (n) => Number(document.body.dataset.updates || 0) > n, before);
}

// Clicks and waits for the replay the click asks for.
const click = (selector) => settle(() => page.click(selector));

const text = (selector) => page.textContent(selector);

// Opens the page on a spec (and a second one side by side), its path's end
// as the picker lists it.
async function open(specFile, compareFile) {
  await page.goto(URL);
  // The page has loaded its first spec and drawn its start.
  await page.waitForFunction(() => Number(document.body.dataset.updates || 0) >= 1);
  const pick = async (select, file) => {
    const value = await page.$$eval(`${select} option`, (os, f) =>
      os.find((o) => o.textContent.endsWith(f)).value, file);
    if ((await page.inputValue(select)) === value) return;
    await settle(() => page.selectOption(select, value));
  };
  await pick("#spec", specFile);
  if (compareFile) {
    await pick("#compare", compareFile);
  }
}

// Passes round after round until `done()` holds (at most `limit` rounds).
async function passUntil(done, limit = 40) {
  for (let i = 0; i < limit; i++) {
    if (await done()) return;
    await click("#pass-all");
  }
  assert.fail("passing never got there");
}

async function saveAndTest(path) {
  await page.fill("#save-name", `browser test: ${path}`);
  await page.fill("#save-path", path);
  await click("#save");
  const result = await text("#save-result");
  assert.match(result, /passes \(\d+ checks\)/);
  assert.match(result, /written to/);
  const file = join(WORK, path);
  assert.ok(existsSync(file), `${file} was written`);
  // `turnspec test` runs it as it stands (exit code 0, or execFileSync throws).
  const out = execFileSync(BIN, ["test", file], { encoding: "utf8" });
  assert.match(out, /1 passed, 0 failed, 0 invalid/);
}

test("MTG: a turn clicked through, a refusal with its rule, undo, time travel, saved and run", async () => {
  await open("games/mtg.toml");
  assert.match(await text("#state-turn"), /^1 /);
  // The diagram highlights where the game stands: the upkeep, P1 holding priority.
  await page.waitForSelector('.phase.current[data-phase="beginning"] .step.current[data-step="upkeep"]');
  assert.equal(await text("#state-holder"), "P1");

  // P2 may not pass: the refusal cites the rule.
  await page.selectOption("#actor", "P2");
  await click("#pass");
  assert.ok(await page.isVisible("#refusal"));
  assert.match(await text("#refusal"), /P2 does not hold priority.*\(rule \S+\) \(not_holder\)/);
  // The rule once, not twice.
  assert.equal((await text("#refusal")).match(/rule/g).length, 1);

  await click("#pass-all");
  assert.match(await text("#state-phase"), /precombat_main/);
  await page.waitForSelector('.phase.current[data-phase="precombat_main"]');
  // The skipped draw is in the trace with its rule.
  assert.match(await text('.trace[data-side="0"]'), /Draw step skipped \[103\.8a\]/);

  // An empty stack says so, without a number.
  assert.equal(await page.$$eval("#stack li", (ls) => ls.length), 0);
  assert.match(await text("#stack"), /^empty$/);
  // A label as typed, with a tab and spaces around: played as one line.
  await page.fill("#label", "  Grizzly\tBears ");
  await click('#timing [data-timing="sorcery"]');
  assert.match(await text("#stack"), /Grizzly Bears \(P1, sorcery\)/);
  // The top of the stack is marked.
  assert.match(await text("#stack li.top"), /Grizzly Bears.*top/);
  // A second sorcery while the first is on the stack is refused.
  await page.fill("#label", "Divination");
  assert.equal(await page.getAttribute('#timing [data-timing="sorcery"]', "class"), "refused");
  await click('#timing [data-timing="sorcery"]');
  assert.match(await text("#refusal"), /\(rule \S+\) \(stack_not_empty\)/);
  assert.doesNotMatch(await text("#stack"), /Divination/);

  // A label a scenario cannot carry is refused with its reason.
  await page.fill("#label", "x".repeat(101));
  await click('#timing [data-timing="instant"]');
  assert.match(await text("#refusal"), /longer than 100 characters.*\(bad_label\)/);
  assert.equal(await page.$$eval("#stack li", (ls) => ls.length), 1);

  // Undo takes the Bears back; play them again and let them resolve.
  await click("#undo");
  assert.match(await text("#stack"), /empty/);
  await page.fill("#label", "Grizzly Bears");
  await click('#timing [data-timing="sorcery"]');
  await click("#pass-all");
  assert.match(await text("#stack"), /empty/);
  assert.match(await text('.trace[data-side="0"]'), /Grizzly Bears/);

  // The host answers the declaration of attackers: one attacker.
  await page.selectOption("#answer-action", "declare_attackers");
  await page.fill("#answer-value", "1");
  await click("#answer");
  assert.match(await text("#state-queued"), /declare_attackers = 1/);
  await passUntil(async () => /combat_damage/.test(await text("#state-step")));
  await page.waitForSelector('.phase.current[data-phase="combat"] .step.current[data-step="combat_damage"]');
  await passUntil(async () => /^2 /.test(await text("#state-turn")));
  // After all these moves the page has not scrolled: the diagram and the
  // buttons are still in view, the trace scrolls in its own box.
  assert.equal(await page.evaluate(() => window.scrollY), 0);
  const pass = await page.locator("#pass-all").boundingBox();
  assert.ok(pass && pass.y >= 0 && pass.y + pass.height <= 1000, `Pass round in view: ${JSON.stringify(pass)}`);

  // Time travel: back to before the third move (the Bears), then on again.
  await click('[data-move="2"] button.back');
  assert.match(await text("#state-phase"), /precombat_main/);
  assert.equal(await page.$$eval('.trace[data-side="0"] .move', (ms) => ms.length), 2);
  await page.fill("#label", "Grizzly Bears");
  await click('#timing [data-timing="sorcery"]');
  await passUntil(async () => /^2 /.test(await text("#state-turn")));

  await saveAndTest("scenarios/mtg-turn.toml");
});

test("Grand Archive: no attack on the first turn, an attack starts combat, saved and run", async () => {
  await open("games/grand-archive.toml");
  await page.waitForSelector('.phase.current[data-phase="main"]');
  assert.equal(await text("#state-holder"), "P1");
  await page.fill("#label", "Lorraine");
  await click('#timing [data-timing="attack"]');
  assert.match(await text("#refusal"), /requirement/);

  await passUntil(async () => /^2 /.test(await text("#state-turn")) && /main/.test(await text("#state-phase")));
  await page.selectOption("#actor", "P2");
  await page.fill("#label", "Lorraine");
  await click('#timing [data-timing="attack"]');
  await page.waitForSelector('.phase.current[data-phase="combat"]');
  assert.match(await text('.trace[data-side="0"]'), /Lorraine/);
  await passUntil(async () => /^3 /.test(await text("#state-turn")));

  await saveAndTest("scenarios/grand-archive-turn.toml");
});

test("Lorcana: the host sets lore, 20 wins; an ending declared; saved and run", async () => {
  await open("games/lorcana.toml");
  await page.selectOption("#counter", "lore");
  await page.selectOption("#counter-by", "P2");
  await page.fill("#counter-value", "7");
  await click("#set-counter");
  assert.match(await text('#counters [data-counter="lore"]'), /P1: 0, P2: 7/);
  assert.match(await text("#state-status"), /^running/);
  await page.selectOption("#counter-by", "P1");
  await page.fill("#counter-value", "20");
  await click("#set-counter");
  assert.match(await text("#state-status"), /^over: P1 won \(rule 1\.8\.1\.1\)/);
  assert.match(await text('.trace[data-side="0"]'), /twenty_lore|20 lore|lore/i);
  await saveAndTest("scenarios/lorcana-lore.toml");

  // Undo the win; P2 draws from an empty deck instead: P1 wins (1.8.1.3).
  await click("#undo");
  assert.match(await text("#state-status"), /^running/);
  await page.selectOption("#ending", "empty_deck");
  await page.selectOption("#ending-by", "P2");
  await click("#declare-ending");
  assert.match(await text("#state-status"), /^over: P1 won/);
});

test("two specs side by side: the first diverging event is marked", async () => {
  await open("games/mtg.toml", "games/mtg-classic.toml");
  assert.equal(await page.$$eval(".trace", (ts) => ts.length), 2);
  assert.ok(await page.isHidden("#divergence"));
  await page.selectOption("#answer-action", "declare_attackers");
  await page.fill("#answer-value", "1");
  await click("#answer");
  await passUntil(async () => page.isVisible("#divergence"));
  assert.match(await text("#divergence"), /First difference at event \d+/);
  const marked = await page.$$eval(".event.diverge", (es) => es.map((e) => e.dataset.line));
  assert.equal(marked.length, 2);
  assert.notEqual(marked[0], marked[1]);
});

test("the diagram: no stray null, timing classes only where someone gets priority, conditions shown", async () => {
  await open("games/mtg.toml");
  // Nobody gets priority in the untap step: no "may play" there.
  assert.equal(await page.$$eval('[data-step="untap"] .timing-tags', (ts) => ts.length), 0);
  assert.match(await text('[data-step="upkeep"] .timing-tags'), /may play: instant/);
  for (const file of ["games/mtg.toml", "games/pokemon-tcg.toml", "games/lorcana.toml", "games/grand-archive.toml"]) {
    await open(file);
    assert.doesNotMatch(await text("#diagram"), /null|undefined/, file);
  }
  // A dashed (conditional) step says when it happens.
  await open("games/mtg.toml");
  const dashed = await page.$$eval(".step.conditional", (ss) => ss.map((s) => s.textContent));
  assert.ok(dashed.length > 0);
  assert.ok(dashed.every((t) => /(only|skipped) if/.test(t)), dashed.join(" | "));
});

test("a narrow window (400 px): one column, nothing cut off", async () => {
  await page.setViewportSize({ width: 400, height: 800 });
  try {
    await open("games/mtg.toml");
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 400, `page is ${width} px wide`);
    for (const id of ["#pass-all", "#timing button", "#save", "#spec"]) {
      const box = await page.locator(id).first().boundingBox();
      assert.ok(box && box.x >= 0 && box.x + box.width <= 400, `${id} within 400 px: ${JSON.stringify(box)}`);
    }
    await click("#pass-all");
    assert.match(await text("#state-phase"), /precombat_main/);
  } finally {
    await page.setViewportSize({ width: 1500, height: 1000 });
  }
});

test("MTG objects: summoning sickness by the chosen object, control, facts, saved and run", async () => {
  await open("games/mtg.toml");
  assert.ok(await page.isVisible("#object-host"));
  assert.match(await text("#objects"), /none/);
  // A by-object class with nothing in play says so.
  assert.match(await text('#timing [data-timing="tap_ability"]'), /no object in play/);

  await page.fill("#object-name", "Llanowar Elves");
  await page.selectOption("#object-by", "P1");
  await click("#enter-object");
  await page.selectOption("#object-fact", "creature");
  await click("#set-object-fact");
  const row = '#objects [data-object="Llanowar Elves"]';
  assert.match(await text(row), /Llanowar Elves.*P1.*turn 1.*turn 1.*creature/);

  await page.fill("#object-name", "Forest");
  await click("#enter-object");
  // The elves are summoning sick: refused, citing 302.6, for them only.
  await page.selectOption("#play-object", "Llanowar Elves");
  assert.equal(await page.getAttribute('#timing [data-timing="tap_ability"]', "class"), "refused");
  assert.match(await page.getAttribute('#timing [data-timing="tap_ability"]', "title"), /302\.6/);
  await click('#timing [data-timing="tap_ability"]');
  assert.match(await text("#refusal"), /rule 302\.6/);
  await page.selectOption("#play-object", "Forest");
  assert.equal(await page.getAttribute('#timing [data-timing="tap_ability"]', "class"), "legal");
  await click('#timing [data-timing="tap_ability"]');
  assert.match(await text("#stack"), /Forest \(P1, tap_ability\)/);
  await click("#pass-all");

  // P2 gains control of the elves; the fact is cleared; the Forest leaves.
  await page.selectOption("#object-pick", "Llanowar Elves");
  await page.selectOption("#control-by", "P2");
  await click("#gain-control");
  assert.match(await text(row), /P2/);
  await click("#clear-object-fact");
  assert.match(await text(row), /none$/);
  await page.selectOption("#object-pick", "Forest");
  await click("#leave-object");
  assert.equal(await page.$$eval("#objects [data-object]", (rs) => rs.length), 1);
  assert.match(await text('.trace[data-side="0"]'), /Llanowar Elves/);

  await saveAndTest("scenarios/mtg-objects.toml");
  const toml = await text("#save-toml");
  for (const verb of ["enter = \"Llanowar Elves\"", "gain_control = \"Llanowar Elves\"",
    "leave_play = \"Forest\"", "set_fact = \"creature\"", "clear_fact = \"creature\"", "label = \"Forest\""]) {
    assert.ok(toml.includes(verb), verb);
  }
});

test("a spec without [objects] shows no object controls", async () => {
  await open("games/grand-archive.toml");
  assert.ok(await page.isHidden("#object-host"));
  assert.ok(await page.isHidden("#objects-panel"));
  assert.ok(await page.isHidden("#play-object-row"));
});

test("stops: markers per player on the diagram, pass to next stop and its reason, a marker off, end of turn", async () => {
  await open("games/mtg.toml");
  await click("#new-game");
  const marker = (at, player) => `#diagram [data-stop="${at}"][data-player="${player}"]`;
  // Markers show on every step with a priority window, one per player, off.
  assert.ok(await page.isVisible(marker("upkeep", "P1")));
  assert.ok(await page.isVisible(marker("end", "P2")));
  assert.equal(await page.$(marker("untap", "P1")), null, "the untap step has no priority window");
  assert.equal(await page.$$eval("#diagram .stop-toggle.on", (b) => b.length), 0);

  // P1 stops in the precombat main phase (a phase without steps); P2 at the
  // beginning of combat and in the end step.
  await click(marker("precombat_main", "P1"));
  await click(marker("beginning_of_combat", "P2"));
  await click(marker("end", "P2"));
  assert.equal(await page.getAttribute(marker("end", "P2"), "aria-pressed"), "true");
  assert.equal(await page.getAttribute(marker("end", "P1"), "aria-pressed"), "false");
  assert.equal(await page.$$eval("#diagram .stop-toggle.on", (b) => b.length), 3);

  await click("#pass-to-stop");
  assert.equal(await text("#stopped"), "Stopped: stop P1 precombat_main always");
  await page.waitForSelector('.phase.current[data-phase="precombat_main"]');
  assert.equal(await text("#state-holder"), "P1");

  await click("#pass-to-stop");
  assert.equal(await text("#stopped"), "Stopped: stop P2 beginning_of_combat always");
  await page.waitForSelector('.step.current[data-step="beginning_of_combat"]');
  assert.equal(await text("#state-holder"), "P2");

  // P2's marker at the beginning of combat off: the same moves stop at the end step.
  await click(marker("beginning_of_combat", "P2"));
  assert.equal(await page.getAttribute(marker("beginning_of_combat", "P2"), "aria-pressed"), "false");
  assert.equal(await text("#stopped"), "Stopped: stop P2 end always");
  await page.waitForSelector('.step.current[data-step="end"]');
  assert.match(await text("#state-turn"), /^1 /);
  assert.match(await text('.trace[data-side="0"]'), /P1 passes to next stop/);

  // P2 passes to the end of the turn: asked again at their first priority in turn 2.
  await click("#pass-to-eot");
  assert.equal(await text("#stopped"), "Stopped: turn_ended P2");
  assert.match(await text("#state-turn"), /^2 \(.*P2\)/);
  await page.waitForSelector('.step.current[data-step="upkeep"]');

  // Saved with the markers as stop profile files beside the scenario, and run.
  await saveAndTest("scenarios/browser-stops.toml");
  assert.match(await text("#save-result"), /stop profiles scenarios\/browser-stops\.stops-P1\.toml, scenarios\/browser-stops\.stops-P2\.toml/);
  assert.ok(existsSync(join(WORK, "scenarios/browser-stops.stops-P2.toml")));

  // Reset: no markers, so nobody has a profile and the same moves stop at
  // the next priority; another move clears the reason line.
  await click("#reset-stops");
  assert.equal(await page.$$eval("#diagram .stop-toggle.on", (b) => b.length), 0);
  assert.match(await text("#stopped"), /^Stopped: no_profile P\d$/);
  await click("#pass-all");
  assert.ok(!(await page.isVisible("#stopped")));
});
