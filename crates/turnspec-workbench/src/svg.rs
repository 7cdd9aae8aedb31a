//! The turn diagram as SVG, drawn from [`crate::catalog::diagram`] without
//! Graphviz: phases in turn order top to bottom, each step a box inside
//! its phase (a phase without steps is one box), conditional phases and
//! steps dashed, the timing classes each step allows, then the phases a
//! play starts, and the next turn at the bottom, then a legend. Lines too
//! long for their box are wrapped (at a width measured for the font's
//! widest common letters), so text stays inside its box. `turnspec graph
//! --format svg` prints it; docs/diagrams/ holds one per game.

use std::fmt::Write;

use serde_json::Value;
use turnspec_spec::Spec;

const WIDTH: u32 = 640;
const LINE: u32 = 16;
const PAD: u32 = 6;
/// The width the wrapping assumes for one character of the 12 px font
/// (bold Helvetica's average is about 6.7 px; wide letters need more).
const CHAR: u32 = 7;

/// `text` cut at spaces into lines of at most `max` characters (a longer
/// word is cut where it must).
fn wrap(text: &str, max: usize) -> Vec<String> {
    let max = max.max(8);
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        let mut word: Vec<char> = word.chars().collect();
        while word.len() > max {
            if !line.is_empty() {
                lines.push(std::mem::take(&mut line));
            }
            lines.push(word.drain(..max).collect());
        }
        let word: String = word.into_iter().collect();
        let len = line.chars().count();
        if len > 0 && len + 1 + word.chars().count() > max {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&word);
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

/// Lines wrapped to a box `w` wide, each with its class: the pieces of the
/// first line are titles.
fn fit(lines: &[String], w: u32) -> Vec<(String, &'static str)> {
    let max = (w.saturating_sub(16) / CHAR) as usize;
    lines
        .iter()
        .enumerate()
        .flat_map(|(i, l)| {
            let cls = if i == 0 { "title" } else { "line" };
            wrap(l, max).into_iter().map(move |piece| (piece, cls))
        })
        .collect()
}

/// Text for SVG: `&`, `<`, `>` and `"` escaped.
fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

fn str_of<'a>(v: &'a Value, key: &str) -> &'a str {
    v[key].as_str().unwrap_or("")
}

fn titled(v: &Value) -> String {
    match v["rule"].as_str() {
        Some(r) => format!("{} [{r}]", str_of(v, "name")),
        None => str_of(v, "name").to_string(),
    }
}

fn names(list: &Value, key: &str) -> Vec<String> {
    list.as_array()
        .map(|a| {
            a.iter()
                .map(|x| x[key].as_str().or(x.as_str()).unwrap_or("").to_string())
                .collect()
        })
        .unwrap_or_default()
}

/// The body lines of a step: its turn-based actions, windows and the
/// timing classes it allows (when it has a window).
fn step_lines(step: &Value, priority: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let actions = names(&step["actions"], "name");
    if !actions.is_empty() {
        lines.push(format!("does: {}", actions.join(", ")));
    }
    let windows = names(&step["windows"], "mode");
    if windows.is_empty() {
        lines.push(format!("no {priority}"));
    } else {
        lines.push(format!("{priority}: {}", windows.join(", ")));
        let timing = names(&step["timing"], "");
        if !timing.is_empty() {
            lines.push(format!("may play: {}", timing.join(", ")));
        }
    }
    if step["repeats"] == true {
        lines.push("may repeat".into());
    }
    lines.extend(names(&step["conditions"], ""));
    lines
}

struct Canvas {
    body: String,
    y: u32,
}

impl Canvas {
    /// A box at `(x, y)` of `(w, h)`.
    fn rect(&mut self, (x, y): (u32, u32), (w, h): (u32, u32), class: &str) {
        let _ = writeln!(
            self.body,
            r#"<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="4" class="{class}"/>"#
        );
    }

    fn text(&mut self, x: u32, y: u32, text: &str, class: &str) {
        let _ = writeln!(
            self.body,
            r#"<text x="{x}" y="{y}" class="{class}">{}</text>"#,
            esc(text)
        );
    }

    fn arrow(&mut self, y1: u32, y2: u32, dashed: bool) {
        let x = WIDTH / 2;
        let class = if dashed { "edge dashed" } else { "edge" };
        let _ = writeln!(
            self.body,
            r#"<line x1="{x}" y1="{y1}" x2="{x}" y2="{}" class="{class}" marker-end="url(#arrow)"/>"#,
            y2.saturating_sub(2)
        );
    }

