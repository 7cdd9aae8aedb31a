//! `turnspec graph`: the turn as a diagram (Mermaid or Graphviz dot), for
//! designers checking a spec at a glance: phases in order, their steps,
//! which steps give priority, skips, repeats, phases started by plays, and
//! how the game ends (each ending, with edges from where it is checked).
//! What a label says about a phase or a step comes from its description
//! (`turnspec_model::Describe`); the edges are the turn's structure.

use std::path::Path;
use std::process::ExitCode;

use clap::ValueEnum;
use turnspec_spec::describe::{Field, Item, Value, field, words};
use turnspec_spec::{Describe, Effect, EndPoints, Phase, Spec, Stage, StepId};

use crate::load;

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum GraphFormat {
    /// Mermaid flowchart (renders on GitHub and in many editors).
    Mermaid,
    /// Graphviz dot.
    Dot,
    /// SVG, drawn by turnspec itself (no Graphviz needed).
    Svg,
    /// The diagram as data: phases in turn order, their steps, actions,
    /// windows and the timing classes each step allows.
    Json,
}

/// How a step looks in the diagram.
struct Node {
    id: String,
    /// The lines of its label, as plain text: escaped for the format when
    /// the diagram is written.
    lines: Vec<String>,
    /// Dashed: skipped under a condition, or present only under one.
    conditional: bool,
    /// The label of its self-edge, if it repeats (`again if ...`).
    repeat: Option<String>,
}

// Labels are built from the elements' descriptions (`Describe`), never from
// their fields: each described field is either shown (`step_node` and
// `phase_title` say how) or left out on purpose. A field in neither list
// (one just added to the model) is shown as `name: value` at the end of the
// label, and the test below fails until it is placed in one of the lists.

/// The fields of a step a diagram shows: its title (`name [rule]`), then
/// one line each for its turn-based actions (`order`), its windows
/// (`priority`), its skip conditions and `only_if`. `repeat` is the
/// step's self-edge.
const STEP_SHOWN: &[&str] = &[
    "name", "rule", "order", "priority", "skip", "only_if", "repeat", "allows", "runs",
];
/// The fields of a step a diagram leaves out: the node's place and kind
/// are the diagram's structure (`phase`, `implicit`); tags are for `check
/// --explain`. The timing classes a step allows (`allows`) are a line
/// `may play: ...`.
const STEP_LEFT_OUT: &[&str] = &["id", "tags", "phase", "implicit"];

/// The fields of a phase a diagram shows in its box's title: `name
/// [rule]`, then `— skipped if ...`, `— only if ...` and `— started by an
/// action`.
const PHASE_SHOWN: &[&str] = &["name", "rule", "skip", "only_if", "occurs"];
/// The fields of a phase a diagram leaves out: its steps are the boxes
/// inside it; `counts_as` and tags are for `check --explain`.
const PHASE_LEFT_OUT: &[&str] = &["id", "counts_as", "tags", "steps", "step_ids"];

/// The fields of an ending a diagram shows: `ending: name [rule]`, what
/// it does (`result`) and where it is checked (`check`; its `after` and
/// `turn_end`/`turn_start` points are edges too).
const ENDING_SHOWN: &[&str] = &["name", "rule", "result", "check"];
/// The fields of an ending a diagram leaves out: its id is the host's.
const ENDING_LEFT_OUT: &[&str] = &["id"];

/// The text of a described field, if it is there at all.
fn text_of(fields: &[Field], name: &str) -> Option<String> {
    field(fields, name).map(|f| f.value.text())
}

/// `name [rule]`: the rule is the `rule` field's citation, or its text
/// when it is derived (the implicit step of a phase without steps).
fn title(spec: &Spec, fields: &[Field]) -> String {
    let mut title = text_of(fields, "name").unwrap_or_default();
    let rule = field(fields, "rule").and_then(|f| match &f.value {
        Value::Derived { text, .. } => Some(text.clone()).filter(|t| !t.is_empty()),
        _ => spec.rule(f.rule).map(str::to_string),
    });
    if let Some(r) = rule {
        title.push_str(&format!(" [{r}]"));
    }
    title
}

