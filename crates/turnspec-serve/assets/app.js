// turnspec workbench: the page keeps the list of moves; the server replays
// them and answers with the state, the trace and what may be done next.
"use strict";

const $ = (id) => document.getElementById(id);
const el = (tag, attrs = {}, ...children) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null) e.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined) e.append(c);
  return e;
};
const rule = (r) => (r ? el("span", { class: "rule" }, ` [${r}]`) : null);

const session = { specs: [], details: null, moves: [], last: null };

async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  };
  const response = await fetch(path, init);
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

// Counts finished updates (a replay drawn, or a save answered) on <body
// data-updates>, so a test driver can wait for the page to settle instead
// of for a response the page has not drawn yet.
function settled() {
  document.body.dataset.updates = String(Number(document.body.dataset.updates || 0) + 1);
}

function showError(message) {
  $("error").hidden = !message;
  $("error").textContent = message || "";
}

function setup() {
  const variants = [...document.querySelectorAll("#variants input:checked")].map((i) => i.value);
  const compare = $("compare").value;
  return {
    spec: Number($("spec").value),
    players: Number($("players").value),
    variants,
    compare: compare === "" ? null : Number(compare),
  };
}

async function loadSpec() {
  const index = Number($("spec").value);
  session.details = await api(`/api/specs/${index}`);
  const d = session.details;
  $("players").min = d.min_players;
  $("players").max = d.max_players;
  if (Number($("players").value) < d.min_players || Number($("players").value) > d.max_players) {
    $("players").value = d.min_players;
  }
  $("variants").replaceChildren(...d.variants.map((v) =>
    el("label", { title: v.description }, el("input", { type: "checkbox", value: v.id }), ` ${v.name}`)));
  $("answer-action").replaceChildren(...d.turn_actions.map((a) =>
    el("option", { value: a.id }, `${a.name} (${a.id})${a.takes_answer ? `, answer ≤ ${a.answer_max}` : ""}`)));
  $("effect").replaceChildren(...d.effects.map((e) => el("option", { value: e.id }, `${e.name} (${e.id})`)));
  $("apply-effect").disabled = d.effects.length === 0;
  $("stack-title").textContent = d.terms.stack;
  $("save").disabled = !d.savable;
  $("save").title = d.savable ? "" : "this spec is built into turnspec: start turnspec serve with a spec file to save";
  const slug = (d.name || "game").toLowerCase().replace(/[^a-z0-9]+/g, "-");
  if (!$("save-path").value) $("save-path").value = `scenarios/${slug}-session.toml`;
}

async function newGame() {
  session.moves = [];
  await loadSpec();
  await refresh();
}

// Replays the moves; a refused last move is dropped and its refusal shown.
async function refresh() {
  showError("");
  try {
    const data = await api("/api/play", { ...setup(), moves: session.moves });
    const main = data.sides[0];
    const last = session.moves.length - 1;
    const refused = main.refused.find((r) => r.move === last);
    if (refused) {
      session.moves.pop();
      showRefusal(refused.refusal);
      return refresh();
    }
    session.last = data;
    render(data);
  } catch (e) {
    showError(e.message);
  }
  settled();
}

function showRefusal(r) {
  $("refusal").hidden = false;
  $("refusal").replaceChildren(
    el("strong", {}, "Refused: "), `${r.message} `,
    r.rule ? el("span", { class: "refusal-rule" }, `(rule ${r.rule}, ${r.reason})`) : `(${r.reason})`);
}

function act(move) {
  $("refusal").hidden = true;
  session.moves.push(move);
  refresh();
}

function players(n) {
  return Array.from({ length: n }, (_, i) => `P${i + 1}`);
}

function fillPlayers(select, list, preferred) {
  const keep = select.value;
  select.replaceChildren(...list.map((p) => el("option", { value: p }, p)));
  select.value = list.includes(preferred) ? preferred : list.includes(keep) ? keep : list[0];
}

