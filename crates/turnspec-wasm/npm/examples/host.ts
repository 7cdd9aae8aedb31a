// A host written in TypeScript: it loads Magic's turn structure, answers the
// engine's turn-based actions with a tiny board of its own, reports
// triggers, and prints a summary. Type-checked by `tsc --noEmit` in
// `bash scripts/wasm.sh test`; run it with
//   npx tsc -p . --noEmit false --outDir dist && node dist/host.js
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Game, Hooks, loadSpec, Move, State, TraceEvent, TurnspecError } from "..";

const root = join(__dirname, "../../../..");
const spec = loadSpec(readFileSync(join(root, "games/mtg.toml"), "utf8"), "games/mtg.toml");

/** The host's own board: creatures per player; the engine never sees it. */
const creatures: Record<string, number> = { P1: 2, P2: 1 };

const hooks: Hooks = {
  turnAction(ctx) {
    if (ctx.action === "declare_attackers") {
      // Everyone attacks; an attack triggers an ability labelled 100.
      const attackers = creatures[ctx.active] ?? 0;
      return { answer: attackers, triggers: attackers > 0 ? [{ player: ctx.active, label: 100 }] : [] };
    }
    return 0;
  },
  resolved(ctx) {
    if (ctx.object.kind === "trigger" && ctx.object.label === 100) {
      creatures[ctx.object.controller] = (creatures[ctx.object.controller] ?? 0) + 1;
    }
  },
};

const game = new Game(spec, { players: 2, turnLimit: 3, hooks });
while (game.running) {
  const moves: Move[] = game.legalMoves();
  game.apply(moves[0]); // the pass
}
const state: State = game.state();
const events: TraceEvent[] = game.events();
console.log(`${spec.title}: ${state.status} after turn ${state.turn}, ${events.length} events`);
console.log(`creatures: ${JSON.stringify(creatures)}`);

try {
  game.apply({ kind: "pass", by: "P1" });
} catch (e) {
  const err = e as TurnspecError;
  console.log(`${err.name} ${err.code}: ${err.message}`);
}