/// The conditions under which an element is skipped, each as `skipped if
/// ...`. Derived skips (an implicit step's) are its phase's, shown there.
fn skipped(fields: &[Field]) -> Vec<String> {
    match field(fields, "skip").map(|f| &f.value) {
        Some(Value::Set(items)) => items
            .iter()
            .map(|i| format!("skipped {}", i.text))
            .collect(),
        _ => Vec::new(),
    }
}

/// `only if ...`, unless the element always occurs. A derived condition
/// (an implicit step's) is its phase's, shown there.
fn only_if(fields: &[Field]) -> Option<String> {
    match field(fields, "only_if").map(|f| &f.value) {
        Some(Value::Text(c)) if c != words::NO_CONDITION => Some(format!("only if {c}")),
        _ => None,
    }
}

/// Fields in neither list, as `name: value`.
fn undecided(fields: &[Field], shown: &[&str], left_out: &[&str]) -> Vec<String> {
    fields
        .iter()
        .filter(|f| !shown.contains(&f.name) && !left_out.contains(&f.name))
        .map(|f| format!("{}: {}", f.name, f.value.text()))
        .collect()
}

/// A window of a step's `priority`, by when it opens, in a diagram's few
/// words (`always`, `if pending`); the window's name and how it closes are
/// for `check --explain`.
fn window_opens(item: &Item) -> String {
    if item.text.starts_with(words::OPENS_IF_PENDING) {
        "if pending".into()
    } else if item.text.starts_with(words::OPENS_ALWAYS) {
        words::OPENS_ALWAYS.into()
    } else {
        item.text.clone()
    }
}

/// The box of a step of `spec` (`None` for a step it does not have).
fn step_node(spec: &Spec, step: StepId) -> Option<Node> {
    let fields = spec.step(step)?.describe(spec);
    let windows: &[Item] = match field(&fields, "priority").map(|f| &f.value) {
        Some(Value::Seq { items, .. }) => items,
        _ => &[],
    };
    // The step's order lists each turn-based action, and `priority` once
    // for each window.
    let actions = match field(&fields, "order").map(|f| &f.value) {
        Some(Value::Order(order)) => order.len().saturating_sub(windows.len()),
        _ => 0,
    };
    let mut lines = vec![title(spec, &fields)];
    if actions > 0 {
        lines.push(format!(
            "{actions} turn-based action{}",
            if actions == 1 { "" } else { "s" }
        ));
    }
    let windows: Vec<String> = windows.iter().map(window_opens).collect();
    lines.push(match windows.as_slice() {
        [] => format!("no {}", spec.terms().priority),
        list => format!("{}: {}", spec.terms().priority, list.join(", ")),
    });
    let skips = skipped(&fields);
    let only = only_if(&fields);
    // Steps a play runs (`on_demand`) are drawn like steps that may not
    // happen, with a line saying so.
    let on_demand = text_of(&fields, "runs").as_deref() == Some(words::RUN_BY_A_PLAY);
    let conditional = !skips.is_empty() || only.is_some() || on_demand;
    lines.extend(skips);
    lines.extend(only);
    if on_demand {
        lines.push("run by a play (then back to its window)".into());
    }
    if let Some(Value::Derived { text, .. }) = field(&fields, "allows").map(|f| &f.value)
        && text != "none"
        && !windows.is_empty()
    {
        lines.push(format!("may play: {text}"));
    }
    lines.extend(undecided(&fields, STEP_SHOWN, STEP_LEFT_OUT));
    let repeat = text_of(&fields, "repeat")
        .filter(|r| r != words::NEVER_REPEATS)
        .map(|r| format!("again {r}"));
    Some(Node {
        id: format!("s{}", step.index()),
        lines,
        conditional,
        repeat,
    })
}

