// turnspec workbench: the server keeps the open game (a session); each move
// is sent on its own and the answer carries the state, the events that move
// caused and what may be done next. The page keeps the accepted moves, so it
// can open the game again if the server has closed it.
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

// `last`: the game as the page draws it ({ sides, divergence }), kept up to
// date from each move's answer.
// `stops`: the stop markers by player ({ P1: [{ at, turn }] }), part of the
// setup: a change opens the game again with the same moves.
const session = { specs: [], details: null, moves: [], last: null, id: null, stops: {} };

class ApiError extends Error {
  constructor(message, status) { super(message); this.status = status; }
}

// Every call to the workbench goes through here: to the server with fetch,
// or, when the page was started with a backend of its own
// (`window.turnspecBackend`, the WebAssembly build's `Studio`), to its
// `call(method, path, bodyJson)`, which answers `{ status, body }` with the
// same paths and JSON as the server.
async function api(method, path, body) {
  // A POST always carries JSON (the server refuses anything else), `{}`
  // when the route takes nothing.
  const json = body !== undefined ? JSON.stringify(body) : method === "GET" ? undefined : "{}";
  let status;
  let data;
  const backend = window.turnspecBackend;
  if (backend) {
    const answer = await backend.call(method, path, json ?? null);
    status = answer.status;
    try { data = typeof answer.body === "string" ? JSON.parse(answer.body) : answer.body ?? {}; } catch { data = {}; }
  } else {
    const init = { method };
    if (json !== undefined) {
      init.headers = { "Content-Type": "application/json" };
      init.body = json;
    }
    const response = await fetch(path, init);
    status = response.status;
    try { data = await response.json(); } catch { data = {}; }
  }
  if (status < 200 || status > 299) throw new ApiError((data && data.error) || `error ${status}`, status);
  return data;
}

// What a designer types as a label, as one line: control characters and runs
// of spaces become one space, and spaces at the ends go. The server refuses,
// with a reason, what still cannot be written into a scenario.
function cleanLabel(text) {
  return text.replace(/[\s\u0000-\u001f\u007f-\u009f]+/g, " ").trim();
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
  const count = Number($("players").value);
  const stops = {};
  for (const [p, markers] of Object.entries(session.stops)) {
    if (markers.length && Number(p.slice(1)) <= count) stops[p] = markers;
  }
  return {
    spec: Number($("spec").value),
    players: count,
    variants,
    compare: compare === "" ? null : Number(compare),
    stops,
  };
}

// The player's marker at `at` (a step id, or a step-less phase's id).
function markerOf(player, at) {
  return (session.stops[player] || []).find((m) => m.at === at);
}

// Switches a player's marker at `at` on (stopping in the turns chosen under
// "New markers") or off, and opens the game again with the same moves.
async function toggleStop(player, at) {
  const list = session.stops[player] || [];
  session.stops[player] = markerOf(player, at)
    ? list.filter((m) => m.at !== at)
    : [...list, { at, turn: $("stop-turn").value }];
  await refresh();
}

async function resetStops() {
  session.stops = {};
  await refresh();
}

async function loadSpec() {
  const index = Number($("spec").value);
  session.details = await api("GET", `/api/specs/${index}`);
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
  const results = { wins: "wins", loses: "loses", draw: "a draw" };
  $("ending").replaceChildren(...d.endings.map((e) =>
    el("option", { value: e.id }, `${e.name} (${results[e.result]}${e.rule ? `, ${e.rule}` : ""})`)));
  $("declare-ending").disabled = d.endings.length === 0;
  $("counter").replaceChildren(...d.counters.map((c) =>
    el("option", { value: c.id }, `${c.id}${c.per_player ? " (per player)" : ""}`)));
  $("set-counter").disabled = d.counters.length === 0;
  // Objects in play: only for a spec with [objects].
  $("object-host").hidden = !d.objects;
  $("objects-panel").hidden = !d.objects;
  $("play-object-row").hidden = !d.timing.some((t) => t.by_object);
  $("object-fact").replaceChildren(...d.object_facts.map((f) =>
    el("option", { value: f.id, title: f.description }, `${f.name} (${f.id})`)));
  $("set-object-fact").disabled = $("clear-object-fact").disabled = d.object_facts.length === 0;
  $("stack-title").textContent = d.terms.stack;
  $("save").disabled = !d.savable;
  $("save").title = d.savable ? "" : "this spec is built into turnspec: start turnspec serve with a spec file to save";
  const slug = (d.name || "game").toLowerCase().replace(/[^a-z0-9]+/g, "-");
  if (!$("save-path").value) $("save-path").value = `scenarios/${slug}-session.toml`;
}

