// Drives `turnspec play SPEC --protocol jsonl` from Node (no npm
// packages): docs/protocol.md. All-pass Magic turns with legal moves
// checked, an illegal move and malformed lines answered with typed errors
// and the game unchanged, a snapshot/restore round trip.
//
//   node tests/protocol/drive.mjs
//
// The binary is $TURNSPEC_BIN, else target/release/turnspec; the spec is
// $TURNSPEC_SPEC, else games/mtg.toml.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const bin = process.env.TURNSPEC_BIN || join(root, "target", "release", "turnspec");
const spec = process.env.TURNSPEC_SPEC || join(root, "games", "mtg.toml");

/** One `turnspec play` process: send a line, await its response line. */
class Turnspec {
  constructor() {
    this.proc = spawn(bin, ["play", spec, "--protocol", "jsonl"], {
      cwd: root,
      stdio: ["pipe", "pipe", "inherit"],
    });
    this.waiting = [];
    this.nextId = 0;
    createInterface({ input: this.proc.stdout }).on("line", (line) => {
      const resolve = this.waiting.shift();
      assert.ok(resolve, `an answer nobody asked for: ${line}`);
      resolve(JSON.parse(line));
    });
    this.exited = new Promise((resolve) => this.proc.on("exit", resolve));
  }

  line(text) {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.proc.stdin.write(text + "\n");
    });
  }

  async send(op, fields = {}) {
    const id = ++this.nextId;
    const response = await this.line(JSON.stringify({ v: 1, id, op, ...fields }));
    assert.equal(response.v, 1);
    assert.equal(response.id, id);
    return response;
  }

  async ok(op, fields) {
    const r = await this.send(op, fields);
    assert.ok("ok" in r, `${op} ${JSON.stringify(fields)} -> ${JSON.stringify(r)}`);
    return r.ok;
  }

  async error(op, fields) {
    const r = await this.send(op, fields);
    assert.ok("error" in r && !("ok" in r), JSON.stringify(r));
    return r.error;
  }

  async close() {
    this.proc.stdin.end();
    assert.equal(await this.exited, 0);
  }
}

const t = new Turnspec();
const hello = await t.ok("hello");
assert.equal(hello.protocol, 1);
assert.equal(hello.spec, "Magic: The Gathering");
assert.match(hello.fingerprint, /^[0-9a-f]{16}$/);

let state = await t.ok("new_game", { players: 2 });
assert.equal(state.turn, 1);
assert.equal(state.holder, "P1");

// Two all-pass turns, one pass per request, legal moves checked first.
let passes = 0;
while (state.turn < 3) {
  const legal = await t.ok("legal_moves");
  assert.equal(legal.player, state.holder);
  assert.deepEqual(legal.moves[0], { kind: "pass", by: state.holder });
  state = (await t.ok("apply", { move: { kind: "pass", by: state.holder } })).state;
  assert.ok(++passes < 100);
}
const trace = await t.ok("trace");
const kinds = trace.events.map((e) => e.event);
assert.equal(kinds[0], "turn_began");
assert.equal(kinds.filter((k) => k === "turn_began").length, 3);
assert.ok(trace.events.some((e) => e.event === "step_began" && e.step === "upkeep" && e.rule === "503"));

// An illegal move: a typed error with its rule; the game is unchanged.
const before = await t.ok("state");
const { snapshot } = await t.ok("snapshot");
const other = before.holder === "P1" ? "P2" : "P1";
const illegal = await t.error("apply", { move: { kind: "pass", by: other } });
assert.equal(illegal.code, "rule::not_holder");
assert.equal(typeof illegal.rule, "string");
assert.deepEqual(await t.ok("state"), before);
assert.equal((await t.ok("snapshot")).snapshot, snapshot);

// Malformed lines.
for (const [text, code] of [
  ["{not json", "protocol::malformed_json"],
  ['"a string"', "protocol::malformed_json"],
  ['{"v": 1}', "protocol::bad_request"],
  ['{"v": 1, "op": "apply", "move": {"kind": "pass", "by": 2}}', "protocol::bad_request"],
  ['{"v": 1, "op": "apply", "move": {"kind": "set_fact", "fact": "no_such_fact"}}', "protocol::unknown_name"],
  ['{"v": 3, "op": "hello"}', "protocol::unsupported_version"],
]) {
  const r = await t.line(text);
  assert.equal(r.error?.code, code, `${text} -> ${JSON.stringify(r)}`);
}
assert.deepEqual(await t.ok("state"), before);

// Snapshot and restore: the same game again.
const later = [];
for (let i = 0; i < 12; i++) later.push(await t.ok("apply", { move: { kind: "pass" } }));
assert.deepEqual(await t.ok("restore", { snapshot }), before);
for (let i = 0; i < 12; i++) assert.deepEqual(await t.ok("apply", { move: { kind: "pass" } }), later[i]);

await t.close();
console.log(`node: ok (${passes} passes to turn 3, errors typed, snapshot round trip)`);
