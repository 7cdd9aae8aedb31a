//! Raw TOML → validated [`Spec`], reporting every problem at once.
//!
//! Loading never stops at the first mistake it can step past: syntax errors
//! are all collected by the recoverable parser; unknown keys all come from
//! `serde_ignored`; every semantic check runs on whatever parsed.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::ops::Range;

use petgraph::graphmap::DiGraphMap;
use toml::Spanned;

use crate::cond::{Atom, BUILTIN_ATOMS, CondId, Conditions};
use crate::diag::{Diagnostic, Report};
use crate::inherit::ReadBase;
use crate::model::*;
use crate::raw::*;

/// Loads a spec from TOML text. `path` is only used in messages. A spec
/// that `extends` another needs [`load_with`], which can read files.
///
/// On success the report holds warnings (possibly none); on failure it holds
/// every error found.
pub fn load_str(path: &str, source: &str) -> Result<(Spec, Report), Report> {
    load_with(path, source, &mut |_, _| {
        Err("this loader cannot read files; load the spec with the `turnspec` command or `load_with`".into())
    })
}

/// Loads a spec that may `extend` others; `read` fetches each base.
pub fn load_with(
    path: &str,
    source: &str,
    read: &mut ReadBase<'_>,
) -> Result<(Spec, Report), Report> {
    let (chain, problems) = crate::inherit::chain(path, source, read);
    let mut report = Report::new(path, &chain.combined);
    report.segments = chain.segments.clone();
    if !problems.is_empty() {
        report.diagnostics = problems;
        return Err(report);
    }
    let mut tables = Vec::new();
    for text in &chain.padded {
        let (table, errors) = toml::de::DeTable::parse_recoverable(text);
        for e in errors {
            report.diagnostics.push(
                Diagnostic::error(
                    "turnspec::toml-syntax",
                    e.span().unwrap_or(0..0),
                    format!("TOML syntax: {}", e.message()),
                )
                .label("here")
                .help("see https://toml.io for the TOML syntax"),
            );
        }
        tables.push(table);
    }
    if report.has_errors() {
        return Err(report);
    }
    let mut tables = tables.into_iter();
    let mut merged = tables.next().expect("a chain has at least one file");
    for overlay in tables {
        let span = overlay.span();
        crate::inherit::merge(
            merged.get_mut(),
            overlay.into_inner(),
            &mut report.diagnostics,
        );
        merged = Spanned::new(merged.span().start..span.end, merged.into_inner());
    }
    // Merge problems do not stop the load: what merged is still checked, so
    // every problem is reported together.
    let raw = match raw_from_table(merged, &mut report.diagnostics) {
        Some(raw) => raw,
        None => return Err(report),
    };
    let mut ctx = Ctx::default();
    let spec = ctx.compile(&raw);
    report.diagnostics.extend(ctx.diags);
    report
        .diagnostics
        .sort_by_key(|d| (d.span.start, d.span.end));
    match spec {
        Some(spec) if !report.has_errors() => Ok((spec, report)),
        _ => Err(report),
    }
}

/// Every key the schema knows, for "did you mean" hints.
#[rustfmt::skip]
const KNOWN_KEYS: &[&str] = &[
    "game", "name", "edition", "edition_date", "source", "rule", "players", "min", "max", "turn_order",
    "terms", "priority", "stack", "active_player", "first", "first_rule", "after_action",
    "after_action_rule", "after_resolve", "after_resolve_rule", "pass_rule", "close", "close_rule",
    "variants", "facts", "counters", "timing", "phase", "description", "default", "reset", "who", "during",
    "effect", "limit", "counter", "require", "if", "explain", "id", "tags", "counts_as", "on_demand",
    "only_if", "skip", "step", "actions", "priority_rule", "sequence", "repeat", "window", "answer", "play",
    "effects", "kind", "for", "phases", "turn", "after", "goto", "own_turn_only",
    "own_turn_rule", "mana", "empties", "burn", "burn_rule", "ends_turn_effects", "per", "who_rule",
    "stack_rule", "during_rule", "close", "leaving", "active_player_goto", "extends", "remove", "after", "before",
];

fn raw_from_table(
    table: Spanned<toml::de::DeTable<'_>>,
    diags: &mut Vec<Diagnostic>,
) -> Option<RawSpec> {
    let mut ignored: Vec<Vec<PathPart>> = Vec::new();
    let de = toml::de::Deserializer::from(table.clone());
    let raw: Result<RawSpec, _> =
        serde_ignored::deserialize(de, |path| ignored.push(path_parts(&path)));
    for path in &ignored {
        let (span, key) = locate(&table, path);
        let mut d = Diagnostic::error(
            "turnspec::unknown-key",
            span,
            format!("unknown key `{key}`"),
        )
        .label("not a key turnspec knows here");
        d = match suggest(&key, KNOWN_KEYS) {
            Some(s) => d.help(format!(
                "did you mean `{s}`? Every key is listed in docs/spec-format.md"
            )),
            None => d.help("every key is listed in docs/spec-format.md"),
        };
        diags.push(d);
    }
    match raw {
        Ok(raw) => Some(raw),
        Err(e) => {
            let span = e.span().unwrap_or(0..0);
            diags.push(
                Diagnostic::error("turnspec::schema", span, plain_schema_message(e.message()))
                    .label("this value does not fit the spec format")
                    .help("see docs/spec-format.md for the expected type of each key"),
            );
            None
        }
    }
}

enum PathPart {
    Key(String),
    Index(usize),
}

fn path_parts(path: &serde_ignored::Path<'_>) -> Vec<PathPart> {
    fn walk(path: &serde_ignored::Path<'_>, out: &mut Vec<PathPart>) {
        use serde_ignored::Path;
        match path {
            Path::Root => {}
            Path::Seq { parent, index } => {
                walk(parent, out);
                out.push(PathPart::Index(*index));
            }
            Path::Map { parent, key } => {
                walk(parent, out);
                // `Spanned<T>` deserialises through private wrapper keys.
                if !key.starts_with("$__") {
                    out.push(PathPart::Key(key.clone()));
                }
            }
            Path::Some { parent }
            | Path::NewtypeStruct { parent }
            | Path::NewtypeVariant { parent } => walk(parent, out),
        }
    }
    let mut out = Vec::new();
    walk(path, &mut out);
    out
}

/// Finds the span of the last key of `path` in the parsed document.
fn locate(table: &Spanned<toml::de::DeTable<'_>>, path: &[PathPart]) -> (Range<usize>, String) {
    use toml::de::DeValue;
    let mut span = 0..0;
    let mut name = String::new();
    let mut current: Option<&DeValue<'_>> = None;
    let root = table.get_ref();
    for (i, part) in path.iter().enumerate() {
        let tbl = if i == 0 {
            Some(root)
        } else {
            match current {
                Some(DeValue::Table(t)) => Some(t),
                _ => None,
            }
        };
        match part {
            PathPart::Key(k) => {
                name = k.clone();
                let Some(tbl) = tbl else { break };
                let Some((key, value)) = tbl
                    .iter()
                    .find(|(key, _)| key.get_ref().as_ref() == k.as_str())
                else {
                    break;
                };
                span = key.span();
                current = Some(value.get_ref());
            }
            PathPart::Index(idx) => {
                let Some(DeValue::Array(arr)) = current else {
                    break;
                };
                let Some(v) = arr.get(*idx) else { break };
                span = v.span();
                current = Some(v.get_ref());
            }
        }
    }
    (span, name)
}