async function newGame() {
  session.moves = [];
  session.stops = {};
  await loadSpec();
  await refresh();
}

// Takes a whole game from the server (opening, reopening, going back).
function take(data) {
  session.id = data.session;
  session.moves = data.move_list;
  session.last = { sides: data.sides, divergence: data.divergence };
  render(session.last);
}

// Opens the game anew with the moves made so far (after a change of setup,
// or when the server has closed it).
async function reopen() {
  take(await api("POST", "/api/session", { ...setup(), moves: session.moves }));
}

async function refresh() {
  showError("");
  try {
    await reopen();
  } catch (e) {
    showError(e.message);
  }
  settled();
}

// Calls the open game; if the server has closed it (404), opens it again
// from the moves and calls once more.
async function onGame(path, body) {
  try {
    return await api("POST", `/api/session/${session.id}/${path}`, body);
  } catch (e) {
    if (e.status !== 404) throw e;
    await reopen();
    return api("POST", `/api/session/${session.id}/${path}`, body);
  }
}

function showRefusal(r) {
  $("refusal").hidden = false;
  // The message names the rule it cites; the reason is the scenario
  // format's word for the refusal.
  $("refusal").replaceChildren(
    el("strong", {}, "Refused: "), `${r.message} `, el("span", { class: "refusal-reason" }, `(${r.reason})`));
}