/// A phase's box title: `name [rule] — skipped if ... — only if ... —
/// started by an action`.
fn phase_title(spec: &Spec, phase: &Phase) -> String {
    let fields = phase.describe(spec);
    let mut parts = vec![title(spec, &fields)];
    parts.extend(skipped(&fields));
    parts.extend(only_if(&fields));
    match text_of(&fields, "occurs").as_deref() {
        None | Some(words::EVERY_TURN) => {}
        Some(words::ON_DEMAND) => parts.push("started by an action".into()),
        Some(other) => parts.push(other.to_string()),
    }
    parts.extend(undecided(&fields, PHASE_SHOWN, PHASE_LEFT_OUT));
    parts.join(" — ")
}

/// Text for a double-quoted DOT string: `"` and `\` escaped (Graphviz
/// reads `\\` in a label as one backslash), line breaks as `\n`, other
/// control characters as spaces.
fn dot_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// Text for a double-quoted Mermaid label: characters Mermaid or the HTML
/// it renders to would read (`"`, `#`, `&`, `<`, `>`, `|`, `` ` ``) as
/// Mermaid entity codes (`#34;`), line breaks as `<br/>`, other control
/// characters as spaces.
fn mermaid_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '"' | '#' | '&' | '<' | '>' | '|' | '`' => out.push_str(&format!("#{};", c as u32)),
            '\n' => out.push_str("<br/>"),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// Lines of a label, escaped and joined with the format's line break.
fn label(format: GraphFormat, lines: &[String]) -> String {
    let (escape, line_break): (fn(&str) -> String, &str) = match format {
        GraphFormat::Dot => (dot_text, "\\n"),
        _ => (mermaid_text, "<br/>"),
    };
    let escaped: Vec<String> = lines.iter().map(|l| escape(l)).collect();
    escaped.join(line_break)
}

