//! Raw TOML → validated [`Spec`], reporting every problem at once.
//!
//! Loading never stops at the first mistake it can step past: syntax errors
//! are all collected by the recoverable parser; unknown keys all come from
//! `serde_ignored`; every semantic check runs on whatever parsed.

mod checks;
mod effects;
mod endings;
mod game;
mod objects;
mod origins;
mod roles;
mod steps;
mod timing;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::ops::Range;

use toml::Spanned;
use turnspec_model::*;

use crate::diag::{Diagnostic, Report};
use crate::inherit::ReadBase;
use crate::raw::*;
pub(crate) use crate::schema::suggest;
use crate::schema::{Format, deserialize_reporting, fields_of};
use timing::unfinished_timing;

/// The spec format for the shared schema checks.
const SPEC_FORMAT: Format = Format {
    unknown_key_code: "turnspec::unknown-key",
    schema_code: "turnspec::schema",
    docs: "docs/spec-format.md",
    keys_at: spec_keys,
    tables: &[
        ("the top of the file", &[]),
        ("[game]", &["game"]),
        ("[game.players]", &["game", "players"]),
        ("[terms]", &["terms"]),
        ("[priority]", &["priority"]),
        ("[mana]", &["mana"]),
        ("[leaving]", &["leaving"]),
        ("[game_end]", &["game_end"]),
        ("[endings.*]", &["endings", "*"]),
        ("[objects]", &["objects"]),
        ("[objects.facts.*]", &["objects", "facts", "*"]),
        ("[roles.*]", &["roles", "*"]),
        ("[variants.*] and [facts.*]", &["facts", "*"]),
        ("[counters.*]", &["counters", "*"]),
        ("[timing.*]", &["timing", "*"]),
        ("a timing class's `limit`", &["timing", "*", "limit"]),
        ("a timing class's `require`", &["timing", "*", "require"]),
        ("[effects.*]", &["effects", "*"]),
        ("[[phase]]", &["phase"]),
        ("[[phase.step]]", &["phase", "step"]),
        ("`skip` and `repeat` entries", &["phase", "skip"]),
        ("`actions` and `sequence` entries", &["phase", "actions"]),
        ("an action's `answer`", &["phase", "actions", "answer"]),
    ],
};

/// The keys of the spec table at `tables` (array indices left out).
fn spec_keys(tables: &[&str]) -> &'static [&'static str] {
    match tables {
        [] => fields_of::<RawSpec>(),
        ["game"] => fields_of::<RawGame>(),
        ["game", "players"] => fields_of::<RawPlayers>(),
        ["terms"] => fields_of::<RawTerms>(),
        ["priority"] => fields_of::<RawPriority>(),
        ["mana"] => fields_of::<RawMana>(),
        ["leaving"] => fields_of::<RawLeaving>(),
        ["game_end"] => fields_of::<RawGameEnd>(),
        ["endings", _] => fields_of::<RawEnding>(),
        ["objects"] => fields_of::<RawObjects>(),
        ["objects", "facts", _] => fields_of::<RawObjectFact>(),
        ["roles", _] => fields_of::<RawRole>(),
        ["variants" | "facts", _] => fields_of::<RawFlag>(),
        ["counters", _] => fields_of::<RawCounter>(),
        ["timing", _] => fields_of::<RawTiming>(),
        ["timing", _, "limit"] => fields_of::<RawLimit>(),
        ["timing", _, "require"] => fields_of::<RawRequire>(),
        ["effects", _] => fields_of::<RawEffect>(),
        ["phase"] => fields_of::<RawPhase>(),
        ["phase", "step"] => fields_of::<RawStep>(),
        ["phase", .., "skip" | "repeat"] => fields_of::<RawWhen>(),
        ["phase", .., "actions" | "sequence"] => fields_of::<RawStage>(),
        ["phase", .., "answer"] => fields_of::<RawAnswer>(),
        _ => &[],
    }
}

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
    let raw = match deserialize_reporting::<RawSpec>(merged, &SPEC_FORMAT, &mut report.diagnostics)
    {
        Some(raw) => raw,
        None => return Err(report),
    };
    let mut ctx = Ctx {
        source: report.source.clone(),
        ..Ctx::default()
    };
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