async function act(move) {
  $("refusal").hidden = true;
  showError("");
  try {
    const data = await onGame("move", move);
    if (data.refused) {
      showRefusal(data.refused);
    } else {
      const index = session.moves.length;
      session.moves.push(move);
      data.sides.forEach((d, n) => {
        const side = session.last.sides[n];
        side.state = d.state;
        if (d.legal) side.legal = d.legal;
        side.trace.push(...d.events);
        if (d.refusal) side.refused.push({ move: index, refusal: d.refusal });
      });
      session.last.divergence = data.divergence;
      render(session.last);
    }
  } catch (e) {
    showError(e.message);
  }
  settled();
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
  function outcomeText(o) {
    if (!o) return "";
    const rule = o.rule ? ` (rule ${o.rule})` : "";
    return o.draw ? `: a draw${rule}` : `: ${o.winners.join(" and ")} won${rule}`;
  }
  $("state").replaceChildren(el("table", {},
    ...[["turn", "Turn", `${s.turn} (${d.terms.active_player}: ${s.active})`],
      ["phase", "Phase", `${s.phase_name} (${s.phase}) #${s.phase_number}`],
      ["step", "Step", `${s.step_name} (${s.step})${s.repeat ? `, again ${s.repeat}` : ""}`],
      ["holder", d.terms.priority, s.holder || "nobody"],
      ["status", "Status", s.status + (s.endless ? `: ${s.endless}` : "") + outcomeText(s.outcome)],
      ["queued", "Queued answers", s.queued_answers.map((q) => `${q.action} = ${q.value}${q.triggers.length ? ` (${q.triggers.join(", ")})` : ""}`).join("; ") || "none"],
    ].map(([id, k, v]) => el("tr", {}, el("td", {}, el("strong", {}, k)), el("td", { id: `state-${id}` }, v)))));
  const legal = main.legal.players;
  const list = legal.map((p) => p.player);
  fillPlayers($("actor"), list, s.holder);
  fillPlayers($("trigger-by"), list, s.active);
  fillPlayers($("effect-by"), list, s.active);
  fillPlayers($("ending-by"), list, s.active);
  fillPlayers($("counter-by"), list, s.active);
  fillPlayers($("object-by"), list, s.active);
  fillPlayers($("control-by"), list, s.active);
  const names = s.objects.map((o) => o.name);
  fillPlayers($("play-object"), names);
  fillPlayers($("object-pick"), names);
  for (const b of ["leave-object", "gain-control", "set-object-fact", "clear-object-fact"]) {
    $(b).disabled = names.length === 0 || (b.includes("fact") && d.object_facts.length === 0);
  }
  $("objects").replaceChildren(s.objects.length === 0
    ? el("p", { class: "rule empty" }, "none")
    : el("table", {},
      el("tr", {}, ...["name", "controller", "entered", "controlled since", "facts"].map((h) => el("th", {}, h))),
      ...s.objects.map((o) => el("tr", { "data-object": o.name },
        el("td", {}, o.name), el("td", {}, o.controller),
        el("td", {}, o.entered_turn ? `turn ${o.entered_turn}` : "before the game"),
        el("td", {}, o.controlled_since_turn ? `turn ${o.controlled_since_turn}` : "before the game"),
        el("td", {}, o.facts.join(", ") || "none")))));
  renderMoves();
  $("stopped").hidden = !s.stopped;
  $("stopped").textContent = s.stopped ? `Stopped: ${s.stopped}` : "";
  for (const b of ["pass-to-stop", "pass-to-eot"]) $(b).disabled = !s.holder;
  // Top first, marked; an empty stack says so without a number.
  const top = s.stack.length - 1;
  $("stack").replaceChildren(s.stack.length === 0
    ? el("p", { class: "rule empty" }, "empty")
    : el("ol", { reversed: "" }, ...s.stack.map((o, i) => el("li", { class: i === top ? "top" : null },
      `${o.label} (${o.controller}, ${o.kind})`, i === top ? el("span", { class: "top-mark" }, " ← top") : null)).reverse()));
  $("counters").replaceChildren(el("table", {},
    ...s.counters.map((c) => el("tr", { "data-counter": c.id }, el("td", {}, c.id),
      el("td", {}, c.per_player ? c.per_player.map((v, i) => `P${i + 1}: ${v}`).join(", ") : String(c.value)),
      el("td", {}, rule(c.rule)))),
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
  // A class made by an object (by = "object") names the one chosen under
  // "By object"; its legality and refusal are that object's.
  const object = $("play-object").value;
  $("timing").replaceChildren(...(mine ? mine.timing : []).map((t) => {
    let { legal, refusal } = t;
    if (t.by_object) {
      const chosen = t.objects.find((o) => o.object === object);
      if (chosen) ({ legal, refusal } = chosen);
    }
    const by = t.by_object ? (object ? ` by ${object}` : " (no object in play)") : "";
    return el("button", {
      class: legal ? "legal" : "refused",
      "data-timing": t.id,
      "data-by-object": t.by_object ? "true" : null,
      title: legal ? `play at ${t.name}${by}${t.rule ? ` [${t.rule}]` : ""}` : refusal.message,
      onclick: () => act({
        kind: "play", timing: t.id, by: actor,
        label: t.by_object ? object || "" : cleanLabel($("label").value),
      }),
    }, `${t.name}${by}`);
  }));
}

// A stop marker toggle per player beside a step with a priority window.
function stopToggles(at, s) {
  if (!s || !s.windows.length) return null;
  const turns = { any: "", own: " own", others: " others" };
  const whose = { any: "in every turn", own: "in their own turn", others: "in others' turns" };
  return el("span", { class: "stop-toggles" }, ...players(Number($("players").value)).map((p) => {
    const m = markerOf(p, at);
    return el("button", {
      class: `stop-toggle${m ? " on" : ""}`,
      "data-stop": at, "data-player": p, "aria-pressed": m ? "true" : "false",
      title: m ? `${p} stops here ${whose[m.turn]}; click to remove`
        : `click: ${p}'s auto-passer stops here (${whose[$("stop-turn").value]})`,
      onclick: (e) => { e.stopPropagation(); toggleStop(p, at); },
    }, `${p}${m ? turns[m.turn] : ""}`);
  }));
}

function renderDiagram(state) {
  const phases = session.details.diagram.phases;
  $("diagram").replaceChildren(...phases.map((p) => {
    const current = p.id === state.phase;
    const box = el("div", {
      class: `phase${p.on_demand ? " on-demand" : ""}${current ? " current" : ""}`,
      "data-phase": p.id,
    }, el("div", { class: "phase-title" }, p.name, rule(p.rule), p.on_demand ? " (started by a play)" : ""));
    const when = (x) => x.conditions.length ? el("div", { class: "conditions" }, x.conditions.join("; ")) : null;
    const w = when(p);
    if (w) box.append(w);
    if (p.stepless) {
      const toggles = stopToggles(p.id, p.steps[0]);
      if (toggles) box.firstChild.append(toggles);
    }
    // Timing classes only where someone gets priority (a step with a window).
    const tags = (s) => s.timing.length && s.windows.length
      ? el("div", { class: "timing-tags" }, `may play: ${s.timing.join(", ")}`) : null;
    if (p.stepless) {
      const s = p.steps[0];
      if (current) box.classList.add("step-current");
      const t = s ? tags(s) : null;
      if (t) box.append(t);
    } else {
      for (const s of p.steps) {
        const cls = `step${s.conditional ? " conditional" : ""}${current && s.id === state.step ? " current" : ""}`;
        box.append(el("div", { class: cls, "data-step": s.id },
          s.name, rule(s.rule), s.repeats ? " ↻" : "", stopToggles(s.id, s), tags(s), when(s)));
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
    case "declare_ending": return `ending ${m.ending} declared for ${m.by}`;
    case "set_counter": return `counter ${m.counter} = ${m.value} for ${m.by}`;
    case "enter": return `${m.object} enters play under ${m.by}`;
    case "leave_play": return `${m.object} leaves play`;
    case "gain_control": return `${m.by} gains control of ${m.object}`;
    case "set_object_fact": return `set fact ${m.fact} of ${m.object}`;
    case "clear_object_fact": return `clear fact ${m.fact} of ${m.object}`;
    case "pass_to_stop": return `${m.by || "the holder"} passes to ${m.command === "step" ? `step ${m.at}` : m.command.replaceAll("_", " ")}`;
    default: return m.kind;
  }
}

// Goes back to just before move `i` (time travel).
async function backTo(i) {
  $("refusal").hidden = true;
  showError("");
  try {
    take(await onGame("back", { to: i }));
  } catch (e) {
    showError(e.message);
  }
  settled();
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
        el("span", {}, `${i + 1}. ${describeMove(m)}${r ? ` — refused: ${r.message}` : ""}`),
        n === 0 ? el("button", { class: "back", title: "go back to just before this move", onclick: () => backTo(i) }, "⟲ back here") : null));
      while (at < events.length && events[at].move === i) { box.append(event(events[at], at)); at++; }
    });
    return box;
  }));
  // The newest line in view inside the trace's own scroll box; the page
  // itself does not move, so the diagram and the buttons stay where they are.
  $("traces").scrollTop = $("traces").scrollHeight;
}

