// The npm package's tests (node --test): specs, games, hooks written in
// JavaScript, errors, snapshots, and traces equal to the native command's.
// Run by `bash scripts/wasm.sh test` after it built pkg/.
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
const { execFileSync } = require("node:child_process");
const turnspec = require("..");

const root = path.resolve(__dirname, "../../../..");
const read = (p) => fs.readFileSync(path.join(root, p), "utf8");
const mtg = turnspec.loadSpec(read("games/mtg.toml"), "games/mtg.toml");

/** Passes until the game is at turn `turn` (or stops). */
function passUntilTurn(game, turn) {
  let moves = 0;
  while (game.running && game.turn < turn) {
    game.apply("pass");
    moves += 1;
  }
  return moves;
}

/** The native `turnspec` binary: TURNSPEC_BIN, else cargo run. */
function nativeTrace(args) {
  const bin = process.env.TURNSPEC_BIN;
  const out = bin
    ? execFileSync(bin, args, { cwd: root, encoding: "utf8" })
    : execFileSync("cargo", ["run", "--quiet", "--release", "--locked", "-p", "turnspec-cli", "--", ...args], {
        cwd: root,
        encoding: "utf8",
      });
  return out
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l))
    .filter((e) => e.event !== "game");
}

test("a spec loads with its ids", () => {
  assert.match(mtg.title, /Magic/);
  assert.equal(mtg.path, "games/mtg.toml");
  assert.ok(mtg.phases.includes("combat"));
  assert.ok(mtg.steps.includes("declare_attackers"));
  assert.ok(mtg.timingClasses.includes("instant"));
  assert.ok(mtg.turnActions.includes("declare_attackers"));
  assert.match(mtg.fingerprint, /^[0-9a-f]{16}$/);
  assert.ok(Array.isArray(mtg.warnings));
  assert.equal(mtg.minPlayers, 2);
});

test("a spec that extends another reads it from the files given", () => {
  const spec = turnspec.loadSpec(read("games/mtg-2024.toml"), "games/mtg-2024.toml", {
    "games/mtg.toml": read("games/mtg.toml"),
  });
  assert.match(spec.title, /Magic/);
  assert.throws(
    () => turnspec.loadSpec(read("games/mtg-2024.toml"), "games/mtg-2024.toml"),
    (e) => e.name === "SpecError" && e.diagnostics.length > 0,
  );
});

test("all-pass Magic turns, with rule citations in the trace", () => {
  const game = new turnspec.Game(mtg, { players: 2 });
  assert.equal(game.holder, "P1");
  const moves = passUntilTurn(game, 4);
  assert.ok(moves > 20, `${moves} passes for three turns`);
  assert.equal(game.turn, 4);
  const events = game.events();
  const turns = events.filter((e) => e.event === "turn_began");
  assert.deepEqual(
    turns.map((e) => e.turn),
    [1, 2, 3, 4],
  );
  const phase = events.find((e) => e.event === "phase_began");
  assert.equal(phase.phase, "beginning");
  assert.equal(phase.rule, "501.1");
  assert.ok(events.filter((e) => typeof e.rule === "string").length > events.length / 2);
  assert.deepEqual(game.events(), [], "events() empties the buffer");
  const state = game.state();
  assert.equal(state.status, "running");
  assert.equal(state.turn, 4);
  assert.equal(state.holder, game.holder);
});

test("legal moves are moves apply takes", () => {
  const game = new turnspec.Game(mtg);
  const moves = game.legalMoves();
  assert.deepEqual(moves[0], { kind: "pass", by: "P1" });
  assert.ok(moves.some((m) => m.kind === "play" && m.timing === "instant"));
  assert.deepEqual(game.legalMoves("P2"), [], "P2 does not hold priority");
  const play = moves.find((m) => m.kind === "play");
  assert.ok(game.isLegal(play));
  game.apply({ ...play, label: 7 });
  assert.deepEqual(game.state().stack, [{ controller: "P1", kind: "instant", label: 7 }]);
});

