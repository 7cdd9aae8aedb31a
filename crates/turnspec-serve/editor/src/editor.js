// The workbench's spec editor: CodeMirror 6 with TOML highlighting,
// completion and hover docs from the spec format's JSON Schema (embedded
// here at build time), and the loader's diagnostics as lint marks.
// scripts/editor.sh bundles this file into ../assets/editor.js, which
// defines one global, `TurnspecEditor`, for app.js.
import { EditorState } from "@codemirror/state";
import {
  EditorView, keymap, lineNumbers, highlightActiveLine, highlightActiveLineGutter,
  drawSelection, hoverTooltip,
} from "@codemirror/view";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import {
  StreamLanguage, syntaxHighlighting, defaultHighlightStyle, bracketMatching,
} from "@codemirror/language";
import { toml } from "@codemirror/legacy-modes/mode/toml";
import { linter, lintGutter, lintKeymap, forceLinting } from "@codemirror/lint";
import { autocompletion, completionKeymap } from "@codemirror/autocomplete";
import schema from "../../../../docs/schema/spec.schema.json";

// --- The schema: which keys a table has, and what each means. ---

function resolve(node) {
  for (let i = 0; node && i < 10; i++) {
    if (node.$ref) {
      node = schema.definitions[node.$ref.split("/").pop()];
    } else if (node.anyOf || node.oneOf || node.allOf) {
      // Option<T> and untagged enums: the first variant that is a table
      // (or a list of tables), else the first that is not null.
      const variants = (node.anyOf || node.oneOf || node.allOf).map((v) => resolveShallow(v));
      node = variants.find((v) => v && (v.properties || v.additionalProperties || v.items))
        || variants.find((v) => v && v.type !== "null") || null;
    } else {
      return node;
    }
  }
  return node;
}

function resolveShallow(node) {
  // A documented reference comes as `{ allOf: [{ $ref }], description }`
  // (draft 7 ignores keys beside `$ref`): look through the wrapper.
  if (node && node.allOf && node.allOf.length === 1) node = node.allOf[0];
  return node && node.$ref ? schema.definitions[node.$ref.split("/").pop()] : node;
}

// The table a path of keys leads to (`phase.step`, `timing.energy.require`):
// a list stands for its items, a map's key (a timing class's id) for its value.
function tableAt(path) {
  let node = resolve(schema);
  for (const key of path) {
    if (!node) return null;
    if (node.items) node = resolve(node.items);
    if (node.properties && node.properties[key]) node = resolve(node.properties[key]);
    else if (node.additionalProperties && typeof node.additionalProperties === "object") {
      node = resolve(node.additionalProperties);
    } else return null;
  }
  if (node && node.items) node = resolve(node.items);
  return node && node.properties ? node : null;
}

function typeOf(node) {
  const n = resolveShallow(node) || {};
  if (n.enum) return n.enum.map((e) => JSON.stringify(e)).join(" | ");
  if (n.type) return Array.isArray(n.type) ? n.type.join(" | ") : n.type;
  if (n.items) return "array";
  if (n.anyOf || n.oneOf) return (n.anyOf || n.oneOf).map(typeOf).filter((t) => t !== "null").join(" | ");
  if (n.properties || n.additionalProperties) return "table";
  return "";
}

function describe(node) {
  const own = node && node.description;
  const target = resolveShallow(node);
  return own || (target && target.description) || "";
}

function enumValues(node) {
  const n = resolveShallow(node);
  if (!n) return [];
  if (n.enum) return n.enum.filter((e) => typeof e === "string");
  const vs = n.anyOf || n.oneOf;
  if (vs) return vs.flatMap(enumValues).concat(vs.filter((v) => typeof v.const === "string").map((v) => v.const));
  return [];
}

// The table the line `lineNo` is in: the last `[a.b]` or `[[a.b]]` header
// above it (the root table before any header).
function pathAbove(doc, lineNo) {
  for (let n = lineNo; n >= 1; n--) {
    const m = /^\s*\[\[?\s*([^\]]*?)\s*\]\]?/.exec(doc.line(n).text);
    if (m) return splitKeys(m[1]);
  }
  return [];
}