async function save() {
  $("save-result").textContent = "";
  try {
    const result = await onGame("save", {
      name: $("save-name").value, path: $("save-path").value.trim() || null,
      overwrite: $("save-overwrite").checked,
    });
    $("save-result").replaceChildren(
      result.passes
        ? el("span", { class: "ok" }, `passes (${result.checks} checks)`)
        : el("span", { class: "bad" }, `does not pass: ${result.failure}`),
      result.written ? ` — written to ${result.written}` : "",
      result.stops_written && result.stops_written.length
        ? `, with the stop profiles ${result.stops_written.join(", ")}` : "");
    $("save-toml").hidden = false;
    $("save-toml").textContent = result.toml;
  } catch (e) {
    $("save-result").replaceChildren(el("span", { class: "bad" }, e.message));
  }
  settled();
}

// The spec pickers, from the catalog (again after a save adds a spec), and
// the drafts played from the editor, which the catalog does not list.
async function loadCatalog() {
  const { specs } = await api("GET", "/api/specs");
  session.specs = specs;
  const keep = { spec: $("spec").value, compare: $("compare").value };
  const known = new Set(specs.map((s) => s.index));
  const options = () => [
    ...specs.map((s) => el("option", { value: String(s.index) }, `${s.title} — ${s.label}`)),
    ...studio.drafts.filter((d) => !known.has(d.index))
      .map((d) => el("option", { value: String(d.index), "data-draft": "true" }, `draft: ${d.title}`)),
  ];
  $("spec").replaceChildren(...options());
  $("compare").replaceChildren(el("option", { value: "" }, "(none)"), ...options());
  if (keep.spec !== "" && [...$("spec").options].some((o) => o.value === keep.spec)) $("spec").value = keep.spec;
  if ([...$("compare").options].some((o) => o.value === keep.compare)) $("compare").value = keep.compare;
}