test("a refused move throws a typed error and leaves the game unchanged", () => {
  const game = new turnspec.Game(mtg);
  game.apply("pass");
  game.events();
  const before = game.toBytes();
  const state = game.state();
  assert.throws(
    () => game.apply({ kind: "pass", by: "P1" }),
    (e) => {
      assert.ok(e instanceof Error);
      assert.equal(e.name, "IllegalMove");
      assert.equal(e.code, "rule::not_holder");
      assert.equal(e.reason, "not_holder");
      assert.equal(e.rule, "117.1");
      assert.match(e.message, /P1 does not hold priority/);
      return true;
    },
  );
  assert.throws(
    () => game.apply({ kind: "play", timing: "sorcery" }),
    (e) => e.name === "IllegalMove" && e.code.startsWith("rule::"),
  );
  assert.throws(
    () => game.apply({ kind: "play", timing: "warp_speed" }),
    (e) => e.name === "MoveError" && e.code === "protocol::unknown_name",
  );
  assert.throws(() => game.apply({ kind: "fly" }), (e) => e.name === "MoveError" && e.code === "protocol::bad_request");
  assert.throws(() => game.apply(42), (e) => e.name === "MoveError");
  assert.throws(() => game.apply({ kind: "pass", by: "P9" }), (e) => e.code === "protocol::unknown_player");
  assert.equal(game.isLegal({ kind: "pass", by: "P1" }), false);
  assert.deepEqual(game.toBytes(), before);
  assert.deepEqual(game.state(), state);
  assert.deepEqual(game.events(), []);
  game.apply({ kind: "pass", by: "P2" });
});

test("host commands are moves too", () => {
  const game = new turnspec.Game(mtg);
  game.apply({ kind: "answer", action: "declare_attackers", value: 1 });
  assert.equal(game.state().queued_answers, 1);
  game.events();
  game.apply({ kind: "trigger", label: 5, by: "P2" });
  assert.deepEqual(game.events(), [{ event: "trigger_put", controller: "P2", kind: "trigger", label: 5 }]);
  game.apply("pass_all");
  const resolved = game.events().find((e) => e.event === "resolve");
  assert.deepEqual(resolved, { event: "resolve", controller: "P2", kind: "trigger", label: 5, rule: "117.4" });
  passUntilTurn(game, 2);
  assert.equal(game.state().queued_answers, 0, "the queued answer was used in turn 1's combat");
  assert.throws(() => game.apply({ kind: "set_fact", fact: "nope" }), (e) => e.code === "protocol::unknown_name");
});

test("a turnAction answer changes the trace", () => {
  const calls = [];
  const attacking = new turnspec.Game(mtg, {
    hooks: {
      turnAction(ctx) {
        calls.push(ctx);
        return ctx.action === "declare_attackers" ? 2 : 0;
      },
    },
  });
  const quiet = new turnspec.Game(mtg);
  passUntilTurn(attacking, 2);
  passUntilTurn(quiet, 2);
  const steps = (g) => g.events().filter((e) => e.event === "step_began").map((e) => e.step);
  const a = steps(attacking);
  const q = steps(quiet);
  assert.ok(a.includes("declare_blockers") && a.includes("combat_damage"), a.join(" "));
  assert.ok(!q.includes("declare_blockers"), q.join(" "));
  const declare = calls.find((c) => c.action === "declare_attackers");
  assert.deepEqual(Object.keys(declare).sort(), ["action", "active", "phase", "repeat", "step", "turn"]);
  assert.equal(declare.active, "P1");
  assert.equal(declare.step, "declare_attackers");
});

test("hooks report triggers, with this the hooks object", () => {
  const hooks = {
    seen: [],
    stepBegan(ctx) {
      this.seen.push(ctx.step);
      return ctx.step === "upkeep" && ctx.turn === 2 ? [{ player: "P2", label: 100 }] : undefined;
    },
    resolved(ctx) {
      this.seen.push(`resolved #${ctx.object.label}`);
      return ctx.object.label === 100 ? [{ player: ctx.object.controller, label: 101 }] : [];
    },
    played(ctx) {
      this.seen.push(`played ${ctx.timing} #${ctx.label}`);
    },
  };
  const game = new turnspec.Game(mtg, { hooks });
  passUntilTurn(game, 2);
  assert.deepEqual(game.state().stack, [{ controller: "P2", kind: "trigger", label: 100 }]);
  game.apply("pass");
  game.apply("pass");
  assert.deepEqual(game.state().stack, [{ controller: "P2", kind: "trigger", label: 101 }]);
  game.apply({ kind: "play", timing: "instant", label: 9 });
  assert.ok(hooks.seen.includes("resolved #100"));
  assert.ok(hooks.seen.includes("played instant #9"));
  assert.ok(hooks.seen.includes("untap"));
});