function render(data) {
  const main = data.sides[0];
  const s = main.state;
  renderDiagram(s);
  const d = session.details;
  $("state").replaceChildren(el("table", {},
    ...[["turn", "Turn", `${s.turn} (${d.terms.active_player}: ${s.active})`],
      ["phase", "Phase", `${s.phase_name} (${s.phase}) #${s.phase_number}`],
      ["step", "Step", `${s.step_name} (${s.step})${s.repeat ? `, again ${s.repeat}` : ""}`],
      ["holder", d.terms.priority, s.holder || "nobody"],
      ["status", "Status", s.status + (s.endless ? `: ${s.endless}` : "")],
      ["queued", "Queued answers", s.queued_answers.map((q) => `${q.action} = ${q.value}${q.triggers.length ? ` (${q.triggers.join(", ")})` : ""}`).join("; ") || "none"],
    ].map(([id, k, v]) => el("tr", {}, el("td", {}, el("strong", {}, k)), el("td", { id: `state-${id}` }, v)))));
  const legal = main.legal.players;
  const list = legal.map((p) => p.player);
  fillPlayers($("actor"), list, s.holder);
  fillPlayers($("trigger-by"), list, s.active);
  fillPlayers($("effect-by"), list, s.active);
  renderMoves();
  $("stack").replaceChildren(...s.stack.map((o) => el("li", {}, `${o.label} (${o.controller}, ${o.kind})`)));
  if (s.stack.length === 0) $("stack").replaceChildren(el("li", { class: "rule" }, "empty"));
  $("counters").replaceChildren(el("table", {},
    ...s.counters.map((c) => el("tr", {}, el("td", {}, c.id), el("td", {}, String(c.value)), el("td", {}, rule(c.rule)))),
    ...s.facts.map((f) => el("tr", {}, el("td", {}, f.id), el("td", {}, String(f.value)), el("td", {}, rule(f.rule))))));
  $("fact-buttons").replaceChildren(...s.facts.map((f) => el("button", {
    "data-fact": f.id,
    onclick: () => act(f.value ? { kind: "clear_fact", fact: f.id } : { kind: "set_fact", fact: f.id }),
  }, `${f.value ? "Clear" : "Set"} ${f.id}`)));
  renderTraces(data);
}

function renderMoves() {
  const main = session.last.sides[0];
  const actor = $("actor").value;
  const mine = main.legal.players.find((p) => p.player === actor);
  $("pass").className = mine && !mine.pass_refusal ? "legal" : "refused";
  $("timing").replaceChildren(...(mine ? mine.timing : []).map((t) => el("button", {
    class: t.legal ? "legal" : "refused",
    "data-timing": t.id,
    title: t.legal ? `play at ${t.name} [${t.rule}]` : `${t.refusal.message} (rule ${t.refusal.rule})`,
    onclick: () => act({ kind: "play", timing: t.id, by: actor, label: $("label").value }),
  }, `${t.name}`)));
}

function renderDiagram(state) {
  const phases = session.details.diagram.phases;
  $("diagram").replaceChildren(...phases.map((p) => {
    const current = p.id === state.phase;
    const box = el("div", {
      class: `phase${p.on_demand ? " on-demand" : ""}${current ? " current" : ""}`,
      "data-phase": p.id,
    }, el("div", { class: "phase-title" }, p.name, rule(p.rule), p.on_demand ? " (started by an action)" : ""));
    const tags = (s) => s.timing.length ? el("div", { class: "timing-tags" }, `may play: ${s.timing.join(", ")}`) : null;
    if (p.stepless) {
      const s = p.steps[0];
      if (current) box.classList.add("step-current");
      if (s) box.append(tags(s));
    } else {
      for (const s of p.steps) {
        const cls = `step${s.conditional ? " conditional" : ""}${current && s.id === state.step ? " current" : ""}`;
        box.append(el("div", { class: cls, "data-step": s.id },
          s.name, rule(s.rule), s.repeats ? " ↻" : "", tags(s)));
      }
    }
    return box;
  }));
}

function describeMove(m) {
  switch (m.kind) {
    case "pass": return `${m.by} passes`;
    case "pass_all": return "everyone passes (one round)";
    case "play": return `${m.by} plays ${m.label || "#0"} at ${m.timing}`;
    case "trigger": return `trigger ${m.label} (${m.by})`;
    case "effect": return `effect ${m.effect} for ${m.by}`;
    case "answer": return `answer ${m.action} = ${m.value}${m.triggers.length ? `, triggers ${m.triggers.join(", ")}` : ""}`;
    case "set_fact": return `set fact ${m.fact}`;
    case "clear_fact": return `clear fact ${m.fact}`;
    default: return m.kind;
  }
}