// ---------------------------------------------------------------------------
// The editor ("Edit"): a spec's source in CodeMirror (assets/editor.js),
// checked by the real loader as it is typed (POST /api/check), its diagram,
// summary and changes since it was saved drawn beside it; played as a draft
// without saving (POST /api/draft), saved (POST /api/spec/save) and its
// scenarios run (POST /api/specs/{i}/scenarios).
//
// `base`: the catalog index of the spec being edited (null: a new spec);
// `saved`: its text as last opened or saved; `drafts`: the drafts played;
// `checkedText`: the text the problems and diagram drawn are about.
const studio = { editor: null, base: null, saved: null, drafts: [], checks: 0, checkedText: null };

// Counts finished checks on <body data-checks> for test drivers, like
// `settled` does for the play view.
function checked() {
  studio.checks += 1;
  document.body.dataset.checks = String(studio.checks);
}

function studioStatus(message, ok) {
  $("edit-status").className = ok === undefined ? "" : ok ? "ok" : "bad";
  $("edit-status").textContent = message || "";
}

function showView(name) {
  for (const v of ["play", "edit"]) {
    $(`${v}-view`).hidden = v !== name;
    $(`view-${v}`).setAttribute("aria-pressed", v === name ? "true" : "false");
  }
  if (name === "edit") ensureEditor();
}

function ensureEditor() {
  if (studio.editor) return studio.editor;
  if (!window.TurnspecEditor) {
    studioStatus("the editor did not load (editor.js)", false);
    return null;
  }
  studio.editor = window.TurnspecEditor.create({ parent: $("editor"), doc: "", check: checkText });
  return studio.editor;
}

function position(d) {
  return d.line ? `${d.line}:${d.column || 1}` : "";
}