/// serde's message without the Rust type names behind the schema
/// ("expected struct RawPlayers" → "expected a table").
fn plain_schema_message(message: &str) -> String {
    let words: Vec<&str> = message.split(' ').collect();
    let mut out: Vec<&str> = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let next_is_schema = words.get(i + 1).is_some_and(|w| w.starts_with("Raw"));
        if (words[i] == "struct" || words[i] == "enum") && next_is_schema {
            out.push("a table");
            // Keep punctuation glued to the type name ("RawGame," → ",").
            let tail = words[i + 1].trim_start_matches(|c: char| c.is_alphanumeric());
            if !tail.is_empty() {
                let last = out.pop().unwrap_or_default();
                out.push(last);
                out.push(tail);
            }
            i += 2;
        } else {
            out.push(words[i]);
            i += 1;
        }
    }
    out.join(" ")
        .replace("a table ,", "a table,")
        .trim()
        .to_string()
}

#[cfg(test)]
#[test]
fn schema_messages_name_no_rust_types() {
    assert_eq!(
        plain_schema_message("invalid type: string \"x\", expected struct RawPlayers"),
        "invalid type: string \"x\", expected a table"
    );
    assert_eq!(
        plain_schema_message("expected struct RawGame, found integer"),
        "expected a table, found integer"
    );
}