    /// A box of lines, wrapped to fit: the first bold; returns its bottom.
    fn boxed(&mut self, x: u32, w: u32, lines: &[String], class: &str) -> u32 {
        let lines = fit(lines, w);
        let h = lines.len() as u32 * LINE + 2 * PAD;
        let top = self.y;
        self.rect((x, top), (w, h), class);
        for (i, (l, cls)) in lines.iter().enumerate() {
            self.text(x + 8, top + PAD + (i as u32 + 1) * LINE - 4, l, cls);
        }
        self.y = top + h;
        self.y
    }

    /// The legend: what solid and dashed boxes and arrows mean.
    fn legend(&mut self, priority: &str) {
        self.y += 24;
        self.text(20, self.y + 12, "Legend", "heading");
        self.y += 20;
        let rows: [(&str, String); 5] = [
            (
                "phase",
                "a phase of every turn, in turn order (arrows)".into(),
            ),
            (
                "phase dashed",
                "only if, or skipped if, the condition written in it holds; or started by a play"
                    .into(),
            ),
            (
                "step",
                format!(
                    "a step: what the game does, who gets {priority} (\"no {priority}\": nobody may play), what may be played"
                ),
            ),
            ("next", "where the next turn begins".into()),
            (
                "ending",
                "how the game ends: declared by the host, or checked by the engine (dashed) where it says".into(),
            ),
        ];
        for (class, text) in rows {
            let top = self.y;
            self.rect((20, top), (36, 16), class);
            for (i, (l, _)) in fit(&[text], WIDTH - 76).iter().enumerate() {
                self.text(66, top + 12 + i as u32 * LINE, l, "line");
                self.y = top + (i as u32 + 1) * LINE;
            }
            self.y += 6;
        }
    }
}

/// The "next turn" box after the regular turn's last phase (before any
/// on-demand phase), with the arrow into it.
fn next_turn_box(c: &mut Canvas, diagram: &Value, phases: &[Value], previous_bottom: Option<u32>) {
    let Some(next) = diagram["next_turn"].as_str() else {
        return;
    };
    let name = phases
        .iter()
        .find(|p| p["id"] == next)
        .map(|p| str_of(p, "name").to_string())
        .unwrap_or_default();
    let top = c.y + 18;
    if let Some(b) = previous_bottom {
        c.arrow(b, top, true);
    }
    c.y = top;
    c.boxed(
        WIDTH / 2 - 150,
        300,
        &[format!("next turn: {name}")],
        "next",
    );
}

/// An ending's lines: `name [rule]`, what it does, and where the engine
/// checks it (or that the host declares it).
pub(crate) fn ending_lines(e: &Value) -> Vec<String> {
    let result = match str_of(e, "result") {
        "wins" => "the player wins",
        "loses" => "the player loses",
        _ => "the game is a draw",
    };
    let mut lines = vec![titled(e), result.to_string()];
    let c = &e["check"];
    if c.is_null() {
        lines.push("declared by the host".into());
    } else {
        let mut at: Vec<String> = names(&c["at"], "")
            .into_iter()
            .map(|p| p.replace('_', " "))
            .collect();
        if let Some(a) = c["after"].as_str() {
            let step = c["after_step"].as_str().unwrap_or("?");
            at.push(format!("after {a} (in {step})"));
        }
        let whom = if c["each_player"] == true {
            "each player"
        } else {
            "the active player"
        };
        lines.push(format!(
            "checked at {} for {whom}: {}",
            at.join(", "),
            str_of(c, "if")
        ));
    }
    lines
}

/// The spec's endings, below the turn: one box each.
fn endings(c: &mut Canvas, diagram: &Value) {
    let list = diagram["endings"].as_array().cloned().unwrap_or_default();
    if list.is_empty() {
        return;
    }
    c.y += 24;
    c.text(20, c.y + 12, "How the game ends", "heading");
    c.y += 20;
    for e in &list {
        let class = if e["check"].is_null() {
            "ending"
        } else {
            "ending dashed"
        };
        c.boxed(20, WIDTH - 40, &ending_lines(e), class);
        c.y += 6;
    }
}