/// The diagram text in Mermaid or dot (SVG and JSON are drawn from
/// `turnspec_serve`'s diagram; they never reach here and get Mermaid).
pub(crate) fn render(spec: &Spec, format: GraphFormat) -> String {
    let mut out = String::new();
    let mut edges: Vec<(String, String, String, bool)> = Vec::new();
    let (open, close) = match format {
        GraphFormat::Mermaid | GraphFormat::Svg | GraphFormat::Json => {
            ("flowchart TD\n".to_string(), String::new())
        }
        GraphFormat::Dot => (
            "digraph turn {\n  rankdir=TB;\n  node [shape=box, fontname=\"Helvetica\"];\n"
                .to_string(),
            "}\n".to_string(),
        ),
    };
    out.push_str(&open);
    let mut previous_last: Option<String> = None;
    // Regular phases in turn order, top to bottom, then the phases only an
    // action starts.
    let order: Vec<_> = spec
        .turn()
        .iter()
        .copied()
        .chain(spec.phases().ids().filter(|p| !spec.turn().contains(p)))
        .collect();
    for pid in order {
        let pi = pid.index();
        let Some(phase) = spec.phase(pid) else {
            continue;
        };
        let title = phase_title(spec, phase);
        let mut nodes: Vec<Node> = phase.steps().filter_map(|s| step_node(spec, s)).collect();
        // A phase without steps is one box: its title, then its body.
        let stepless = phase.implicit_step && nodes.len() == 1;
        if stepless {
            let node = &mut nodes[0];
            let parts: Vec<String> = title.split(" — ").map(str::to_string).collect();
            node.conditional |= parts.len() > 1;
            node.lines.splice(0..1, parts);
        }
        match format {
            GraphFormat::Mermaid | GraphFormat::Svg | GraphFormat::Json if stepless => {
                let n = &nodes[0];
                out.push_str(&format!("  {}[\"{}\"]\n", n.id, label(format, &n.lines)));
            }
            GraphFormat::Dot if stepless => {
                let n = &nodes[0];
                let style = if n.conditional { ", style=dashed" } else { "" };
                out.push_str(&format!(
                    "  {} [label=\"{}\"{style}];\n",
                    n.id,
                    label(format, &n.lines)
                ));
            }
            GraphFormat::Mermaid | GraphFormat::Svg | GraphFormat::Json => {
                out.push_str(&format!("  subgraph p{pi}[\"{}\"]\n", mermaid_text(&title)));
                for n in &nodes {
                    let label = label(format, &n.lines);
                    out.push_str(&format!("    {}[\"{label}\"]\n", n.id));
                }
                out.push_str("  end\n");
            }
            GraphFormat::Dot => {
                out.push_str(&format!(
                    "  subgraph cluster_p{pi} {{\n    label=\"{}\";\n",
                    dot_text(&title)
                ));
                for n in &nodes {
                    let style = if n.conditional { ", style=dashed" } else { "" };
                    out.push_str(&format!(
                        "    {} [label=\"{}\"{style}];\n",
                        n.id,
                        label(format, &n.lines)
                    ));
                }
                out.push_str("  }\n");
            }
        }
        for pair in nodes.windows(2) {
            edges.push((pair[0].id.clone(), pair[1].id.clone(), String::new(), false));
        }
        for n in &nodes {
            if let Some(again) = &n.repeat {
                edges.push((n.id.clone(), n.id.clone(), again.clone(), true));
            }
        }
        if !phase.on_demand {
            if let (Some(prev), Some(first)) = (&previous_last, nodes.first()) {
                edges.push((prev.clone(), first.id.clone(), String::new(), false));
            }
            previous_last = nodes.last().map(|n| n.id.clone());
        }
    }
    // Phases started by plays, from every step where the action is usable.
    for (ti, t) in spec.timing().iter().enumerate() {
        if let Effect::StartPhase(target) = t.effect
            && let Some(target_phase) = spec.phase(target)
        {
            let mut steps = target_phase.steps();
            let first = steps.next();
            let (Some(first), Some(last)) = (first, steps.next_back().or(first)) else {
                continue;
            };
            let (first, last) = (format!("s{}", first.index()), format!("s{}", last.index()));
            for (si, s) in spec.steps().iter().enumerate() {
                let usable = s.timing_mask & (1 << ti) != 0
                    && s.stages.iter().any(|st| matches!(st, Stage::Window(_)));
                if usable && s.phase != target {
                    edges.push((format!("s{si}"), first.clone(), t.name.clone(), true));
                    edges.push((last.clone(), format!("s{si}"), "returns".into(), true));
                }
            }
        }
    }
    // The next turn is a box of its own below the last phase: an edge back
    // to the first phase would let it set the layout (the last phase drawn
    // at the top).
    if let (Some(last), Some(first)) = (&previous_last, spec.turn().first()) {
        let name = spec.phase(*first).map_or("?", |p| p.name.as_str());
        let text = format!("next turn: {name}");
        match format {
            GraphFormat::Mermaid | GraphFormat::Svg | GraphFormat::Json => {
                out.push_str(&format!("  next_turn([\"{}\"])\n", mermaid_text(&text)))
            }
            GraphFormat::Dot => out.push_str(&format!(
                "  next_turn [label=\"{}\", shape=oval, style=dashed];\n",
                dot_text(&text)
            )),
        }
        edges.push((last.clone(), "next_turn".into(), String::new(), true));
    }
    // How the game ends: a box per ending below the turn, with a dashed
    // edge from each place it is checked that is one box (the step of the
    // action it follows, the turn's last step, the next turn's start);
    // `step_end` and `counter_set` are in its label.
    for (i, ending) in spec.endings().iter().enumerate() {
        let fields = ending.describe(spec);
        let mut lines = vec![format!("ending: {}", title(spec, &fields))];
        lines.extend(text_of(&fields, "result"));
        lines.extend(text_of(&fields, "check"));
        lines.extend(undecided(&fields, ENDING_SHOWN, ENDING_LEFT_OUT));
        let id = format!("end{i}");
        match format {
            GraphFormat::Mermaid | GraphFormat::Svg | GraphFormat::Json => {
                out.push_str(&format!("  {id}{{{{\"{}\"}}}}\n", label(format, &lines)))
            }
            GraphFormat::Dot => out.push_str(&format!(
                "  {id} [label=\"{}\", shape=hexagon{}];\n",
                label(format, &lines),
                if ending.check.is_some() {
                    ", style=dashed"
                } else {
                    ""
                }
            )),
        }
        let Some(check) = ending.check else {
            continue;
        };
        if let Some(action) = check.after
            && let Some((si, _)) = spec
                .steps()
                .iter()
                .enumerate()
                .find(|(_, s)| s.stages.contains(&Stage::Action(action)))
        {
            let name = spec.turn_action(action).map_or("?", |a| a.id.as_str());
            edges.push((format!("s{si}"), id.clone(), format!("after {name}"), true));
        }
        if check.at.contains(EndPoints::TURN_END)
            && let Some(last) = &previous_last
        {
            edges.push((last.clone(), id.clone(), "turn end".into(), true));
        }
        if check.at.contains(EndPoints::TURN_START) && previous_last.is_some() {
            edges.push(("next_turn".into(), id.clone(), "turn start".into(), true));
        }
    }
    for (from, to, label, dashed) in edges {
        match format {
            GraphFormat::Mermaid | GraphFormat::Svg | GraphFormat::Json => {
                let arrow = if dashed { "-.->" } else { "-->" };
                if label.is_empty() {
                    out.push_str(&format!("  {from} {arrow} {to}\n"));
                } else {
                    out.push_str(&format!(
                        "  {from} {arrow}|\"{}\"| {to}\n",
                        mermaid_text(&label)
                    ));
                }
            }
            GraphFormat::Dot => {
                let style = if dashed { ", style=dashed" } else { "" };
                // Edges back up the turn do not move the boxes.
                let constraint = if label == "returns" {
                    ", constraint=false"
                } else {
                    ""
                };
                out.push_str(&format!(
                    "  {from} -> {to} [label=\"{}\"{style}{constraint}];\n",
                    dot_text(&label)
                ));
            }
        }
    }
    out.push_str(&close);
    out
}