// Checks the text with the loader and draws what it says; answers the
// diagnostics for the editor's lint marks.
async function checkText(text) {
  let result;
  const path = $("edit-path").value.trim() || null;
  try {
    result = await api("POST", "/api/check", { text, path });
  } catch (e) {
    studioStatus(e.message, false);
    checked();
    return [];
  }
  if (studio.editor && studio.editor.text() !== text) return null;
  const diagnostics = result.diagnostics || [];
  $("edit-diagnostics").replaceChildren(...(diagnostics.length ? diagnostics.map((d) => el("li", {
    class: `diagnostic ${d.severity}`, "data-line": d.line ? String(d.line) : null,
    "data-code": d.code || null,
  }, el("span", { class: "where" }, `${d.file && d.file !== (path || "spec.toml") ? `${d.file}:` : ""}${position(d)}`), ` ${d.severity}${d.code ? `[${d.code}]` : ""}: ${d.message}`,
  d.label ? ` (${d.label})` : "", d.help ? el("div", { class: "help" }, `help: ${d.help}`) : null,
  ...(d.related || []).map((r) => el("div", { class: "related" },
    `${position(r)} ${r.message || r.label || ""}`))))
    : [el("li", { class: "ok" }, result.ok ? "no problems" : "")]));
  $("edit-summary").replaceChildren(summaryOf(result.details));
  if (result.svg) $("edit-diagram").innerHTML = result.svg;
  else if (!result.details) $("edit-diagram").classList.add("stale");
  if (result.svg) $("edit-diagram").classList.remove("stale");
  await showDiff(text);
  studio.checkedText = text;
  checked();
  // Marked in the editor: the problems of this text, not of a spec it
  // extends (those are listed with their file).
  const shown = path || "spec.toml";
  return diagnostics.filter((d) => d.line && (!d.file || d.file === shown));
}

function summaryOf(d) {
  if (!d) return el("p", { class: "bad" }, "does not load: see the problems");
  const phases = d.diagram ? d.diagram.phases : [];
  const steps = phases.reduce((n, p) => n + (p.stepless ? 0 : p.steps.length), 0);
  const windows = phases.reduce((n, p) => n + p.steps.filter((s) => s.windows && s.windows.length).length, 0);
  return el("table", {},
    ...[["Game", d.title || d.name],
      ["Players", `${d.min_players}–${d.max_players}`],
      ["Turn", `${phases.length} phases (${phases.map((p) => p.id).join(" → ")}), ${steps} steps, ${windows} with a priority window`],
      ["Timing classes", d.timing.map((t) => t.id).join(", ") || "none"],
      ["Turn-based actions", d.turn_actions.map((a) => a.id).join(", ") || "none"],
    ].map(([k, v]) => el("tr", {}, el("td", {}, el("strong", {}, k)), el("td", {}, v))));
}

async function showDiff(text) {
  if (studio.base === null) {
    $("edit-diff").textContent = "(a new spec: nothing saved yet)";
    return;
  }
  try {
    const diff = await api("POST", "/api/diff", { spec: studio.base, text });
    $("edit-diff").replaceChildren(...(diff.same ? ["(no changes since saved)"] : diff.lines.map((l) => {
      const line = typeof l === "string" ? l : l.text ?? JSON.stringify(l);
      const kind = typeof l === "string" ? l[0] : l.kind || l.tag || " ";
      const cls = kind === "+" || kind === "insert" || kind === "added" ? "added"
        : kind === "-" || kind === "delete" || kind === "removed" ? "removed" : "";
      const sign = typeof l === "string" ? "" : cls === "added" ? "+ " : cls === "removed" ? "- " : "  ";
      return el("div", { class: `diff-line ${cls}` }, sign + line);
    })));
  } catch (e) {
    $("edit-diff").textContent = e.message;
  }
}

// Puts a text in the editor as the one last saved (or a new spec's start).
function openText(base, path, text) {
  const editor = ensureEditor();
  studio.base = base;
  studio.saved = base === null ? null : text;
  $("edit-path").value = path || "";
  $("edit-scenario-results").replaceChildren();
  if (editor) {
    editor.setText(text);
    editor.recheck();
  }
}