test("a throwing hook throws from apply, and the game goes on", () => {
  const boom = new Error("boom");
  let throwing = true;
  const game = new turnspec.Game(mtg, {
    hooks: {
      turnAction(ctx) {
        if (throwing && ctx.action === "declare_attackers") throw boom;
        return ctx.action === "declare_attackers" ? 1 : 0;
      },
    },
  });
  let caught = null;
  while (caught === null && game.turn < 2) {
    try {
      game.apply("pass");
    } catch (e) {
      caught = e;
    }
  }
  assert.equal(caught, boom, "the very exception the hook threw");
  assert.equal(game.running, true);
  assert.equal(game.step, "declare_attackers", "the move went on to the next decision, the answer 0");
  assert.ok(game.legalMoves().length > 0);
  throwing = false;
  passUntilTurn(game, 3);
  assert.equal(game.turn, 3);
  assert.throws(
    () => new turnspec.Game(mtg, { hooks: { stepBegan: () => "nope" } }),
    (e) => e.name === "HostError",
  );
  assert.throws(
    () => new turnspec.Game(mtg, { hooks: { turnAction: 3 } }),
    (e) => e.name === "HostError",
  );
});

test("a trigger for a player not in the game is a HostError", () => {
  const game = new turnspec.Game(mtg);
  game.setHooks({ stepBegan: () => [{ player: "P7", label: 1 }] });
  assert.throws(() => passUntilTurn(game, 2), (e) => e.name === "HostError" && /not in the game/.test(e.message));
  game.setHooks(null);
  passUntilTurn(game, 2);
  assert.equal(game.turn, 2);
});

test("snapshots round trip, and bad bytes are a SnapshotError", () => {
  const game = new turnspec.Game(mtg);
  passUntilTurn(game, 2);
  game.apply({ kind: "play", timing: "instant", label: 3 });
  const bytes = game.toBytes();
  assert.ok(bytes instanceof Uint8Array);
  const again = turnspec.Game.fromBytes(mtg, bytes);
  assert.deepEqual(again.toBytes(), bytes);
  assert.deepEqual(again.state(), game.state());
  game.events();
  passUntilTurn(game, 3);
  passUntilTurn(again, 3);
  assert.deepEqual(again.events(), game.events());
  assert.throws(() => turnspec.Game.fromBytes(mtg, bytes.slice(0, 10)), (e) => e.name === "SnapshotError");
  const other = turnspec.loadSpec(read("games/mtg-2011.toml"), "games/mtg-2011.toml");
  assert.throws(() => turnspec.Game.fromBytes(other, bytes), (e) => e.name === "SnapshotError");
});

test("clone is independent", () => {
  const game = new turnspec.Game(mtg);
  const copy = game.clone();
  passUntilTurn(copy, 3);
  assert.equal(game.turn, 1);
  assert.equal(copy.turn, 3);
});

test("playTurns plays in WebAssembly", () => {
  const game = new turnspec.Game(mtg, { recordEvents: false });
  const decisions = game.playTurns(10);
  assert.equal(game.turn, 11);
  assert.ok(decisions > 100);
  assert.deepEqual(game.events(), []);
  const busy = new turnspec.Game(mtg);
  assert.ok(busy.playTurns(2, "busy") > 0);
  const random = new turnspec.Game(mtg);
  random.playTurns(3, "random", 7);
  const again = new turnspec.Game(mtg);
  again.playTurns(3, "random", 7);
  assert.deepEqual(again.events(), random.events());
  assert.throws(() => game.playTurns(1, "greedy"), (e) => e.name === "MoveError");
});