/// The closest known word within two edits, for "did you mean" hints.
pub fn suggest<'a>(word: &str, known: &[&'a str]) -> Option<&'a str> {
    known
        .iter()
        .map(|k| (edit_distance(word, k), *k))
        .filter(|(d, k)| *d <= 2 && *d < k.len())
        .min_by_key(|(d, _)| *d)
        .map(|(_, k)| k)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = if ca == *cb { 0 } else { 1 };
            cur.push((prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

#[derive(Default)]
struct Ctx {
    diags: Vec<Diagnostic>,
    origins: Vec<Origin>,
    rules: Vec<String>,
    rule_index: HashMap<String, u16>,
    conditions: Conditions,
    variants: Vec<Flag>,
    facts: Vec<Flag>,
    counters: Vec<Counter>,
}

fn span_of<T>(s: &Spanned<T>) -> Range<usize> {
    s.span()
}

/// The span of the text inside a string literal (skipping the opening quote),
/// so errors inside a condition point at the right word.
fn inner_start(s: &Text) -> usize {
    s.span().start + 1
}

impl Ctx {
    fn error(
        &mut self,
        code: &'static str,
        span: Range<usize>,
        message: impl Into<String>,
    ) -> &mut Diagnostic {
        self.diags.push(Diagnostic::error(code, span, message));
        self.diags.last_mut().expect("just pushed")
    }

    fn rule(&mut self, rule: Option<&Text>) -> RuleRef {
        let Some(rule) = rule else {
            return RuleRef::NONE;
        };
        let text = rule.get_ref().trim().to_string();
        if let Some(&i) = self.rule_index.get(&text) {
            return RuleRef(i);
        }
        let i = self.rules.len() as u16;
        self.rules.push(text.clone());
        self.rule_index.insert(text, i);
        RuleRef(i)
    }

    fn choice<T: Copy>(
        &mut self,
        value: Option<&Text>,
        default: T,
        options: &[(&str, T)],
        what: &str,
    ) -> T {
        let Some(value) = value else { return default };
        if let Some((_, v)) = options
            .iter()
            .find(|(name, _)| *name == value.get_ref().as_str())
        {
            return *v;
        }
        let names: Vec<&str> = options.iter().map(|(n, _)| *n).collect();
        let list = names
            .iter()
            .map(|n| format!("`{n}`"))
            .collect::<Vec<_>>()
            .join(", ");
        let hint = match suggest(value.get_ref(), &names) {
            Some(s) => format!("did you mean `{s}`? {what} is one of {list}"),
            None => format!("{what} is one of {list}"),
        };
        self.error(
            "turnspec::bad-value",
            span_of(value),
            format!("`{}` is not a valid {what}", value.get_ref()),
        )
        .labelled("unknown value")
        .help = Some(hint);
        default
    }

    fn condition(&mut self, text: &Text) -> Option<CondId> {
        let variants: Vec<String> = self.variants.iter().map(|f| f.id.clone()).collect();
        let facts: Vec<String> = self.facts.iter().map(|f| f.id.clone()).collect();
        let counters: Vec<String> = self.counters.iter().map(|f| f.id.clone()).collect();
        let mut resolve = |name: &str| -> Result<Atom, String> {
            let lookup =
                |list: &[String], rest: &str, kind: &str, table: &str| -> Result<u8, String> {
                    if let Some(i) = list.iter().position(|x| x == rest) {
                        return Ok(i as u8);
                    }
                    let names: Vec<&str> = list.iter().map(|s| s.as_str()).collect();
                    Err(match suggest(rest, &names) {
                        Some(s) => format!("did you mean `{kind}.{s}`?"),
                        None if names.is_empty() => {
                            format!("declare it in a `[{table}.{rest}]` table")
                        }
                        None => format!(
                            "declared {table}: {}; or declare `[{table}.{rest}]`",
                            names.join(", ")
                        ),
                    })
                };
            if let Some(rest) = name.strip_prefix("variant.") {
                return lookup(&variants, rest, "variant", "variants").map(Atom::Variant);
            }
            if let Some(rest) = name.strip_prefix("fact.") {
                return lookup(&facts, rest, "fact", "facts").map(Atom::Fact);
            }
            if let Some(rest) = name.strip_prefix("counter.") {
                return lookup(&counters, rest, "counter", "counters").map(Atom::Counter);
            }
            if let Some((_, a)) = BUILTIN_ATOMS.iter().find(|(n, _)| *n == name) {
                return Ok(*a);
            }
            let names: Vec<&str> = BUILTIN_ATOMS.iter().map(|(n, _)| *n).collect();
            Err(match suggest(name, &names) {
                Some(s) => format!("did you mean `{s}`?"),
                None => format!(
                    "use `variant.NAME`, `fact.NAME`, `counter.NAME` or one of: {}",
                    names.join(", ")
                ),
            })
        };
        match self.conditions.parse(text.get_ref(), &mut resolve) {
            Ok(id) => Some(id),
            Err(errors) => {
                let base = inner_start(text);
                for e in errors {
                    let span = (base + e.range.start)..(base + e.range.end.max(e.range.start + 1));
                    self.error(
                        "turnspec::condition",
                        span,
                        format!("in condition: {}", e.message),
                    )
                    .labelled("here")
                    .help = Some(e.help);
                }
                None
            }
        }
    }

    fn conditions(&mut self, list: &[Spanned<RawWhen>]) -> Vec<Condition> {
        let mut out = Vec::new();
        for w in list {
            let rule = self.rule(w.get_ref().rule.as_ref());
            if let Some(cond) = self.condition(&w.get_ref().condition) {
                out.push(Condition { cond, rule });
            }
        }
        out
    }

    fn flags(&mut self, table: &BTreeMap<String, Spanned<RawFlag>>, what: &str) -> Vec<Flag> {
        let mut out = Vec::new();
        for (key, raw) in in_file_order(table) {
            let key = &key;
            if out.len() == MAX_FLAGS {
                self.error(
                    "turnspec::too-many",
                    span_of(key),
                    format!("more than {MAX_FLAGS} {what}"),
                )
                .help = Some("the engine keeps these as bits of one 64-bit word".into());
                break;
            }
            out.push(Flag {
                id: key.get_ref().clone(),
                name: raw
                    .name
                    .as_ref()
                    .map(|n| n.get_ref().clone())
                    .unwrap_or_else(|| key.get_ref().clone()),
                description: raw
                    .description
                    .as_ref()
                    .map(|n| n.get_ref().clone())
                    .unwrap_or_default(),
                rule: self.rule(raw.rule.as_ref()),
                default: raw.default.as_ref().map(|d| *d.get_ref()).unwrap_or(false),
            });
        }
        out
    }

    fn compile(&mut self, raw: &RawSpec) -> Option<Spec> {
        // --- game -------------------------------------------------------
        let game = match &raw.game {
            Some(g) => self.game(g),
            None => {
                self.error("turnspec::missing", 0..0, "the spec has no `[game]` table")
                    .help = Some("start the file with `[game]` and `name = \"...\"`, `players = { min = 2, max = 4 }`".into());
                None
            }
        };
        let terms = Terms {
            priority: raw
                .terms
                .priority
                .as_ref()
                .map(|t| t.get_ref().clone())
                .unwrap_or_else(|| "priority".into()),
            stack: raw
                .terms
                .stack
                .as_ref()
                .map(|t| t.get_ref().clone())
                .unwrap_or_else(|| "stack".into()),
            active_player: raw
                .terms
                .active_player
                .as_ref()
                .map(|t| t.get_ref().clone())
                .unwrap_or_else(|| "active player".into()),
        };
        let priority = self.priority(raw.priority.as_ref());

        // --- flags and counters ---------------------------------------------
        self.variants = self.flags(&raw.variants, "variants");
        self.facts = self.flags(&raw.facts, "facts");
        for (key, c) in in_file_order(&raw.counters) {
            let key = &key;
            if self.counters.len() == MAX_COUNTERS {
                self.error(
                    "turnspec::too-many",
                    span_of(key),
                    format!("more than {MAX_COUNTERS} counters"),
                )
                .help = Some(
                    "the engine keeps counters in a fixed array so game state stays small".into(),
                );
                break;
            }
            let reset = self.choice(
                c.reset.as_ref(),
                Reset::Turn,
                &[
                    ("game", Reset::Game),
                    ("turn", Reset::Turn),
                    ("phase", Reset::Phase),
                    ("step", Reset::Step),
                ],
                "counter reset",
            );
            let rule = self.rule(c.rule.as_ref());
            let per_player = self.choice(
                c.per.as_ref(),
                false,
                &[("game", false), ("player", true)],
                "counter `per`",
            );
            let slot = self.counters.iter().filter(|c| c.per_player).count() as u8;
            if per_player && slot as usize >= MAX_PLAYER_COUNTERS {
                self.error(
                    "turnspec::too-many",
                    span_of(key),
                    format!("more than {MAX_PLAYER_COUNTERS} counters with `per = \"player\"`"),
                )
                .help = Some("the engine keeps per-player counters in a small fixed array so game state stays small".into());
            }
            self.counters.push(Counter {
                id: key.get_ref().clone(),
                description: c
                    .description
                    .as_ref()
                    .map(|d| d.get_ref().clone())
                    .unwrap_or_default(),
                rule,
                reset,
                per_player,
                slot: slot.min(MAX_PLAYER_COUNTERS as u8 - 1),
            });
        }

        // --- phase and step ids ---------------------------------------------
        if raw.phase.is_empty() {
            self.error("turnspec::missing", 0..0, "the spec has no phases")
                .help = Some("add `[[phase]]` tables in turn order".into());
        }
        if raw.phase.len() > MAX_PHASES {
            self.error(
                "turnspec::too-many",
                span_of(&raw.phase[MAX_PHASES]),
                format!("more than {MAX_PHASES} phases"),
            );
            return None;
        }
        let mut seen: HashMap<String, Range<usize>> = HashMap::new();
        let mut kinds: Vec<String> = Vec::new();
        let mut phases: Vec<Phase> = Vec::new();
        for p in &raw.phase {
            let p_raw = p.get_ref();
            self.unique_id(&mut seen, &p_raw.id, "phase");
            for s in &p_raw.step {
                self.unique_id(&mut seen, &s.get_ref().id, "step");
            }
            let kind_name = p_raw
                .counts_as
                .as_ref()
                .unwrap_or(&p_raw.id)
                .get_ref()
                .clone();
            let kind = match kinds.iter().position(|k| *k == kind_name) {
                Some(k) => k,
                None => {
                    kinds.push(kind_name);
                    kinds.len() - 1
                }
            };
            if kind >= MAX_PHASE_KINDS {
                self.error(
                    "turnspec::too-many",
                    span_of(&p_raw.id),
                    format!("more than {MAX_PHASE_KINDS} kinds of phase"),
                )
                .help = Some("give phases that count together the same `counts_as`".into());
            }
            let rule = self.rule(p_raw.rule.as_ref());
            let skip = self.conditions(&p_raw.skip);
            let only_if = p_raw.only_if.as_ref().and_then(|c| self.condition(c));
            phases.push(Phase {
                id: p_raw.id.get_ref().clone(),
                name: display_name(p_raw.name.as_ref(), &p_raw.id),
                rule,
                tags: p_raw.tags.iter().map(|t| t.get_ref().clone()).collect(),
                kind: kind.min(MAX_PHASE_KINDS - 1) as u8,
                on_demand: p_raw
                    .on_demand
                    .as_ref()
                    .map(|b| *b.get_ref())
                    .unwrap_or(false),
                only_if,
                skip,
                first_step: StepId(0),
                step_count: 0,
                implicit_step: p_raw.step.is_empty(),
            });
        }
        let mut names: HashSet<String> = seen.keys().cloned().collect();
        for p in &raw.phase {
            for t in &p.get_ref().tags {
                names.insert(t.get_ref().clone());
            }
            for s in &p.get_ref().step {
                for t in &s.get_ref().tags {
                    names.insert(t.get_ref().clone());
                }
            }
        }

        // --- timing classes (before steps: actions may play them) ---------
        let mut timing: Vec<TimingClass> = Vec::new();
        let mut timing_spans: Vec<Range<usize>> = Vec::new();
        for (key, t) in in_file_order(&raw.timing) {
            let key = &key;
            if timing.len() == MAX_TIMING_CLASSES {
                self.error(
                    "turnspec::too-many",
                    span_of(key),
                    format!("more than {MAX_TIMING_CLASSES} timing classes"),
                );
                break;
            }
            timing_spans.push(span_of(key));
            let tc = self.timing(key, t, &phases, &names);
            timing.push(tc);
        }

        // --- steps, actions, windows ----------------------------------------
        let mut steps: Vec<Step> = Vec::new();
        let mut actions: Vec<TurnAction> = Vec::new();
        let mut windows: Vec<Window> = Vec::new();
        let mut action_ids: HashMap<String, Range<usize>> = HashMap::new();
        let mut step_spans: Vec<Range<usize>> = Vec::new();
        for (pi, p) in raw.phase.iter().enumerate() {
            let p_raw = p.get_ref();
            phases[pi].first_step = StepId(steps.len() as u16);
            if p_raw.step.is_empty() {
                let step_id = StepId(steps.len() as u16);
                step_spans.push(span_of(&p_raw.id));
                let step = self.step_body(
                    StepHeader {
                        id: p_raw.id.get_ref().clone(),
                        name: phases[pi].name.clone(),
                        rule: phases[pi].rule,
                        tags: Vec::new(),
                        phase: PhaseId(pi as u8),
                        implicit: true,
                        only_if: None,
                        skip: Vec::new(),
                    },
                    step_id,
                    p_raw.body(),
                    span_of(&p_raw.id),
                    &timing,
                    &mut actions,
                    &mut windows,
                    &mut action_ids,
                );
                steps.push(step);
            } else {
                let b = p_raw.body();
                if b.actions.is_some()
                    || b.sequence.is_some()
                    || b.priority.is_some()
                    || b.repeat.is_some()
                {
                    self.error(
                        "turnspec::phase-body-with-steps",
                        span_of(&p_raw.id),
                        format!(
                            "phase `{}` has steps and also its own actions/priority",
                            p_raw.id.get_ref()
                        ),
                    )
                    .help = Some(
                        "move `actions`, `priority`, `sequence` and `repeat` into its steps".into(),
                    );
                }
                for s in &p_raw.step {
                    let s_raw = s.get_ref();
                    let step_id = StepId(steps.len() as u16);
                    step_spans.push(span_of(&s_raw.id));
                    let rule = self.rule(s_raw.rule.as_ref());
                    let skip = self.conditions(&s_raw.skip);
                    let only_if = s_raw.only_if.as_ref().and_then(|c| self.condition(c));
                    let step = self.step_body(
                        StepHeader {
                            id: s_raw.id.get_ref().clone(),
                            name: display_name(s_raw.name.as_ref(), &s_raw.id),
                            rule,
                            tags: s_raw.tags.iter().map(|t| t.get_ref().clone()).collect(),
                            phase: PhaseId(pi as u8),
                            implicit: false,
                            only_if,
                            skip,
                        },
                        step_id,
                        s_raw.body(),
                        span_of(&s_raw.id),
                        &timing,
                        &mut actions,
                        &mut windows,
                        &mut action_ids,
                    );
                    steps.push(step);
                }
            }
            phases[pi].step_count = steps.len() as u16 - phases[pi].first_step.0;
        }

        // --- where each timing class may be used ------------------------------
        for (ti, t) in timing.iter().enumerate() {
            for step in steps.iter_mut() {
                let phase = &phases[step.phase.index()];
                let matches = t.during.is_empty()
                    || t.during.iter().any(|d| {
                        *d == step.id
                            || step.tags.contains(d)
                            || *d == phase.id
                            || phase.tags.contains(d)
                    });
                if matches {
                    step.timing_mask |= 1 << ti;
                }
            }
        }

        let turn: Vec<PhaseId> = phases
            .iter()
            .enumerate()
            .filter(|(_, p)| !p.on_demand)
            .map(|(i, _)| PhaseId(i as u8))
            .collect();

        let mut effects = Vec::new();
        for (key, e) in in_file_order(&raw.effects) {
            if effects.len() == MAX_EFFECTS {
                self.error(
                    "turnspec::too-many",
                    span_of(&key),
                    format!("more than {MAX_EFFECTS} effects"),
                );
                break;
            }
            if let Some(def) = self.effect(&key, e, &phases, &steps) {
                effects.push(def);
            }
        }
        let mana = self.mana(raw.mana.as_ref());
        let leaving = match &raw.leaving {
            Some(l) => {
                let l = l.get_ref();
                LeavingRules {
                    rule: self.rule(l.rule.as_ref()),
                    active_player_goto: l
                        .active_player_goto
                        .as_ref()
                        .and_then(|g| self.step_ref(g, &steps)),
                }
            }
            None => LeavingRules {
                rule: RuleRef::NONE,
                active_player_goto: None,
            },
        };

        self.check_structure(
            raw,
            &phases,
            &steps,
            &windows,
            &timing,
            &timing_spans,
            &step_spans,
            &turn,
        );
        let loops = crate::loops::check_repeats(&crate::loops::Parts {
            raw,
            conditions: &self.conditions,
            rules: &self.rules,
            steps: &steps,
            actions: &actions,
            timing: &timing,
            counters: &self.counters,
            facts: &self.facts,
            variants: &self.variants,
            max_players: game.as_ref().map_or(MAX_PLAYERS, |g| g.max_players),
            step_spans: &step_spans,
        });
        self.diags.extend(loops);

        self.record_origins(raw);
        let game = game?;
        let mut spec = Spec::assemble(
            game,
            terms,
            priority,
            phases,
            turn,
            steps,
            actions,
            windows,
            timing,
            std::mem::take(&mut self.counters),
            std::mem::take(&mut self.facts),
            std::mem::take(&mut self.variants),
            effects,
            mana,
            leaving,
            kinds,
            std::mem::take(&mut self.conditions),
            std::mem::take(&mut self.rules),
        );
        spec.origins = std::mem::take(&mut self.origins);
        Some(spec)
    }

    /// Which entry set each element, for `turnspec check --explain`.
    fn record_origins(&mut self, raw: &RawSpec) {
        let mut add =
            |element: String, offset: usize| self.origins.push(Origin { element, offset });
        if let Some(g) = &raw.game {
            add("game".into(), g.span().start);
        }
        if let Some(p) = &raw.priority {
            add("priority".into(), p.span().start);
        }
        if let Some(m) = &raw.mana {
            add("mana".into(), m.span().start);
        }
        for (what, table) in [("variant", &raw.variants), ("fact", &raw.facts)] {
            for (key, _) in in_file_order(table) {
                add(format!("{what} {}", key.get_ref()), key.span().start);
            }
        }
        for (key, _) in in_file_order(&raw.counters) {
            add(format!("counter {}", key.get_ref()), key.span().start);
        }
        for (key, _) in in_file_order(&raw.timing) {
            add(format!("timing {}", key.get_ref()), key.span().start);
        }
        for (key, _) in in_file_order(&raw.effects) {
            add(format!("effect {}", key.get_ref()), key.span().start);
        }
        for p in &raw.phase {
            let p = p.get_ref();
            add(format!("phase {}", p.id.get_ref()), p.id.span().start);
            let actions = |list: Option<&Spanned<Vec<Spanned<RawStage>>>>,
                           add: &mut dyn FnMut(String, usize)| {
                for a in list.map(|l| l.get_ref().as_slice()).unwrap_or(&[]) {
                    if let Some(id) = &a.get_ref().id {
                        add(format!("  action {}", id.get_ref()), id.span().start);
                    }
                }
            };
            actions(p.actions.as_ref(), &mut add);
            actions(p.sequence.as_ref(), &mut add);
            for st in &p.step {
                let st = st.get_ref();
                add(format!("  step {}", st.id.get_ref()), st.id.span().start);
                actions(st.actions.as_ref(), &mut add);
                actions(st.sequence.as_ref(), &mut add);
            }
        }
    }

    fn unique_id(&mut self, seen: &mut HashMap<String, Range<usize>>, id: &Text, what: &str) {
        let name = id.get_ref();
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        {
            self.error(
                "turnspec::bad-id",
                span_of(id),
                format!("`{name}` is not a valid {what} id"),
            )
            .help = Some("ids use letters, digits, `_` and `-`, e.g. `declare_attackers`".into());
        }
        if seen.contains_key(name) {
            self.error(
                "turnspec::duplicate-id",
                span_of(id),
                format!("`{name}` is defined twice"),
            )
            .labelled(format!("second {what} named `{name}`"))
            .help = Some(
                "phase and step ids share one namespace and must be unique; rename one of them"
                    .into(),
            );
        } else {
            seen.insert(name.clone(), span_of(id));
        }
    }

    fn game(&mut self, g: &Spanned<RawGame>) -> Option<GameInfo> {
        let raw = g.get_ref();
        let min = *raw.players.get_ref().min.get_ref();
        let max = *raw.players.get_ref().max.get_ref();
        let mut ok = true;
        if !(1..=MAX_PLAYERS as i64).contains(&min) {
            ok = false;
            self.error(
                "turnspec::players",
                span_of(&raw.players.get_ref().min),
                format!("minimum of {min} players is impossible"),
            )
            .help = Some(format!(
                "the engine runs games of 1 to {MAX_PLAYERS} players"
            ));
        }
        if !(1..=MAX_PLAYERS as i64).contains(&max) {
            ok = false;
            self.error(
                "turnspec::players",
                span_of(&raw.players.get_ref().max),
                format!("maximum of {max} players is impossible"),
            )
            .help = Some(format!(
                "the engine runs games of 1 to {MAX_PLAYERS} players"
            ));
        }
        if ok && min > max {
            ok = false;
            self.error(
                "turnspec::players",
                span_of(&raw.players),
                format!("player range {min}..{max} is empty"),
            )
            .labelled("min is larger than max")
            .help = Some("swap the two numbers".into());
        }
        let turn_order = self.choice(
            raw.turn_order.as_ref(),
            TurnOrder::Clockwise,
            &[
                ("clockwise", TurnOrder::Clockwise),
                ("counterclockwise", TurnOrder::Counterclockwise),
            ],
            "turn order",
        );
        let rule = self.rule(raw.rule.as_ref());
        let text = |t: &Option<Text>| t.as_ref().map(|t| t.get_ref().clone()).unwrap_or_default();
        ok.then(|| GameInfo {
            name: raw.name.get_ref().clone(),
            edition: text(&raw.edition),
            edition_date: text(&raw.edition_date),
            source: text(&raw.source),
            rule,
            min_players: min as u8,
            max_players: max as u8,
            turn_order,
        })
    }

    fn priority(&mut self, p: Option<&Spanned<RawPriority>>) -> PriorityModel {
        let Some(p) = p else {
            return PriorityModel {
                rule: RuleRef::NONE,
                first: Holder::ActivePlayer,
                first_rule: RuleRef::NONE,
                after_action: Holder::Actor,
                after_action_rule: RuleRef::NONE,
                after_resolve: Holder::ActivePlayer,
                after_resolve_rule: RuleRef::NONE,
                pass_rule: RuleRef::NONE,
                close_rule: RuleRef::NONE,
            };
        };
        let p = p.get_ref();
        let first = self.choice(
            p.first.as_ref(),
            Holder::ActivePlayer,
            &[("active_player", Holder::ActivePlayer)],
            "first holder",
        );
        let after_action = self.choice(
            p.after_action.as_ref(),
            Holder::Actor,
            &[
                ("actor", Holder::Actor),
                ("active_player", Holder::ActivePlayer),
            ],
            "holder after an action",
        );
        let after_resolve = self.choice(
            p.after_resolve.as_ref(),
            Holder::ActivePlayer,
            &[("active_player", Holder::ActivePlayer)],
            "holder after a resolution",
        );
        self.choice(
            p.close.as_ref(),
            (),
            &[("all_pass", ())],
            "window close rule",
        );
        PriorityModel {
            rule: self.rule(p.rule.as_ref()),
            first,
            first_rule: self.rule(p.first_rule.as_ref()),
            after_action,
            after_action_rule: self.rule(p.after_action_rule.as_ref()),
            after_resolve,
            after_resolve_rule: self.rule(p.after_resolve_rule.as_ref()),
            pass_rule: self.rule(p.pass_rule.as_ref()),
            close_rule: self.rule(p.close_rule.as_ref()),
        }
    }

    fn timing(
        &mut self,
        key: &Text,
        t: &RawTiming,
        phases: &[Phase],
        names: &HashSet<String>,
    ) -> TimingClass {
        let who = self.choice(
            t.who.as_ref(),
            Who::Any,
            &[
                ("any", Who::Any),
                ("active_player", Who::ActivePlayer),
                ("non_active_player", Who::NonActivePlayer),
                ("nobody", Who::Nobody),
            ],
            "`who`",
        );
        let stack = self.choice(
            t.stack.as_ref(),
            StackRequirement::Any,
            &[
                ("any", StackRequirement::Any),
                ("empty", StackRequirement::Empty),
            ],
            "stack requirement",
        );
        let mut during = Vec::new();
        if let Some(list) = &t.during {
            for d in list.get_ref() {
                if !names.contains(d.get_ref()) {
                    let known: Vec<&str> = names.iter().map(|s| s.as_str()).collect();
                    let hint = match suggest(d.get_ref(), &known) {
                        Some(s) => format!("did you mean `{s}`?"),
                        None => "`during` lists phase ids, step ids or tags".into(),
                    };
                    self.error(
                        "turnspec::unknown-reference",
                        span_of(d),
                        format!("no phase, step or tag named `{}`", d.get_ref()),
                    )
                    .labelled("referenced here")
                    .help = Some(hint);
                }
                during.push(d.get_ref().clone());
            }
        }
        let effect_name = self.choice(
            t.effect.as_ref(),
            "stack",
            &[
                ("stack", "stack"),
                ("special", "special"),
                ("start_phase", "start_phase"),
            ],
            "effect",
        );
        let effect = match effect_name {
            "special" => Effect::Special,
            "start_phase" => {
                match &t.phase {
                    Some(ph) => match phases.iter().position(|p| p.id == *ph.get_ref()) {
                        Some(i) => {
                            if !phases[i].on_demand {
                                self.error("turnspec::start-regular-phase", span_of(ph), format!("phase `{}` is part of the regular turn", ph.get_ref()))
                                .help = Some("only phases with `on_demand = true` can be started by an action".into());
                            }
                            Effect::StartPhase(PhaseId(i as u8))
                        }
                        None => {
                            let known: Vec<&str> = phases.iter().map(|p| p.id.as_str()).collect();
                            let hint = suggest(ph.get_ref(), &known)
                                .map(|s| format!("did you mean `{s}`?"))
                                .unwrap_or_else(|| "name a phase declared with `[[phase]]`".into());
                            self.error(
                                "turnspec::unknown-reference",
                                span_of(ph),
                                format!("no phase named `{}`", ph.get_ref()),
                            )
                            .labelled("referenced here")
                            .help = Some(hint);
                            Effect::Stack
                        }
                    },
                    None => {
                        self.error(
                            "turnspec::missing",
                            span_of(key),
                            format!(
                                "timing class `{}` starts a phase but names none",
                                key.get_ref()
                            ),
                        )
                        .help = Some("add `phase = \"<phase id>\"`".into());
                        Effect::Stack
                    }
                }
            }
            _ => Effect::Stack,
        };
        if let Some(phase) = t.phase.as_ref().filter(|_| effect_name != "start_phase") {
            self.error(
                "turnspec::unused-key",
                span_of(phase),
                "`phase` is only used with `effect = \"start_phase\"`",
            );
        }
        let limit = t.limit.as_ref().and_then(|l| {
            let raw = l.get_ref();
            let counter = self.counter_ref(&raw.counter);
            let max = *raw.max.get_ref();
            if !(0..=u16::MAX as i64).contains(&max) {
                self.error(
                    "turnspec::bad-value",
                    span_of(&raw.max),
                    format!("limit {max} is out of range"),
                );
            }
            let rule = self.rule(raw.rule.as_ref());
            counter.map(|counter| Limit {
                counter,
                max: max.clamp(0, u16::MAX as i64) as u16,
                rule,
            })
        });
        let mut require = Vec::new();
        for r in &t.require {
            let raw = r.get_ref();
            let rule = self.rule(raw.rule.as_ref());
            if let Some(cond) = self.condition(&raw.condition) {
                require.push(Requirement {
                    condition: Condition { cond, rule },
                    explain: raw
                        .explain
                        .as_ref()
                        .map(|e| e.get_ref().clone())
                        .unwrap_or_else(|| raw.condition.get_ref().clone()),
                });
            }
        }
        TimingClass {
            id: key.get_ref().clone(),
            name: display_name(t.name.as_ref(), key),
            rule: self.rule(t.rule.as_ref()),
            who,
            who_rule: self.rule(t.who_rule.as_ref()),
            stack,
            stack_rule: self.rule(t.stack_rule.as_ref()),
            during,
            during_rule: self.rule(t.during_rule.as_ref()),
            effect,
            limit,
            require,
        }
    }

    fn phase_ref(&mut self, name: &Text, phases: &[Phase]) -> Option<PhaseId> {
        if let Some(i) = phases.iter().position(|p| p.id == *name.get_ref()) {
            return Some(PhaseId(i as u8));
        }
        let known: Vec<&str> = phases.iter().map(|p| p.id.as_str()).collect();
        let hint = suggest(name.get_ref(), &known)
            .map(|s| format!("did you mean `{s}`?"))
            .unwrap_or_else(|| format!("phases: {}", known.join(", ")));
        self.error(
            "turnspec::unknown-reference",
            span_of(name),
            format!("no phase named `{}`", name.get_ref()),
        )
        .labelled("referenced here")
        .help = Some(hint);
        None
    }

    fn step_ref(&mut self, name: &Text, steps: &[Step]) -> Option<StepId> {
        if let Some(i) = steps.iter().position(|s| s.id == *name.get_ref()) {
            return Some(StepId(i as u16));
        }
        let known: Vec<&str> = steps.iter().map(|s| s.id.as_str()).collect();
        let hint = suggest(name.get_ref(), &known)
            .map(|s| format!("did you mean `{s}`?"))
            .unwrap_or_else(|| "name a step id (a step-less phase's id names its body)".into());
        self.error(
            "turnspec::unknown-reference",
            span_of(name),
            format!("no step named `{}`", name.get_ref()),
        )
        .labelled("referenced here")
        .help = Some(hint);
        None
    }

    fn effect(
        &mut self,
        key: &Text,
        e: &RawEffect,
        phases: &[Phase],
        steps: &[Step],
    ) -> Option<EffectDef> {
        let kind_name = self.choice(
            Some(&e.kind),
            "",
            &[
                ("extra_turn", "extra_turn"),
                ("extra_phases", "extra_phases"),
                ("extra_step", "extra_step"),
                ("skip", "skip"),
                ("end_turn", "end_turn"),
                ("end_phase", "end_phase"),
            ],
            "effect kind",
        );
        let need = |ctx: &mut Ctx, what: &str| {
            ctx.error(
                "turnspec::missing",
                span_of(key),
                format!("effect `{}` ({kind_name}) needs `{what}`", key.get_ref()),
            );
        };
        let kind = match kind_name {
            "extra_turn" => {
                let each = self.choice(
                    e.target.as_ref(),
                    false,
                    &[("player", false), ("each_player", true)],
                    "`for`",
                );
                EffectKind::ExtraTurn { each_player: each }
            }
            "extra_phases" => {
                let Some(list) = &e.phases else {
                    need(self, "phases = [...]");
                    return None;
                };
                let ids: Vec<PhaseId> = list
                    .get_ref()
                    .iter()
                    .filter_map(|p| self.phase_ref(p, phases))
                    .collect();
                if ids.is_empty() {
                    need(self, "at least one phase in `phases`");
                    return None;
                }
                EffectKind::ExtraPhases(ids)
            }
            "extra_step" => {
                let Some(step) = &e.step else {
                    need(self, "step");
                    return None;
                };
                let step = self.step_ref(step, steps)?;
                let after_phase = self.choice(
                    e.after.as_ref(),
                    false,
                    &[("this_step", false), ("this_phase", true)],
                    "`after`",
                );
                EffectKind::ExtraStep { step, after_phase }
            }
            "skip" => {
                let target = match (&e.step, &e.phase, e.turn.as_ref().map(|t| *t.get_ref())) {
                    (Some(s), None, None | Some(false)) => {
                        let step = self.step_ref(s, steps)?;
                        // A step-less phase's id names its body: skipping it
                        // skips the phase.
                        if steps[step.index()].implicit {
                            SkipTarget::Phase(steps[step.index()].phase)
                        } else {
                            SkipTarget::Step(step)
                        }
                    }
                    (None, Some(p), None | Some(false)) => {
                        SkipTarget::Phase(self.phase_ref(p, phases)?)
                    }
                    (None, None, Some(true)) => SkipTarget::Turn,
                    _ => {
                        self.error("turnspec::effect", span_of(key), format!("skip effect `{}` needs exactly one of `step`, `phase` or `turn = true`", key.get_ref()));
                        return None;
                    }
                };
                EffectKind::Skip(target)
            }
            "end_turn" => {
                let Some(goto) = &e.goto else {
                    need(
                        self,
                        "goto = \"<step>\" (where the turn continues, e.g. the cleanup step)",
                    );
                    return None;
                };
                let goto = self.step_ref(goto, steps)?;
                if phases[steps[goto.index()].phase.index()].on_demand {
                    self.error(
                        "turnspec::effect",
                        span_of(e.goto.as_ref().expect("checked")),
                        "`goto` of an end_turn effect must be a step of a regular phase",
                    );
                }
                EffectKind::EndTurn { goto }
            }
            "end_phase" => {
                let Some(phase) = &e.phase else {
                    need(self, "phase");
                    return None;
                };
                let phase = self.phase_ref(phase, phases)?;
                let goto = match &e.goto {
                    Some(g) => {
                        let g = self.step_ref(g, steps)?;
                        if steps[g.index()].phase != phase {
                            self.error(
                                "turnspec::effect",
                                span_of(e.goto.as_ref().expect("checked")),
                                "`goto` must be a step of the phase being ended",
                            );
                        }
                        Some(g)
                    }
                    None => None,
                };
                EffectKind::EndPhase { phase, goto }
            }
            _ => return None,
        };
        let rule = self.rule(e.rule.as_ref());
        let own_turn_rule = match e.own_turn_rule.as_ref() {
            Some(r) => self.rule(Some(r)),
            None => rule,
        };
        Some(EffectDef {
            id: key.get_ref().clone(),
            name: display_name(e.name.as_ref(), key),
            rule,
            kind,
            own_turn_only: e
                .own_turn_only
                .as_ref()
                .is_some_and(|b| *b.get_ref())
                .then_some(own_turn_rule),
        })
    }

    fn mana(&mut self, m: Option<&Spanned<RawMana>>) -> ManaRules {
        let Some(m) = m else {
            return ManaRules {
                empties: ManaEmpties::Step,
                rule: RuleRef::NONE,
                burn: false,
                burn_rule: RuleRef::NONE,
            };
        };
        let m = m.get_ref();
        ManaRules {
            empties: self.choice(
                m.empties.as_ref(),
                ManaEmpties::Step,
                &[("step", ManaEmpties::Step), ("phase", ManaEmpties::Phase)],
                "`empties`",
            ),
            rule: self.rule(m.rule.as_ref()),
            burn: m.burn.as_ref().is_some_and(|b| *b.get_ref()),
            burn_rule: self.rule(m.burn_rule.as_ref()),
        }
    }

    fn counter_ref(&mut self, name: &Text) -> Option<CounterId> {
        if let Some(i) = self.counters.iter().position(|c| c.id == *name.get_ref()) {
            return Some(CounterId(i as u8));
        }
        let known: Vec<&str> = self.counters.iter().map(|c| c.id.as_str()).collect();
        let hint = match suggest(name.get_ref(), &known) {
            Some(s) => format!("did you mean `{s}`?"),
            None => format!(
                "declare it: `[counters.{}]` with `reset = \"turn\"`",
                name.get_ref()
            ),
        };
        self.error(
            "turnspec::unknown-reference",
            span_of(name),
            format!("no counter named `{}`", name.get_ref()),
        )
        .labelled("referenced here")
        .help = Some(hint);
        None
    }

    #[allow(clippy::too_many_arguments)]
    fn step_body(
        &mut self,
        header: StepHeader,
        step_id: StepId,
        body: RawBody<'_>,
        span: Range<usize>,
        timing: &[TimingClass],
        actions: &mut Vec<TurnAction>,
        windows: &mut Vec<Window>,
        action_ids: &mut HashMap<String, Range<usize>>,
    ) -> Step {
        let mut stages = Vec::new();
        if body.sequence.is_some() && (body.actions.is_some() || body.priority.is_some()) {
            self.error("turnspec::sequence-and-actions", span.clone(), format!("`{}` has both `sequence` and `actions`/`priority`", header.id))
                .help = Some("use `actions` + `priority` for \"actions, then a window\", or `sequence` to interleave them; not both".into());
        }
        let entries: Vec<(&Spanned<RawStage>, bool)> = match (body.sequence, body.actions) {
            (Some(seq), _) => seq.get_ref().iter().map(|s| (s, true)).collect(),
            (None, Some(list)) => list.get_ref().iter().map(|s| (s, false)).collect(),
            (None, None) => Vec::new(),
        };
        for (entry, in_sequence) in entries {
            let raw = entry.get_ref();
            match (&raw.id, &raw.window) {
                (Some(_), Some(w)) => {
                    self.error("turnspec::stage-kind", span_of(w), "an entry is either a turn-based action (`id`) or a window (`window`), not both");
                }
                (None, None) => {
                    self.error("turnspec::stage-kind", span_of(entry), "this entry has neither `id` nor `window`")
                        .help = Some("a turn-based action needs `id = \"...\"`; a window needs `window = \"always\"` or `\"if_pending\"`".into());
                }
                (None, Some(w)) => {
                    if !in_sequence {
                        self.error("turnspec::window-in-actions", span_of(w), "windows go in `sequence`, not in `actions`")
                            .help = Some("in `actions` use the step's `priority` key; use `sequence` to place windows between actions".into());
                        continue;
                    }
                    let mode = self.window_mode(w);
                    let close_when_stack_empty = self.choice(
                        raw.close.as_ref(),
                        false,
                        &[("all_pass", false), ("stack_empty", true)],
                        "window close rule",
                    );
                    let rule = self.rule(raw.rule.as_ref());
                    self.reject_action_keys(raw);
                    stages.push(Stage::Window(WindowId(windows.len() as u16)));
                    windows.push(Window {
                        name: raw
                            .name
                            .as_ref()
                            .map(|n| n.get_ref().clone())
                            .unwrap_or_default(),
                        rule,
                        mode,
                        close_when_stack_empty,
                        step: step_id,
                    });
                }
                (Some(id), None) => {
                    if action_ids.contains_key(id.get_ref()) {
                        self.error("turnspec::duplicate-id", span_of(id), format!("turn-based action `{}` is defined twice", id.get_ref()))
                            .help = Some("turn-based action ids are unique in a spec, because hosts answer them by id".into());
                    } else {
                        action_ids.insert(id.get_ref().clone(), span_of(id));
                    }
                    let rule = self.rule(raw.rule.as_ref());
                    let condition = raw.condition.as_ref().and_then(|c| self.condition(c));
                    let (mut answer_counter, mut answer_max, mut answer_play) = (None, 0u16, None);
                    if let Some(a) = &raw.answer {
                        let a = a.get_ref();
                        if let Some(c) = &a.counter {
                            answer_counter = self.counter_ref(c);
                            answer_max = 1;
                        }
                        if let Some(p) = &a.play {
                            answer_max = 1;
                            match timing.iter().position(|t| t.id == *p.get_ref()) {
                                Some(i) => answer_play = Some(TimingId(i as u8)),
                                None => {
                                    let known: Vec<&str> =
                                        timing.iter().map(|t| t.id.as_str()).collect();
                                    let hint = suggest(p.get_ref(), &known)
                                        .map(|s| format!("did you mean `{s}`?"))
                                        .unwrap_or_else(|| "name a `[timing.*]` table".into());
                                    self.error(
                                        "turnspec::unknown-reference",
                                        span_of(p),
                                        format!("no timing class named `{}`", p.get_ref()),
                                    )
                                    .labelled("referenced here")
                                    .help = Some(hint);
                                }
                            }
                        }
                        if let Some(m) = &a.max {
                            let v = *m.get_ref();
                            if !(1..=u16::MAX as i64).contains(&v) {
                                self.error(
                                    "turnspec::bad-value",
                                    span_of(m),
                                    format!("answer max {v} is out of range"),
                                )
                                .help = Some("use a number from 1 up".into());
                            } else {
                                answer_max = v as u16;
                            }
                        }
                    }
                    if let Some(c) = &raw.close {
                        self.error(
                            "turnspec::unused-key",
                            span_of(c),
                            "`close` belongs to windows, not turn-based actions",
                        );
                    }
                    let play = raw.play.as_ref().and_then(|p| self.timing_ref(p, timing));
                    for (t, key) in [(play, &raw.play), (answer_play, &None)] {
                        if let Some(t) =
                            t.filter(|t| matches!(timing[t.index()].effect, Effect::StartPhase(_)))
                        {
                            let span = key.as_ref().map(span_of).unwrap_or_else(|| span_of(id));
                            self.error(
                                "turnspec::bad-value",
                                span,
                                format!("a turn-based action cannot play `{}`: it starts a phase", timing[t.index()].id),
                            )
                            .help = Some("only players start phases (by playing the class in a window); give the action a class with `effect = \"stack\"` or `\"special\"`".into());
                        }
                    }
                    stages.push(Stage::Action(TurnActionId(actions.len() as u16)));
                    actions.push(TurnAction {
                        id: id.get_ref().clone(),
                        name: display_name(raw.name.as_ref(), id),
                        rule,
                        step: step_id,
                        condition,
                        answer_counter,
                        answer_max,
                        answer_play,
                        play,
                        ends_turn_effects: raw
                            .ends_turn_effects
                            .as_ref()
                            .is_some_and(|b| *b.get_ref()),
                    });
                }
            }
        }
        if body.sequence.is_none() {
            let mode = match body.priority {
                None => None,
                Some(p) if p.get_ref() == "never" => None,
                Some(p) => Some(self.window_mode(p)),
            };
            if let Some(mode) = mode {
                let rule = self.rule(body.priority_rule);
                stages.push(Stage::Window(WindowId(windows.len() as u16)));
                windows.push(Window {
                    name: String::new(),
                    rule,
                    mode,
                    close_when_stack_empty: false,
                    step: step_id,
                });
            }
        } else if let Some(p) = body.priority {
            self.error(
                "turnspec::sequence-and-actions",
                span_of(p),
                "`priority` is not used with `sequence`",
            )
            .help = Some("put `{ window = \"always\" }` entries in the sequence instead".into());
        }
        if stages.len() > MAX_STAGES_PER_STEP {
            self.error(
                "turnspec::too-many",
                span.clone(),
                format!("more than {MAX_STAGES_PER_STEP} actions and windows in one step"),
            );
        }
        let repeat = body.repeat.and_then(|r| {
            let raw = r.get_ref();
            let rule = self.rule(raw.rule.as_ref());
            self.condition(&raw.condition)
                .map(|cond| Condition { cond, rule })
        });
        Step {
            id: header.id,
            name: header.name,
            rule: header.rule,
            tags: header.tags,
            phase: header.phase,
            implicit: header.implicit,
            stages,
            only_if: header.only_if,
            skip: header.skip,
            repeat,
            timing_mask: 0,
        }
    }

    fn timing_ref(&mut self, name: &Text, timing: &[TimingClass]) -> Option<TimingId> {
        if let Some(i) = timing.iter().position(|t| t.id == *name.get_ref()) {
            return Some(TimingId(i as u8));
        }
        let known: Vec<&str> = timing.iter().map(|t| t.id.as_str()).collect();
        let hint = suggest(name.get_ref(), &known)
            .map(|s| format!("did you mean `{s}`?"))
            .unwrap_or_else(|| "name a `[timing.*]` table".into());
        self.error(
            "turnspec::unknown-reference",
            span_of(name),
            format!("no timing class named `{}`", name.get_ref()),
        )
        .labelled("referenced here")
        .help = Some(hint);
        None
    }

    fn reject_action_keys(&mut self, raw: &RawStage) {
        if let Some(p) = &raw.play {
            self.error(
                "turnspec::unused-key",
                span_of(p),
                "a window takes no `play`",
            );
        }
        if let Some(e) = &raw.ends_turn_effects {
            self.error(
                "turnspec::unused-key",
                span_of(e),
                "a window takes no `ends_turn_effects`",
            );
        }
        if let Some(a) = &raw.answer {
            self.error(
                "turnspec::unused-key",
                span_of(a),
                "a window takes no `answer`",
            );
        }
        if let Some(c) = &raw.condition {
            self.error("turnspec::unused-key", span_of(c), "a window takes no `if`")
                .help = Some("use `window = \"if_pending\"` for a window that opens only when something is waiting".into());
        }
    }

    fn window_mode(&mut self, text: &Text) -> WindowMode {
        self.choice(
            Some(text),
            WindowMode::Always,
            &[
                ("always", WindowMode::Always),
                ("if_pending", WindowMode::IfPending),
            ],
            "window mode (or `never` for `priority`)",
        )
    }

    #[allow(clippy::too_many_arguments)]
    fn check_structure(
        &mut self,
        raw: &RawSpec,
        phases: &[Phase],
        steps: &[Step],
        windows: &[Window],
        timing: &[TimingClass],
        timing_spans: &[Range<usize>],
        step_spans: &[Range<usize>],
        turn: &[PhaseId],
    ) {
        if phases.is_empty() {
            return;
        }
        if turn.is_empty() {
            self.error(
                "turnspec::no-regular-phase",
                span_of(&raw.phase[0]),
                "every phase is `on_demand`, so a turn has no phases",
            )
            .help =
                Some("remove `on_demand = true` from the phases that make up a normal turn".into());
        }
        // Phase graph: the turn start reaches every regular phase; a phase
        // reaches each on-demand phase an action usable in it starts.
        const START: u16 = u16::MAX;
        let mut graph: DiGraphMap<u16, ()> = DiGraphMap::new();
        graph.add_node(START);
        for (i, _) in phases.iter().enumerate() {
            graph.add_node(i as u16);
        }
        for p in turn {
            graph.add_edge(START, p.0 as u16, ());
        }
        for (ti, t) in timing.iter().enumerate() {
            if let Effect::StartPhase(target) = t.effect {
                for s in steps {
                    let has_window = s.stages.iter().any(|st| matches!(st, Stage::Window(_)));
                    if has_window && s.timing_mask & (1 << ti) != 0 {
                        graph.add_edge(s.phase.0 as u16, target.0 as u16, ());
                    }
                }
            }
        }
        let reachable: HashSet<u16> = {
            let mut dfs = petgraph::visit::Dfs::new(&graph, START);
            let mut out = HashSet::new();
            while let Some(n) = dfs.next(&graph) {
                out.insert(n);
            }
            out
        };
        for (i, p) in phases.iter().enumerate() {
            if !reachable.contains(&(i as u16)) {
                self.error("turnspec::unreachable-phase", span_of(&raw.phase[i].get_ref().id), format!("phase `{}` can never happen", p.id))
                    .labelled("unreachable")
                    .help = Some("it is `on_demand` but no timing class with `effect = \"start_phase\"` can start it from a window that opens; add one, or make the phase regular".into());
            }
        }
        for scc in petgraph::algo::tarjan_scc(&graph) {
            let cyclic = scc.len() > 1 || scc.iter().any(|n| graph.contains_edge(*n, *n));
            if cyclic {
                let names: Vec<&str> = scc
                    .iter()
                    .filter(|n| **n != START)
                    .map(|n| phases[*n as usize].id.as_str())
                    .collect();
                let first = scc
                    .iter()
                    .copied()
                    .filter(|n| *n != START)
                    .min()
                    .unwrap_or(0) as usize;
                self.error("turnspec::phase-cycle", span_of(&raw.phase[first].get_ref().id), format!("phases can start each other without end: {}", names.join(" → ")))
                    .labelled("part of a cycle")
                    .help = Some("an on-demand phase must not be startable from inside itself; narrow the starting timing class's `during`".into());
            }
        }
        // Phases that can never happen.
        let always_skipped = |c: &Ctx, skips: &[Condition], only_if: Option<CondId>| {
            skips
                .iter()
                .any(|k| c.conditions.constant(k.cond) == Some(true))
                || only_if.is_some_and(|o| c.conditions.constant(o) == Some(false))
        };
        for (i, p) in phases.iter().enumerate() {
            if always_skipped(self, &p.skip, p.only_if) {
                self.error(
                    "turnspec::unreachable-phase",
                    span_of(&raw.phase[i].get_ref().id),
                    format!("phase `{}` never happens", p.id),
                )
                .labelled("its skip (or only_if) condition never lets it happen")
                .help = Some("remove the phase, or make the condition depend on the game".into());
            }
        }
        // Steps that can never happen (steps that repeat for ever: loops.rs).
        for (si, s) in steps.iter().enumerate() {
            if s.skip
                .iter()
                .any(|c| self.conditions.constant(c.cond) == Some(true))
            {
                self.error(
                    "turnspec::unreachable-step",
                    step_spans[si].clone(),
                    format!("`{}` is always skipped", s.id),
                )
                .labelled("its skip condition is always true")
                .help = Some("remove the step, or make the condition depend on the game".into());
            }
        }
        // The game must stop for players somewhere, or it would run for ever.
        let always_window = turn.iter().any(|p| {
            !always_skipped(self, &phases[p.index()].skip, phases[p.index()].only_if)
                && phases[p.index()].steps().any(|s| {
                steps[s.index()].stages.iter().any(|st| matches!(st, Stage::Window(w) if windows[w.index()].mode == WindowMode::Always))
            })
        });
        if !turn.is_empty() && !always_window {
            self.error(
                "turnspec::no-window",
                span_of(&raw.phase[0].get_ref().id),
                "no priority window ever opens by itself, so players can never act",
            )
            .help = Some("give at least one regular step `priority = \"always\"`".into());
        }
        // Timing classes nobody can ever use.
        for (ti, t) in timing.iter().enumerate() {
            if t.who == Who::Nobody {
                continue;
            }
            let usable = steps.iter().any(|s| {
                s.timing_mask & (1 << ti) != 0
                    && s.stages.iter().any(|st| matches!(st, Stage::Window(_)))
            });
            if !usable {
                self.error(
                    "turnspec::unusable-timing",
                    timing_spans[ti].clone(),
                    format!("timing class `{}` can never be used", t.id),
                )
                .labelled("no step with a window matches its `during`")
                .help = Some(
                    "list in `during` a phase, step or tag whose step has a priority window".into(),
                );
            }
            if let Some(l) = t.limit {
                if l.max == 0 {
                    self.error(
                        "turnspec::unusable-timing",
                        timing_spans[ti].clone(),
                        format!("timing class `{}` has a limit of 0", t.id),
                    )
                    .help =
                        Some("a limit of 0 forbids it entirely; remove the class instead".into());
                }
            }
            for r in &t.require {
                if self.conditions.constant(r.condition.cond) == Some(false) {
                    self.error(
                        "turnspec::unusable-timing",
                        timing_spans[ti].clone(),
                        format!("timing class `{}` requires something always false", t.id),
                    );
                }
            }
        }
    }
}

struct StepHeader {
    id: String,
    name: String,
    rule: RuleRef,
    tags: Vec<String>,
    phase: PhaseId,
    implicit: bool,
    only_if: Option<CondId>,
    skip: Vec<Condition>,
}

/// `name` if given, else the id with underscores as spaces.
fn display_name(name: Option<&Text>, id: &Text) -> String {
    match name {
        Some(n) => n.get_ref().clone(),
        None => id.get_ref().replace(['_', '-'], " "),
    }
}