async function editSelected() {
  studioStatus("");
  try {
    const index = Number($("spec").value);
    const source = await api("GET", `/api/specs/${index}/source`);
    openText(index, source.path, source.text);
  } catch (e) {
    studioStatus(e.message, false);
  }
}

function newSpec() {
  studioStatus("");
  openText(null, "new-game.toml", "");
  ensureEditor()?.focus();
}

// Plays the editor's text: the saved spec itself when the text is as saved
// (so a session of it saves as a scenario of that file), else a draft.
async function playThis() {
  const editor = ensureEditor();
  if (!editor) return;
  studioStatus("");
  const text = editor.text();
  let index = studio.base;
  try {
    if (studio.base === null || text !== studio.saved) {
      const draft = await api("POST", "/api/draft", { base: studio.base, text });
      index = draft.spec;
      const title = draft.details ? draft.details.title || draft.details.name : $("edit-path").value;
      studio.drafts = studio.drafts.filter((d) => d.index !== index);
      studio.drafts.push({ index, title: `${title} (${$("edit-path").value || "unsaved"})` });
    }
    await loadCatalog();
    $("spec").value = String(index);
    $("save-path").value = "";
    showView("play");
    await newGame();
  } catch (e) {
    studioStatus(e.message, false);
    settled();
  }
}

async function saveSpec() {
  const editor = ensureEditor();
  if (!editor) return;
  studioStatus("");
  const text = editor.text();
  const path = $("edit-path").value.trim();
  try {
    const result = await api("POST", "/api/spec/save", {
      spec: studio.base, path: path || null, text,
      overwrite: $("edit-overwrite").checked,
    });
    // A text that does not load is saved too, but is not on offer.
    if (result.spec !== null && result.spec !== undefined) {
      studio.base = result.spec;
      studio.saved = text;
    }
    if (result.path) $("edit-path").value = result.path;
    const errors = (result.diagnostics || []).filter((d) => d.severity === "error").length;
    studioStatus(`saved to ${result.path}${errors ? ` (with ${errors} error(s))` : ""}`, !errors);
    await loadCatalog();
    await showDiff(text);
  } catch (e) {
    studioStatus(e.message, false);
  }
  checked();
}

async function runScenarios() {
  studioStatus("");
  if (studio.base === null) {
    studioStatus("save the spec first: its scenarios are the saved files that name it", false);
    checked();
    return;
  }
  try {
    const results = await api("POST", `/api/specs/${studio.base}/scenarios`, {});
    const list = Array.isArray(results) ? results : results.scenarios || [];
    const passed = list.filter((r) => r.passed).length;
    $("edit-scenario-results").replaceChildren(
      el("p", { class: passed === list.length ? "ok" : "bad" },
        list.length ? `${passed} passed, ${list.length - passed} failed` : "no scenarios name this spec"),
      el("ul", {}, ...list.map((r) => el("li", {
        class: `scenario ${r.passed ? "passed" : "failed"}`, "data-path": r.path,
      }, el("span", { class: r.passed ? "ok" : "bad" }, r.passed ? "passed" : "failed"),
      ` ${r.name || ""} (${r.path})`, r.failure ? el("pre", {}, r.failure) : null))));
  } catch (e) {
    studioStatus(e.message, false);
  }
  checked();
}