/// The compiler's state: the spec under construction, where each part of
/// it came from, and the problems found so far.
#[derive(Default)]
struct Ctx {
    diags: Vec<Diagnostic>,
    /// The spec under construction.
    parts: SpecParts,
    rule_index: HashMap<String, RuleRef>,
    /// Where each step and timing class was declared (for whole-spec checks).
    step_spans: Vec<Range<usize>>,
    timing_spans: Vec<Range<usize>>,
    /// Phase ids, step ids and tags: what `during` may name.
    names: HashSet<String>,
    /// Turn-based action ids seen so far, which must be unique.
    action_ids: HashMap<String, Range<usize>>,
    /// A limit of the model was passed: stop lowering, the result would be
    /// cut short.
    over_limit: bool,
    /// The text the spans point into.
    source: std::sync::Arc<str>,
    /// Timing class ids in file order (their ids once compiled).
    timing_names: Vec<(String, TimingId)>,
    /// Conditions compiled now may read `object.*`: the requirements of a
    /// class with `by = "object"`.
    objects_here: bool,
    /// Use counts per object handed out to classes so far.
    object_limit_slots: u8,
}

fn span_of<T>(s: &Spanned<T>) -> Range<usize> {
    s.span()
}

/// Where byte `index` of a string value's text stands in the file, so an
/// error inside a condition points at the right word whatever the string's
/// form: `"basic"` with escapes, `'literal'`, or `"""multi-line"""` (whose
/// first newline and line-ending backslashes are not part of the value).
fn offset_in_literal(source: &str, literal: Range<usize>, index: usize) -> usize {
    let Some(text) = source.get(literal.clone()) else {
        return literal.start;
    };
    let bytes = text.as_bytes();
    let (open, basic) = if text.starts_with("\"\"\"") {
        (3, true)
    } else if text.starts_with("'''") {
        (3, false)
    } else if text.starts_with('"') {
        (1, true)
    } else if text.starts_with('\'') {
        (1, false)
    } else {
        (0, false)
    };
    let mut at = open;
    if open == 3 {
        if bytes[at..].starts_with(b"\r\n") {
            at += 2;
        } else if bytes.get(at) == Some(&b'\n') {
            at += 1;
        }
    }
    let mut decoded = 0;
    while decoded < index && at < bytes.len() {
        if !(basic && bytes[at] == b'\\') {
            at += 1;
            decoded += 1;
            continue;
        }
        match bytes.get(at + 1) {
            Some(b'u') | Some(b'U') => {
                let digits = if bytes[at + 1] == b'u' { 4 } else { 8 };
                let hex = text.get(at + 2..at + 2 + digits).unwrap_or("");
                let ch = u32::from_str_radix(hex, 16).ok().and_then(char::from_u32);
                decoded += ch.map(char::len_utf8).unwrap_or(1);
                at += 2 + digits;
            }
            Some(b' ' | b'\t' | b'\r' | b'\n') if open == 3 => {
                // A line-ending backslash: it and the white space after it
                // are not part of the value.
                at += 1;
                while at < bytes.len() && matches!(bytes[at], b' ' | b'\t' | b'\r' | b'\n') {
                    at += 1;
                }
            }
            _ => {
                at += 2;
                decoded += 1;
            }
        }
    }
    literal.start + at.min(bytes.len())
}