pub(crate) fn graph(path: &Path, format: GraphFormat) -> Result<ExitCode, String> {
    let Some((spec, _)) = load(path)? else {
        return Ok(ExitCode::FAILURE);
    };
    let text = match format {
        GraphFormat::Svg => turnspec_serve::svg::render(&spec),
        GraphFormat::Json => {
            let mut v = turnspec_serve::catalog::diagram(&spec);
            v["spec"] = path.display().to_string().into();
            serde_json::to_string_pretty(&v).map_err(|e| e.to_string())? + "\n"
        }
        GraphFormat::Mermaid | GraphFormat::Dot => render(&spec, format),
    };
    crate::out::print(&text);
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reference_specs() -> Vec<Spec> {
        let games = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../games");
        [
            "mtg.toml",
            "grand-archive.toml",
            "lorcana.toml",
            "pokemon-tcg.toml",
        ]
        .iter()
        .map(|f| {
            let text = std::fs::read_to_string(games.join(f)).expect("a reference spec");
            turnspec_spec::load_str(f, &text).expect("it loads").0
        })
        .collect()
    }

    /// A field added to a step or a phase must be shown in diagrams or
    /// left out on purpose: placed in one of the lists above.
    #[test]
    fn every_described_field_is_shown_or_left_out() {
        fn placed(fields: Vec<Field>, (shown, left_out): (&[&str], &[&str]), what: &str) {
            for f in fields {
                assert!(
                    shown.contains(&f.name) != left_out.contains(&f.name),
                    "{what} field `{}`: add it to the shown or the left-out list",
                    f.name
                );
            }
        }
        for spec in reference_specs() {
            for ending in spec.endings() {
                placed(
                    ending.describe(&spec),
                    (ENDING_SHOWN, ENDING_LEFT_OUT),
                    "ending",
                );
            }
            for step in spec.steps() {
                placed(step.describe(&spec), (STEP_SHOWN, STEP_LEFT_OUT), "step");
            }
            for phase in spec.phases() {
                placed(
                    phase.describe(&spec),
                    (PHASE_SHOWN, PHASE_LEFT_OUT),
                    "phase",
                );
            }
        }
    }
}