test("an invalid spec throws every diagnostic, with line and column", () => {
  const text = '[game]\nname = "Broken"\nnmae = 1\n';
  assert.throws(
    () => turnspec.loadSpec(text, "broken.toml"),
    (e) => {
      assert.equal(e.name, "SpecError");
      assert.ok(e.diagnostics.length >= 1);
      const d = e.diagnostics.find((x) => x.code === "turnspec::unknown-key");
      assert.ok(d, JSON.stringify(e.diagnostics));
      assert.equal(d.file, "broken.toml");
      assert.equal(d.line, 3);
      assert.equal(d.column, 1);
      assert.equal(d.severity, "error");
      assert.match(d.help, /name/);
      assert.equal(typeof e.line, "number");
      assert.equal(typeof e.column, "number");
      assert.equal(e.code, e.diagnostics.find((x) => x.severity === "error").code);
      return true;
    },
  );
  const diagnostics = turnspec.check(text, "broken.toml");
  assert.ok(diagnostics.some((d) => d.code === "turnspec::unknown-key"));
  assert.deepEqual(turnspec.check(read("games/mtg.toml"), "games/mtg.toml").filter((d) => d.severity === "error"), []);
  assert.throws(() => turnspec.loadSpec("not toml [", "x.toml"), (e) => e.name === "SpecError" && e.line === 1);
});

test("bad options are errors, never panics", () => {
  assert.throws(() => new turnspec.Game(mtg, { players: 1 }), (e) => e.name === "SetupError");
  assert.throws(() => new turnspec.Game(mtg, { players: 900 }), (e) => e.name === "SetupError");
  assert.throws(() => new turnspec.Game(mtg, { variants: ["nope"] }), (e) => e.code === "protocol::unknown_name");
  assert.throws(() => new turnspec.Game(mtg, { colour: "red" }), (e) => e.name === "SetupError");
  const four = new turnspec.Game(mtg, { players: 4, startingPlayer: "P3", turnLimit: 1 });
  assert.equal(four.activePlayer, "P3");
  passUntilTurn(four, 5);
  assert.equal(four.status, "turn_limit");
  assert.deepEqual(four.legalMoves(), []);
  assert.throws(() => four.apply("pass"), (e) => e.code === "protocol::no_holder");
});

test("the same moves give the native command's trace (all-pass and busy)", () => {
  const game = new turnspec.Game(mtg, { turnLimit: 2 });
  passUntilTurn(game, 99);
  assert.equal(game.status, "turn_limit");
  assert.deepEqual(game.events(), nativeTrace(["run", "games/mtg.toml", "--turns", "2", "--format", "json"]));

  const busy = new turnspec.Game(mtg, { turnLimit: 3 });
  busy.playTurns(99, "busy");
  assert.deepEqual(
    busy.events(),
    nativeTrace(["run", "games/mtg.toml", "--turns", "3", "--policy", "busy", "--format", "json"]),
  );
});

test("the studio answers the workbench's routes over files in memory", () => {
  const studio = new turnspec.Studio({ "games/mtg.toml": read("games/mtg.toml") });
  const specs = studio.call("GET", "/api/specs");
  assert.equal(specs.status, 200);
  assert.equal(specs.body.specs.length, 1);
  const text = read("games/mtg-2024.toml");
  const checked = studio.call("POST", "/api/check", JSON.stringify({ text: "[game\n" }));
  assert.equal(checked.status, 200);
  assert.equal(checked.body.ok, false);
  const saved = studio.call("POST", "/api/spec/save", JSON.stringify({ path: "games/mtg-2024.toml", text }));
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
  assert.equal(studio.files()["games/mtg-2024.toml"], text);
  assert.equal(studio.call("GET", "/api/specs").body.specs.length, 2);
  const open = studio.call("POST", "/api/session", JSON.stringify({ spec: 0, players: 2 }));
  assert.equal(open.status, 200, JSON.stringify(open.body));
  const moved = studio.call("POST", `/api/session/${open.body.session}/move`, JSON.stringify({ kind: "pass_all" }));
  assert.equal(moved.status, 200, JSON.stringify(moved.body));
  assert.equal(moved.body.refused, undefined);
  const missing = studio.call("GET", "/api/nowhere");
  assert.equal(missing.status, 404);
  assert.equal(typeof missing.body.error, "string");
  assert.equal(studio.call("POST", "/api/check", "not json").status, 400);
});