/// The diagram of `spec` as an SVG document.
pub fn render(spec: &Spec) -> String {
    let diagram = crate::catalog::diagram(spec);
    let priority = spec.terms().priority.clone();
    let mut c = Canvas {
        body: String::new(),
        y: 12,
    };
    c.text(20, c.y + 14, str_of(&diagram, "title"), "heading");
    c.y += 28;
    let phases = diagram["phases"].as_array().cloned().unwrap_or_default();
    let mut previous_bottom: Option<u32> = None;
    let mut on_demand_started = false;
    for phase in &phases {
        let on_demand = phase["on_demand"] == true;
        if on_demand && !on_demand_started {
            on_demand_started = true;
            next_turn_box(&mut c, &diagram, &phases, previous_bottom);
            previous_bottom = None;
            c.y += 24;
            c.text(20, c.y + 12, "Phases started by a play", "heading");
            c.y += 20;
        }
        let top = c.y + if previous_bottom.is_some() { 18 } else { 6 };
        if let Some(b) = previous_bottom {
            c.arrow(b, top, false);
        }
        c.y = top;
        let dashed = phase["conditional"] == true || on_demand;
        let class = if dashed { "phase dashed" } else { "phase" };
        let mut title = vec![titled(phase)];
        title.extend(names(&phase["conditions"], ""));
        for s in phase["started_by"].as_array().into_iter().flatten() {
            title.push(format!(
                "started by {} from {}; play returns there after",
                str_of(s, "name"),
                names(&s["from"], "").join(", ")
            ));
        }
        let steps = phase["steps"].as_array().cloned().unwrap_or_default();
        if phase["stepless"] == true {
            let mut lines = title;
            if let Some(step) = steps.first() {
                lines.extend(step_lines(step, &priority));
            }
            previous_bottom = Some(c.boxed(20, WIDTH - 40, &lines, class));
            continue;
        }
        // A phase box around its steps: title lines, then each step.
        let title = fit(&title, WIDTH - 40);
        let start = c.y;
        let mut inner = String::new();
        std::mem::swap(&mut inner, &mut c.body);
        c.y = start + PAD + title.len() as u32 * LINE + 4;
        for step in &steps {
            let mut lines = vec![titled(step)];
            lines.extend(step_lines(step, &priority));
            let cls = if step["conditional"] == true {
                "step dashed"
            } else {
                "step"
            };
            c.boxed(36, WIDTH - 72, &lines, cls);
            c.y += 4;
        }
        let bottom = c.y + PAD;
        let steps_body = std::mem::replace(&mut c.body, inner);
        c.rect((20, start), (WIDTH - 40, bottom - start), class);
        for (i, (l, cls)) in title.iter().enumerate() {
            c.text(28, start + PAD + (i as u32 + 1) * LINE - 4, l, cls);
        }
        c.body.push_str(&steps_body);
        c.y = bottom;
        previous_bottom = Some(bottom);
    }
    if !on_demand_started {
        next_turn_box(&mut c, &diagram, &phases, previous_bottom);
    }
    endings(&mut c, &diagram);
    c.legend(&priority);
    let height = c.y + 16;
    format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" viewBox="0 0 {WIDTH} {height}" font-family="Helvetica, Arial, sans-serif" font-size="12">
<style>
.phase {{ fill: #f4f6fb; stroke: #667; }}
.step {{ fill: #ffffff; stroke: #99a; }}
.next {{ fill: #ffffff; stroke: #667; stroke-dasharray: 4 3; }}
.ending {{ fill: #fbf6ee; stroke: #876; }}
.dashed {{ stroke-dasharray: 5 3; }}
.title {{ font-weight: bold; fill: #222; }}
.line {{ fill: #444; }}
.heading {{ font-weight: bold; font-size: 14px; fill: #222; }}
.edge {{ stroke: #556; stroke-width: 1.2; }}
</style>
<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#556"/></marker></defs>
<rect width="100%" height="100%" fill="#ffffff"/>
{}</svg>
"##,
        c.body
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapping_keeps_every_word_and_the_width() {
        let text = "may play: instant, sorcery, land, ability, a_very_long_identifier_without_spaces_at_all";
        let lines = wrap(text, 20);
        assert!(lines.iter().all(|l| l.chars().count() <= 20), "{lines:?}");
        assert_eq!(lines.concat().replace(' ', ""), text.replace(' ', ""));
        assert_eq!(wrap("short", 20), vec!["short"]);
        assert_eq!(wrap("", 20), vec![""]);
    }
}
