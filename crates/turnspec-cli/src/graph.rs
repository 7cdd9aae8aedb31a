//! `turnspec graph`: the turn as a diagram (Mermaid or Graphviz dot), for
//! designers checking a spec at a glance: phases in order, their steps,
//! which steps give priority, skips, repeats, and phases started by actions.

use std::path::Path;
use std::process::ExitCode;

use clap::ValueEnum;
use turnspec_spec::{Effect, Spec, Stage, StepId, WindowMode};

use crate::load;

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum GraphFormat {
    /// Mermaid flowchart (renders on GitHub and in many editors).
    Mermaid,
    /// Graphviz dot.
    Dot,
}

/// How a step looks in the diagram.
struct Node {
    id: String,
    /// The lines of its label, as plain text: escaped for the format when
    /// the diagram is written.
    lines: Vec<String>,
    /// Dashed: skipped under a condition, or present only under one.
    conditional: bool,
}

fn step_node(spec: &Spec, step: StepId) -> Node {
    let s = spec.step(step);
    let windows: Vec<&str> = s
        .stages
        .iter()
        .filter_map(|st| match st {
            Stage::Window(w) => Some(match spec.window(*w).mode {
                WindowMode::Always => "always",
                WindowMode::IfPending => "if pending",
            }),
            Stage::Action(_) => None,
        })
        .collect();
    let actions = s
        .stages
        .iter()
        .filter(|st| matches!(st, Stage::Action(_)))
        .count();
    let mut title = s.name.clone();
    if let Some(r) = spec.rule(s.rule) {
        title.push_str(&format!(" [{r}]"));
    }
    let mut lines = vec![title];
    if actions > 0 {
        lines.push(format!(
            "{actions} turn-based action{}",
            if actions == 1 { "" } else { "s" }
        ));
    }
    lines.push(match windows.as_slice() {
        [] => format!("no {}", spec.terms().priority),
        list => format!("{}: {}", spec.terms().priority, list.join(", ")),
    });
    for skip in &s.skip {
        lines.push(format!(
            "skipped if {}",
            spec.conditions().source(skip.cond)
        ));
    }
    if let Some(c) = s.only_if {
        lines.push(format!("only if {}", spec.conditions().source(c)));
    }
    Node {
        id: format!("s{}", step.index()),
        lines,
        conditional: !s.skip.is_empty() || s.only_if.is_some(),
    }
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
        GraphFormat::Mermaid => (mermaid_text, "<br/>"),
        GraphFormat::Dot => (dot_text, "\\n"),
    };
    let escaped: Vec<String> = lines.iter().map(|l| escape(l)).collect();
    escaped.join(line_break)
}

/// The diagram text.
pub(crate) fn render(spec: &Spec, format: GraphFormat) -> String {
    let mut out = String::new();
    let mut edges: Vec<(String, String, String, bool)> = Vec::new();
    let (open, close) = match format {
        GraphFormat::Mermaid => ("flowchart TD\n".to_string(), String::new()),
        GraphFormat::Dot => (
            "digraph turn {\n  rankdir=TB;\n  node [shape=box, fontname=\"Helvetica\"];\n"
                .to_string(),
            "}\n".to_string(),
        ),
    };
    out.push_str(&open);
    let mut previous_last: Option<String> = None;
    for (pi, phase) in spec.phases().iter().enumerate() {
        let mut title = phase.name.clone();
        if let Some(r) = spec.rule(phase.rule) {
            title.push_str(&format!(" [{r}]"));
        }
        for skip in &phase.skip {
            title.push_str(&format!(
                " — skipped if {}",
                spec.conditions().source(skip.cond)
            ));
        }
        if let Some(c) = phase.only_if {
            title.push_str(&format!(" — only if {}", spec.conditions().source(c)));
        }
        if phase.on_demand {
            title.push_str(" — started by an action");
        }
        let nodes: Vec<Node> = phase.steps().map(|s| step_node(spec, s)).collect();
        match format {
            GraphFormat::Mermaid => {
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
        for step in phase.steps() {
            if let Some(r) = spec.step(step).repeat {
                let id = format!("s{}", step.index());
                edges.push((
                    id.clone(),
                    id,
                    format!("again if {}", spec.conditions().source(r.cond)),
                    true,
                ));
            }
        }
        if !phase.on_demand {
            if let (Some(prev), Some(first)) = (&previous_last, nodes.first()) {
                edges.push((prev.clone(), first.id.clone(), String::new(), false));
            }
            previous_last = nodes.last().map(|n| n.id.clone());
        }
    }
    // Phases started by actions, from every step where the action is usable.
    for (ti, t) in spec.timing().iter().enumerate() {
        if let Effect::StartPhase(target) = t.effect {
            let target_phase = spec.phase(target);
            let first = format!("s{}", target_phase.first_step.index());
            let last = format!(
                "s{}",
                target_phase.first_step.index() + target_phase.step_count as usize - 1
            );
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
    if let (Some(last), Some(first)) = (&previous_last, spec.turn().first()) {
        edges.push((
            last.clone(),
            format!("s{}", spec.phase(*first).first_step.index()),
            "next turn".into(),
            true,
        ));
    }
    for (from, to, label, dashed) in edges {
        match format {
            GraphFormat::Mermaid => {
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
                out.push_str(&format!(
                    "  {from} -> {to} [label=\"{}\"{style}];\n",
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
    crate::out::print(&render(&spec, format));
    Ok(ExitCode::SUCCESS)
}