function splitKeys(text) {
  return text.split(".").map((k) => k.trim().replace(/^["']|["']$/g, "")).filter((k) => k);
}

// --- Completion ---

function complete(context) {
  const line = context.state.doc.lineAt(context.pos);
  const before = line.text.slice(0, context.pos - line.from);
  // A header: `[` or `[[` then a dotted path.
  const header = /^\s*\[\[?\s*([\w.-]*)$/.exec(before);
  if (header) {
    const typed = header[1];
    const dot = typed.lastIndexOf(".");
    const parent = dot < 0 ? [] : splitKeys(typed.slice(0, dot));
    const table = tableAt(parent);
    if (!table) return null;
    return {
      from: context.pos - (typed.length - dot - 1),
      options: Object.entries(table.properties)
        .filter(([, v]) => { const r = resolve(v); return r && (r.properties || r.additionalProperties || r.items); })
        .map(([k, v]) => ({ label: k, type: "namespace", detail: typeOf(v), info: describe(v) || undefined })),
      validFor: /^[\w-]*$/,
    };
  }
  // A value: `key = "` with the key's allowed words.
  const value = /^\s*([\w-]+)\s*=\s*"([\w-]*)$/.exec(before);
  if (value) {
    const table = tableAt(pathAbove(context.state.doc, line.number - 1 >= 1 ? line.number : 1));
    const prop = table && table.properties[value[1]];
    const words = prop ? enumValues(prop) : [];
    if (!words.length) return null;
    return {
      from: context.pos - value[2].length,
      options: words.map((w) => ({ label: w, type: "enum" })),
      validFor: /^[\w-]*$/,
    };
  }
  // A key at the start of a line.
  const key = /^\s*([\w-]*)$/.exec(before);
  if (!key || (!key[1] && !context.explicit)) return null;
  const table = tableAt(pathAbove(context.state.doc, line.number - 1));
  if (!table) return null;
  return {
    from: context.pos - key[1].length,
    options: Object.entries(table.properties).map(([k, v]) => ({
      label: k, type: "property", detail: typeOf(v), info: describe(v) || undefined,
    })),
    validFor: /^[\w-]*$/,
  };
}

// --- Hover: a key's description ---

const hover = hoverTooltip((view, pos) => {
  const line = view.state.doc.lineAt(pos);
  const at = pos - line.from;
  const word = /[\w-]+/g;
  let m;
  while ((m = word.exec(line.text))) {
    if (m.index <= at && at <= m.index + m[0].length) break;
  }
  if (!m) return null;
  let path;
  const head = /^\s*\[\[?\s*([^\]]*?)\s*\]\]?/.exec(line.text);
  if (head) {
    // A header's segment: its meaning in the table above it.
    const keys = splitKeys(line.text.slice(0, m.index + m[0].length).replace(/^\s*\[\[?/, ""));
    path = keys.slice(0, -1);
  } else {
    const key = /^\s*([\w-]+)\s*=/.exec(line.text);
    if (!key || m.index !== line.text.indexOf(key[1])) return null;
    path = pathAbove(view.state.doc, line.number - 1);
  }
  const table = tableAt(path);
  const prop = table && table.properties[m[0]];
  if (!prop) return null;
  const text = describe(prop);
  const type = typeOf(prop);
  return {
    pos: line.from + m.index, end: line.from + m.index + m[0].length, above: true,
    create() {
      const dom = document.createElement("div");
      dom.className = "ts-hover";
      const title = document.createElement("strong");
      title.textContent = `${[...path, m[0]].join(".")}${type ? `: ${type}` : ""}`;
      const body = document.createElement("div");
      body.textContent = text || "(no description in the schema)";
      dom.append(title, body);
      return { dom };
    },
  };
});

// --- The loader's diagnostics (1-based lines and columns) as lint marks ---

function toLint(doc, d) {
  const lineAt = (n) => doc.line(Math.min(Math.max(n || 1, 1), doc.lines));
  const start = lineAt(d.line);
  const from = Math.min(start.from + Math.max((d.column || 1) - 1, 0), start.to);
  let to = from;
  if (d.end_line) {
    const end = lineAt(d.end_line);
    to = Math.min(end.from + Math.max((d.end_column || 1) - 1, 0), end.to);
  }
  if (to <= from) to = Math.min(from + 1, start.to);
  const severity = d.severity === "warning" ? "warning" : d.severity === "error" ? "error" : "info";
  let message = d.code ? `${d.message} [${d.code}]` : d.message;
  if (d.label) message += `\n${d.label}`;
  if (d.help) message += `\nhelp: ${d.help}`;
  return { from, to: Math.max(to, from), severity, message };
}

/**
 * An editor in `parent`. `check(text)` answers the loader's diagnostics for
 * the text (called ~250 ms after the last change, and once at the start).
 */
export function create({ parent, doc = "", check, onChange }) {
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc,
      extensions: [
        lineNumbers(), highlightActiveLineGutter(), highlightActiveLine(), drawSelection(),
        history(), bracketMatching(),
        StreamLanguage.define(toml), syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
        autocompletion({ override: [complete] }),
        hover,
        lintGutter(),
        linter(async (v) => {
          const text = v.state.doc.toString();
          const found = await check(text);
          // The text changed while checking: a later run will mark it.
          if (!found || v.state.doc.toString() !== text) return [];
          return found.map((d) => toLint(v.state.doc, d));
        }, { delay: 250 }),
        keymap.of([indentWithTab, ...defaultKeymap, ...historyKeymap, ...completionKeymap, ...lintKeymap]),
        EditorView.updateListener.of((u) => { if (u.docChanged && onChange) onChange(u.state.doc.toString()); }),
        EditorView.theme({
          "&": { height: "100%", fontSize: "13px" },
          ".cm-scroller": { fontFamily: "ui-monospace, monospace" },
        }),
      ],
    }),
  });
  return {
    view,
    text: () => view.state.doc.toString(),
    setText(text) {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
    },
    recheck: () => forceLinting(view),
    focus: () => view.focus(),
  };
}

export { tableAt, pathAbove };