/// What a name in a condition stands for, in the spec under construction
/// (`timing_names`: every timing class, compiled or not), or why it names
/// nothing, with a hint.
fn resolve_name(
    p: &SpecParts,
    timing_names: &[(String, TimingId)],
    objects_here: bool,
    name: &str,
) -> Result<Atom, String> {
    let (variants, facts, counters) = (&p.variants, &p.facts, &p.counters);
    let (phases, attributes) = (&p.phases, &p.attributes);
    fn lookup<I: Id, T: Named>(
        arena: &Arena<I, T>,
        rest: &str,
        kind: &str,
        table: &str,
    ) -> Result<I, String> {
        if let Some(i) = arena.by_id(rest) {
            return Ok(i);
        }
        let names: Vec<&str> = arena.iter().map(|s| s.name_id()).collect();
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
    }
    if let Some(rest) = name.strip_prefix("variant.") {
        return lookup(variants, rest, "variant", "variants").map(Atom::Variant);
    }
    if let Some(rest) = name.strip_prefix("fact.") {
        return lookup(facts, rest, "fact", "facts").map(Atom::Fact);
    }
    if let Some(rest) = name.strip_prefix("counter.") {
        return lookup(counters, rest, "counter", "counters").map(Atom::Counter);
    }
    if let Some(rest) = name.strip_prefix("object.") {
        if !objects_here {
            return Err(
                "`object.` names the object a play is made by: only the `require` of a timing class with `by = \"object\"` can read it".into(),
            );
        }
        if let Some((_, a)) = OBJECT_ATOMS.iter().find(|(n, _)| *n == rest) {
            return Ok(*a);
        }
        let mut names: Vec<&str> = OBJECT_ATOMS.iter().map(|(n, _)| *n).collect();
        names.extend(p.object_facts.iter().map(|f| f.id.as_str()));
        if let Some(i) = p.object_facts.by_id(rest) {
            return Ok(Atom::ObjectFact(i));
        }
        return Err(match suggest(rest, &names) {
            Some(s) => format!("did you mean `object.{s}`?"),
            None => format!(
                "objects have {}; or declare `[objects.facts.{rest}]`",
                names.join(", ")
            ),
        });
    }
    if let Some(rest) = name.strip_prefix("role.") {
        return lookup(&p.roles, rest, "role", "roles").map(Atom::Role);
    }
    if let Some(rest) = name.strip_prefix("elected.") {
        let i = lookup(phases, rest, "elected", "phase")?;
        if phases.get(i).is_some_and(|p| !p.optional) {
            return Err(format!(
                "phase `{rest}` is not `optional`, so it is never elected"
            ));
        }
        return Ok(Atom::Elected(i));
    }
    if let Some(rest) = name.strip_prefix("top_is.") {
        return match timing_names.iter().find(|(t, _)| t == rest) {
            Some((_, id)) => Ok(Atom::TopIs(*id)),
            None => Err(format!("no timing class `{rest}`")),
        };
    }
    if let Some(rest) = name.strip_prefix("top.") {
        return match attributes.iter().position(|t| t == rest) {
            Some(i) => Ok(Atom::TopAttribute(i as u8)),
            None => Err(format!(
                "no timing class declares the attribute `{rest}` (`attributes = {{ {rest} = ... }}`)"
            )),
        };
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

    /// Reports that an element went past a limit of the model, at `span`.
    fn limit(&mut self, span: Range<usize>, e: LimitError) -> &mut Diagnostic {
        self.over_limit = true;
        let d = self
            .error("turnspec::limit", span, e.to_string())
            .labelled(format!("this goes past the limit of {}", e.limit));
        d.help = Some(
            "the engine keeps these in fixed-size state; see \"Engine limits\" in docs/spec-format.md"
                .into(),
        );
        d
    }

    /// Adds `item` to the spec, or reports the limit at `span`.
    fn add<I: Part>(&mut self, item: I::Item, span: Range<usize>) -> Option<I> {
        match self.parts.add(item) {
            Ok(id) => Some(id),
            Err(e) => {
                self.limit(span, e);
                None
            }
        }
    }

    fn rule(&mut self, rule: Option<&Text>) -> RuleRef {
        let Some(rule) = rule else {
            return RuleRef::NONE;
        };
        let text = rule.get_ref().trim().to_string();
        if let Some(&i) = self.rule_index.get(&text) {
            return i;
        }
        match self.parts.add(text.clone()) {
            Ok(i) => {
                self.rule_index.insert(text, i);
                i
            }
            Err(e) => {
                self.limit(span_of(rule), e);
                RuleRef::NONE
            }
        }
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
        let timing_names = &self.timing_names;
        let objects_here = self.objects_here;
        let parsed = self.parts.build_condition(|builder, p| {
            let mut resolve = |name: &str| resolve_name(p, timing_names, objects_here, name);
            crate::cond::parse(builder, text.get_ref(), &mut resolve)
        });
        match parsed {
            Ok(id) => {
                self.check_reachable_values(text, id);
                Some(id)
            }
            Err(errors) => {
                for e in errors {
                    let at = |i| offset_in_literal(&self.source, text.span(), i);
                    let span = at(e.range.start)..at(e.range.end.max(e.range.start + 1));
                    let code = if e.limit.is_some() {
                        self.over_limit = true;
                        "turnspec::limit"
                    } else {
                        "turnspec::condition"
                    };
                    self.error(code, span, format!("in condition: {}", e.message))
                        .labelled("here")
                        .help = Some(e.help);
                }
                None
            }
        }
    }

    /// Refuses comparisons of counters with numbers the game state cannot
    /// hold (counters are `u16`). `repeat_count` past 255 in a `repeat` is
    /// the loop check's (`turnspec::never-ends`).
    fn check_reachable_values(&mut self, text: &Text, cond: CondId) {
        let mut atoms = Vec::new();
        for (id, c) in self.parts.counters.iter_ids() {
            atoms.push((Atom::Counter(id), c.id.as_str(), u16::MAX as usize));
        }
        let mut found = Vec::new();
        for (atom, name, max) in atoms {
            for v in self.parts.conditions.compared_with(cond, atom) {
                if v > max as i32 {
                    found.push(format!(
                        "`{name}` never goes past {max}, but is compared with {v}"
                    ));
                }
            }
        }
        for message in found {
            self.error("turnspec::limit", span_of(text), message)
                .labelled("this comparison can never change its answer")
                .help = Some(
                "the engine keeps this count in fixed-size state; see \"Engine limits\" in docs/spec-format.md".into(),
            );
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

    fn compile(&mut self, raw: &RawSpec) -> Option<Spec> {
        let game = match &raw.game {
            Some(g) => self.game(g),
            None => {
                self.error("turnspec::missing", 0..0, "the spec has no `[game]` table")
                    .help = Some("start the file with `[game]` and `name = \"...\"`, `players = { min = 2, max = 4 }`".into());
                None
            }
        };
        self.parts.terms = terms(&raw.terms);
        // Names conditions may use before the classes are compiled
        // (`top_is.CLASS`, `top.NAME`): classes in file order, attributes
        // sorted. Each class is added now, unfinished, for its id;
        // `timing_classes` finishes it.
        self.timing_names = Vec::new();
        for (key, _) in in_file_order(&raw.timing) {
            let Some(id) = self.add::<TimingId>(unfinished_timing(key.get_ref()), span_of(&key))
            else {
                break;
            };
            self.timing_names.push((key.get_ref().clone(), id));
        }
        let mut attributes: Vec<String> = raw
            .timing
            .values()
            .flat_map(|t| t.get_ref().attributes.keys().cloned())
            .collect();
        attributes.sort();
        attributes.dedup();
        attributes.truncate(u8::MAX as usize);
        self.parts.attributes = attributes;
        self.parts.priority = self.priority(raw.priority.as_ref());
        self.flags::<VariantId>(&raw.variants);
        self.flags::<FactId>(&raw.facts);
        self.counters(raw);
        self.objects(raw);
        self.roles(raw);
        if !self.phases(raw) {
            return None;
        }
        // Timing classes before steps: turn-based actions may play them.
        self.timing_classes(raw);
        self.steps(raw);
        self.class_steps(raw);
        if self.over_limit {
            return None;
        }
        self.timing_masks();
        self.steps_in_their_phase(raw);
        self.parts.turn = self
            .parts
            .phases
            .iter_ids()
            .filter(|(_, p)| !p.on_demand && !p.between_turns)
            .map(|(id, _)| id)
            .collect();
        self.parts.between = self
            .parts
            .phases
            .iter_ids()
            .filter(|(_, p)| p.between_turns && !p.on_demand)
            .map(|(id, _)| id)
            .collect();
        self.effects(raw);
        self.parts.mana = self.mana(raw.mana.as_ref());
        self.parts.leaving = match &raw.leaving {
            Some(l) => {
                let l = l.get_ref();
                LeavingRules {
                    rule: self.rule(l.rule.as_ref()),
                    active_player_goto: l
                        .active_player_goto
                        .as_ref()
                        .and_then(|g| self.step_ref(g)),
                }
            }
            None => LeavingRules::default(),
        };
        self.endings(raw);
        self.check_structure(raw);
        let loops = crate::loops::check_repeats(&crate::loops::Parts {
            raw,
            conditions: &self.parts.conditions,
            rules: &self.parts.rules,
            steps: &self.parts.steps,
            actions: &self.parts.turn_actions,
            timing: &self.parts.timing,
            counters: &self.parts.counters,
            facts: &self.parts.facts,
            variants: &self.parts.variants,
            max_players: game.as_ref().map_or(MAX_PLAYERS, |g| g.max_players),
            step_spans: &self.step_spans,
        });
        self.diags.extend(loops);
        self.record_origins(raw);
        self.parts.game = game?;
        if self.over_limit
            || self
                .diags
                .iter()
                .any(|d| d.severity == crate::Severity::Error)
        {
            return None;
        }
        match Spec::new(std::mem::take(&mut self.parts)) {
            Ok(spec) => Some(spec),
            Err(e) => {
                self.error("turnspec::internal", 0..0, e.to_string()).help = Some(
                    "this is a bug in turnspec, not in the spec: please report it with the spec"
                        .into(),
                );
                None
            }
        }
    }

    /// Counters, each with its reset and, for per-player ones, its slot.
    /// A number from 0 to 65535, or a `turnspec::bad-value` error (and 0).
    pub(super) fn small_number(&mut self, n: &Spanned<i64>, what: &str) -> u16 {
        let v = *n.get_ref();
        if !(0..=u16::MAX as i64).contains(&v) {
            self.error(
                "turnspec::bad-value",
                span_of(n),
                format!("`{what}` {v} is out of range"),
            )
            .help = Some("give a whole number from 0 to 65535".into());
            return 0;
        }
        v as u16
    }

    fn counters(&mut self, raw: &RawSpec) {
        for (key, c) in in_file_order(&raw.counters) {
            let key = &key;
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
            let slot = self.parts.counters.iter().filter(|c| c.per_player).count();
            if per_player && slot >= MAX_PLAYER_COUNTERS {
                self.limit(
                    span_of(key),
                    LimitError {
                        what: "counters with `per = \"player\"`",
                        limit: MAX_PLAYER_COUNTERS,
                        value: slot + 1,
                    },
                );
            }
            let start = c
                .start
                .as_ref()
                .map_or(0, |s| self.small_number(s, "start"));
            let counter = Counter {
                id: key.get_ref().clone(),
                description: text_or(&c.description, ""),
                rule,
                reset,
                per_player,
                slot: slot.min(MAX_PLAYER_COUNTERS - 1) as u8,
                start,
            };
            if self.add::<CounterId>(counter, span_of(key)).is_none() {
                break;
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
        if let Some(first) = seen.get(name).cloned() {
            self.error(
                "turnspec::duplicate-id",
                span_of(id),
                format!("`{name}` is defined twice"),
            )
            .labelled(format!("second {what} named `{name}`"))
            .also_at(first, "first definition")
            .help = Some(
                "phase and step ids share one namespace and must be unique; rename one of them"
                    .into(),
            );
        } else {
            seen.insert(name.clone(), span_of(id));
        }
    }

    /// Resolves a reference to an element by its id, or reports it with a
    /// "did you mean" hint (else `otherwise`, given the known ids).
    fn reference<I: Id, T: Named>(
        &mut self,
        name: &Text,
        arena: fn(&SpecParts) -> &Arena<I, T>,
        what: &str,
        otherwise: impl FnOnce(&[&str]) -> String,
    ) -> Option<I> {
        let list = arena(&self.parts);
        if let Some(id) = list.by_id(name.get_ref()) {
            return Some(id);
        }
        let known: Vec<&str> = list.iter().map(|t| t.name_id()).collect();
        let hint = match suggest(name.get_ref(), &known) {
            Some(s) => format!("did you mean `{s}`?"),
            None => otherwise(&known),
        };
        self.error(
            "turnspec::unknown-reference",
            span_of(name),
            format!("no {what} named `{}`", name.get_ref()),
        )
        .labelled("referenced here")
        .help = Some(hint);
        None
    }

    fn phase_ref(&mut self, name: &Text) -> Option<PhaseId> {
        self.reference(
            name,
            |p| &p.phases,
            "phase",
            |known| format!("phases: {}", known.join(", ")),
        )
    }

    fn step_ref(&mut self, name: &Text) -> Option<StepId> {
        self.reference(
            name,
            |p| &p.steps,
            "step",
            |_| "name a step id (a step-less phase's id names its body)".into(),
        )
    }

    fn counter_ref(&mut self, name: &Text) -> Option<CounterId> {
        let text = name.get_ref().clone();
        self.reference(
            name,
            |p| &p.counters,
            "counter",
            move |_| format!("declare it: `[counters.{text}]` with `reset = \"turn\"`"),
        )
    }

    fn timing_ref(&mut self, name: &Text) -> Option<TimingId> {
        self.reference(
            name,
            |p| &p.timing,
            "timing class",
            |_| "name a `[timing.*]` table".into(),
        )
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
    on_demand: bool,
}

/// The text of an optional value, or `default` where it is absent.
fn text_or(t: &Option<Text>, default: &str) -> String {
    t.as_ref()
        .map_or_else(|| default.to_string(), |t| t.get_ref().clone())
}

/// `name` if given, else the id with underscores as spaces.
fn display_name(name: Option<&Text>, id: &Text) -> String {
    match name {
        Some(n) => n.get_ref().clone(),
        None => id.get_ref().replace(['_', '-'], " "),
    }
}

/// `[terms]`, with the words Magic uses where the spec gives none.
fn terms(raw: &RawTerms) -> Terms {
    Terms {
        priority: text_or(&raw.priority, "priority"),
        stack: text_or(&raw.stack, "stack"),
        active_player: text_or(&raw.active_player, "active player"),
    }
}