// Goes back to just before move `i` (time travel).
function backTo(i) {
  session.moves = session.moves.slice(0, i);
  $("refusal").hidden = true;
  refresh();
}

function renderTraces(data) {
  const div = data.divergence;
  $("divergence").hidden = !div;
  if (div) {
    $("divergence").textContent =
      `First difference at event ${div.index + 1}: “${div.left ?? "(nothing)"}” vs “${div.right ?? "(nothing)"}”`;
  }
  $("traces").replaceChildren(...data.sides.map((side, n) => {
    const box = el("div", { class: "trace", "data-side": String(n) }, el("h3", {}, side.title));
    const refused = new Map(side.refused.map((r) => [r.move, r.refusal]));
    let at = 0;
    const events = side.trace;
    const event = (e, i) => el("div", {
      class: `event${div && div.index === i ? " diverge" : ""}`,
      style: `padding-left: ${e.depth}em`, "data-line": e.line, title: e.line,
    }, e.text, rule(e.rule));
    while (at < events.length && events[at].move === null) { box.append(event(events[at], at)); at++; }
    session.moves.forEach((m, i) => {
      const r = refused.get(i);
      box.append(el("div", { class: `move${r ? " refused-move" : ""}`, "data-move": String(i) },
        el("span", {}, `${i + 1}. ${describeMove(m)}${r ? ` — refused: ${r.message}${r.rule ? ` [${r.rule}]` : ""}` : ""}`),
        n === 0 ? el("button", { class: "back", title: "go back to just before this move", onclick: () => backTo(i) }, "⟲ back here") : null));
      while (at < events.length && events[at].move === i) { box.append(event(events[at], at)); at++; }
    });
    return box;
  }));
  const last = $("traces").querySelector(".trace .event:last-child");
  if (last) last.scrollIntoView({ block: "nearest" });
}

async function save() {
  $("save-result").textContent = "";
  try {
    const result = await api("/api/scenario", {
      ...setup(), moves: session.moves,
      name: $("save-name").value, path: $("save-path").value || null,
      overwrite: $("save-overwrite").checked,
    });
    $("save-result").replaceChildren(
      result.passes
        ? el("span", { class: "ok" }, `passes (${result.checks} checks)`)
        : el("span", { class: "bad" }, `does not pass: ${result.failure}`),
      result.written ? ` — written to ${result.written}` : "");
    $("save-toml").hidden = false;
    $("save-toml").textContent = result.toml;
  } catch (e) {
    $("save-result").replaceChildren(el("span", { class: "bad" }, e.message));
  }
  settled();
}

async function init() {
  try {
    const { specs } = await api("/api/specs");
    session.specs = specs;
    $("spec").replaceChildren(...specs.map((s) => el("option", { value: String(s.index) }, `${s.title} — ${s.label}`)));
    $("compare").append(...specs.map((s) => el("option", { value: String(s.index) }, `${s.title} — ${s.label}`)));
    $("spec").addEventListener("change", () => { $("save-path").value = ""; newGame(); });
    $("players").addEventListener("change", newGame);
    $("compare").addEventListener("change", refresh);
    $("variants").addEventListener("change", refresh);
    $("new-game").addEventListener("click", newGame);
    $("actor").addEventListener("change", renderMoves);
    $("pass").addEventListener("click", () => act({ kind: "pass", by: $("actor").value }));
    $("pass-all").addEventListener("click", () => act({ kind: "pass_all" }));
    $("undo").addEventListener("click", () => { if (session.moves.length) backTo(session.moves.length - 1); });
    $("trigger").addEventListener("click", () =>
      act({ kind: "trigger", label: $("trigger-label").value || "Trigger", by: $("trigger-by").value }));
    $("answer").addEventListener("click", () => act({
      kind: "answer", action: $("answer-action").value, value: Number($("answer-value").value),
      triggers: $("answer-triggers").value.split(",").map((t) => t.trim()).filter((t) => t),
    }));
    $("apply-effect").addEventListener("click", () =>
      act({ kind: "effect", effect: $("effect").value, by: $("effect-by").value }));
    $("save").addEventListener("click", save);
    await newGame();
  } catch (e) {
    showError(e.message);
  }
}

init();