// The text as a file the browser downloads: how a spec leaves the static
// page, whose saves stay in the browser's storage.
function downloadSpec() {
  const editor = ensureEditor();
  if (!editor) return;
  const name = ($("edit-path").value.trim().split("/").pop() || "spec.toml");
  const url = URL.createObjectURL(new Blob([editor.text()], { type: "application/toml" }));
  const link = el("a", { href: url, download: name.endsWith(".toml") ? name : `${name}.toml` });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

function initStudio() {
  $("view-play").addEventListener("click", () => showView("play"));
  $("view-edit").addEventListener("click", () => showView("edit"));
  $("edit-open").addEventListener("click", () => { showView("edit"); editSelected(); });
  $("edit-new").addEventListener("click", () => { showView("edit"); newSpec(); });
  $("edit-play").addEventListener("click", playThis);
  $("edit-save").addEventListener("click", saveSpec);
  $("edit-scenarios").addEventListener("click", runScenarios);
  $("edit-download").addEventListener("click", downloadSpec);
  $("edit-path").addEventListener("change", () => studio.editor && studio.editor.recheck());
}

async function init() {
  try {
    await loadCatalog();
    initStudio();
    $("spec").addEventListener("change", () => { $("save-path").value = ""; newGame(); });
    $("players").addEventListener("change", newGame);
    $("compare").addEventListener("change", refresh);
    $("variants").addEventListener("change", refresh);
    $("new-game").addEventListener("click", newGame);
    $("actor").addEventListener("change", renderMoves);
    $("pass").addEventListener("click", () => act({ kind: "pass", by: $("actor").value }));
    $("pass-all").addEventListener("click", () => act({ kind: "pass_all" }));
    // pass_to_stop for the priority holder: their auto-passer passes, and
    // everyone else's passes as their stop markers say, until someone is asked.
    const toStop = (command) => () => {
      const holder = session.last && session.last.sides[0].state.holder;
      act({ kind: "pass_to_stop", command, ...(holder ? { by: holder } : {}) });
    };
    $("pass-to-stop").addEventListener("click", toStop("next_stop"));
    $("pass-to-eot").addEventListener("click", toStop("end_of_turn"));
    $("reset-stops").addEventListener("click", resetStops);
    $("stop-turn").addEventListener("change", () => renderDiagram(session.last.sides[0].state));
    $("undo").addEventListener("click", () => { if (session.moves.length) backTo(session.moves.length - 1); });
    $("trigger").addEventListener("click", () =>
      act({ kind: "trigger", label: cleanLabel($("trigger-label").value) || "Trigger", by: $("trigger-by").value }));
    $("answer").addEventListener("click", () => act({
      kind: "answer", action: $("answer-action").value, value: Number($("answer-value").value),
      triggers: $("answer-triggers").value.split(",").map(cleanLabel).filter((t) => t),
    }));
    $("apply-effect").addEventListener("click", () =>
      act({ kind: "effect", effect: $("effect").value, by: $("effect-by").value }));
    $("declare-ending").addEventListener("click", () =>
      act({ kind: "declare_ending", ending: $("ending").value, by: $("ending-by").value }));
    // A counter holds 0 to 65535: anything else is brought into range.
    $("set-counter").addEventListener("click", () => act({
      kind: "set_counter", counter: $("counter").value, by: $("counter-by").value,
      value: Math.min(65535, Math.max(0, Math.trunc(Number($("counter-value").value)) || 0)),
    }));
    $("play-object").addEventListener("change", renderMoves);
    $("enter-object").addEventListener("click", () =>
      act({ kind: "enter", object: cleanLabel($("object-name").value), by: $("object-by").value }));
    $("leave-object").addEventListener("click", () =>
      act({ kind: "leave_play", object: $("object-pick").value }));
    $("gain-control").addEventListener("click", () =>
      act({ kind: "gain_control", object: $("object-pick").value, by: $("control-by").value }));
    const objectFact = (kind) => () =>
      act({ kind, fact: $("object-fact").value, object: $("object-pick").value });
    $("set-object-fact").addEventListener("click", objectFact("set_object_fact"));
    $("clear-object-fact").addEventListener("click", objectFact("clear_object_fact"));
    $("save").addEventListener("click", save);
    await newGame();
  } catch (e) {
    showError(e.message);
  }
}

// A page with its own backend (the static studio page) sets
// `window.turnspecBackend`, and `window.turnspecBackendReady` (a promise)
// while that backend is still loading; the page starts once it is there.
Promise.resolve(window.turnspecBackendReady).then(init, (e) => showError(`the backend did not start: ${e}`));
