//! Spec inheritance: `extends = "mtg.toml"`.
//!
//! The chain of files is merged at the TOML level, before the schema sees
//! it, so an edition spec states only what it changes:
//! - tables merge key by key (`[game]`, `[timing.land]`, `[effects.x]`...);
//!   plain values and lists replace the base's;
//! - `[[phase]]`, `[[phase.step]]` and `actions` entries merge by `id`: an
//!   entry naming an existing id changes it; `remove = true` deletes it;
//!   `after = "id"` / `before = "id"` move it (or place a new one, which
//!   must say where it goes);
//! - a `[timing.x]`-style entry with `remove = true` deletes it.
//!
//! Every file is parsed padded to its own offset in one combined text, so
//! each value's span says which file set it: diagnostics point at the right
//! file, and [`crate::Spec::origins`] tells which file last touched each
//! element (`turnspec check --explain`).

use std::ops::Range;

use toml::Spanned;
use toml::de::{DeArray, DeTable, DeValue};

use crate::diag::{Diagnostic, Segment};

/// Reads a base spec: given the path as written in `extends` and the path of
/// the file that names it, returns the base's display path and text.
pub type ReadBase<'a> = dyn FnMut(&str, &str) -> Result<(String, String), String> + 'a;

/// The files of an `extends` chain, base first, laid out in one text.
pub(crate) struct Chain {
    pub combined: String,
    pub segments: Vec<Segment>,
    /// Each file's text padded with spaces to its offset, so parsing it gives
    /// spans into `combined`.
    pub padded: Vec<String>,
}

const MAX_DEPTH: usize = 16;

/// Follows `extends` from the given file. Problems (a missing base, a cycle)
/// are reported on the `extends` value that caused them.
pub(crate) fn chain(path: &str, source: &str, read: &mut ReadBase<'_>) -> (Chain, Vec<Diagnostic>) {
    // Child first while reading; each entry: (path, text, span of its
    // `extends` value in its own text).
    let mut files: Vec<(String, String)> = vec![(path.to_string(), source.to_string())];
    let mut problems: Vec<(usize, Range<usize>, String, String)> = Vec::new();
    loop {
        let (current_path, current_text) = files.last().cloned().expect("at least one file");
        let Some((base, span)) = extends_of(&current_text) else {
            break;
        };
        let index = files.len() - 1;
        if files.len() > MAX_DEPTH {
            problems.push((
                index,
                span,
                "`extends` chain is too long".into(),
                format!("at most {MAX_DEPTH} files"),
            ));
            break;
        }
        match read(&base, &current_path) {
            Ok((base_path, text)) => {
                if files.iter().any(|(p, _)| *p == base_path) {
                    let cycle: Vec<&str> = files.iter().map(|(p, _)| p.as_str()).collect();
                    problems.push((
                        index,
                        span,
                        format!(
                            "`extends` makes a cycle: {} → {base_path}",
                            cycle.join(" → ")
                        ),
                        "a spec cannot extend itself, directly or through others".into(),
                    ));
                    break;
                }
                files.push((base_path, text));
            }
            Err(message) => {
                problems.push((
                    index,
                    span,
                    format!("cannot load the base spec `{base}`: {message}"),
                    "the path is relative to the file that says `extends`".into(),
                ));
                break;
            }
        }
    }
    files.reverse();
    let mut combined = String::new();
    let mut segments = Vec::new();
    let mut padded = Vec::new();
    for (p, text) in &files {
        let start = combined.len();
        padded.push(format!("{}{}", " ".repeat(start), text));
        combined.push_str(text);
        segments.push(Segment {
            path: p.clone(),
            range: start..combined.len(),
        });
        combined.push('\n');
    }
    let count = files.len();
    let diags = problems
        .into_iter()
        .map(|(child_index, span, message, help)| {
            // `child_index` counted child-first; segments are base-first.
            let seg = &segments[count - 1 - child_index];
            let s = seg.range.start;
            Diagnostic::error("turnspec::extends", s + span.start..s + span.end, message)
                .label("this base")
                .help(help)
        })
        .collect();
    (
        Chain {
            combined,
            segments,
            padded,
        },
        diags,
    )
}

/// The `extends` value of a file and its span, if it parses that far.
fn extends_of(text: &str) -> Option<(String, Range<usize>)> {
    let (table, _) = DeTable::parse_recoverable(text);
    let (_, value) = table
        .get_ref()
        .iter()
        .find(|(k, _)| k.get_ref().as_ref() == "extends")?;
    match value.get_ref() {
        DeValue::String(s) => Some((s.to_string(), value.span())),
        _ => None,
    }
}

/// Merges `overlay` into `base`, recording problems.
pub(crate) fn merge<'i>(base: &mut DeTable<'i>, overlay: DeTable<'i>, diags: &mut Vec<Diagnostic>) {
    for (key, value) in overlay {
        let name = key.get_ref().to_string();
        if name == "extends" {
            continue;
        }
        let existing = base
            .iter_mut()
            .find(|(k, _)| k.get_ref().as_ref() == name.as_str())
            .map(|(_, v)| v);
        match (name.as_str(), existing) {
            ("phase" | "step" | "actions", Some(old)) => {
                let (DeValue::Array(old_items), DeValue::Array(_)) =
                    (old.get_mut(), value.get_ref())
                else {
                    replace(base, key, value);
                    continue;
                };
                let mut items: Vec<Spanned<DeValue<'i>>> =
                    std::mem::replace(old_items, DeArray::new())
                        .into_iter()
                        .collect();
                let span = value.span();
                let DeValue::Array(new_items) = value.into_inner() else {
                    unreachable_array()
                };
                merge_entries(&mut items, new_items, &name, diags);
                *old = Spanned::new(span, DeValue::Array(items.into_iter().collect()));
            }
            (_, Some(old)) => match (old.get_mut(), value.get_ref()) {
                (DeValue::Table(old_table), DeValue::Table(_)) => {
                    let span = value.span();
                    let DeValue::Table(new_table) = value.into_inner() else {
                        unreachable_array()
                    };
                    if removes(&new_table) {
                        remove_key(base, &name);
                        continue;
                    }
                    merge(old_table, new_table, diags);
                    let table = std::mem::replace(old_table, DeTable::new());
                    *old = Spanned::new(span, DeValue::Table(table));
                }
                _ => replace(base, key, value),
            },
            (_, None) => {
                if let DeValue::Table(t) = value.get_ref()
                    && removes(t)
                {
                    diags.push(
                            Diagnostic::error("turnspec::extends", key.span(), format!("`{name}` is not in the base spec, so it cannot be removed"))
                                .label("nothing to remove")
                                .help("check the name against the base spec (`turnspec check --explain` lists it)"),
                        );
                    continue;
                }
                base.insert(key, value);
            }
        }
    }
}

fn replace<'i>(
    base: &mut DeTable<'i>,
    key: Spanned<std::borrow::Cow<'i, str>>,
    value: Spanned<DeValue<'i>>,
) {
    let name = key.get_ref().to_string();
    remove_key(base, &name);
    base.insert(key, value);
}

fn remove_key(table: &mut DeTable<'_>, name: &str) {
    let key = table
        .iter()
        .find(|(k, _)| k.get_ref().as_ref() == name)
        .map(|(k, _)| k.clone());
    if let Some(key) = key {
        table.remove(&key);
    }
}

#[cold]
fn unreachable_array() -> ! {
    unreachable!("checked just above")
}

fn removes(table: &DeTable<'_>) -> bool {
    table.iter().any(|(k, v)| {
        k.get_ref().as_ref() == "remove" && matches!(v.get_ref(), DeValue::Boolean(true))
    })
}

fn id_of<'a>(value: &'a Spanned<DeValue<'_>>) -> Option<&'a str> {
    let DeValue::Table(t) = value.get_ref() else {
        return None;
    };
    t.iter()
        .find(|(k, _)| k.get_ref().as_ref() == "id")
        .and_then(|(_, v)| match v.get_ref() {
            DeValue::String(s) => Some(s.as_ref()),
            _ => None,
        })
}

/// Takes `key` out of an entry, returning its string value and span.
fn take_str(value: &mut Spanned<DeValue<'_>>, key: &str) -> Option<(String, Range<usize>)> {
    let DeValue::Table(t) = value.get_mut() else {
        return None;
    };
    let found = t
        .iter()
        .find(|(k, _)| k.get_ref().as_ref() == key)
        .map(|(_, v)| (v.span(), v.get_ref().clone()));
    remove_key(t, key);
    match found {
        Some((span, DeValue::String(s))) => Some((s.to_string(), span)),
        _ => None,
    }
}

/// Merges an array of `id`-keyed entries (phases, steps, actions).
fn merge_entries<'i>(
    items: &mut Vec<Spanned<DeValue<'i>>>,
    overlay: DeArray<'i>,
    what: &str,
    diags: &mut Vec<Diagnostic>,
) {
    let what = match what {
        "phase" => "phase",
        "step" => "step",
        _ => "turn-based action",
    };
    for mut entry in overlay {
        let Some(id) = id_of(&entry).map(str::to_string) else {
            // Entries without an id (windows of a sequence) cannot be matched:
            // the overlay's list replaces the base's.
            diags.push(
                Diagnostic::error(
                    "turnspec::extends",
                    entry.span(),
                    format!("this {what} has no `id`, so it cannot be merged with the base"),
                )
                .help("give the entry the `id` of the base entry it changes"),
            );
            continue;
        };
        let after = take_str(&mut entry, "after");
        let before = take_str(&mut entry, "before");
        let remove = match entry.get_mut() {
            DeValue::Table(t) => {
                let r = removes(t);
                remove_key(t, "remove");
                r
            }
            _ => false,
        };
        let position = items.iter().position(|v| id_of(v) == Some(id.as_str()));
        if remove {
            match position {
                Some(i) => {
                    items.remove(i);
                }
                None => diags.push(
                    Diagnostic::error(
                        "turnspec::extends",
                        entry.span(),
                        format!("the base spec has no {what} `{id}` to remove"),
                    )
                    .label("nothing to remove")
                    .help(
                        "check the id against the base spec (`turnspec check --explain` lists it)",
                    ),
                ),
            }
            continue;
        }
        let span = entry.span();
        let merged = match position {
            Some(i) => {
                let mut old = items.remove(i);
                if let (DeValue::Table(old_table), DeValue::Table(new_table)) =
                    (old.get_mut(), entry.into_inner())
                {
                    merge(old_table, new_table, diags);
                }
                let inner = old.into_inner();
                let merged = Spanned::new(span, inner);
                if after.is_none() && before.is_none() {
                    items.insert(i, merged);
                    continue;
                }
                merged
            }
            None => {
                if after.is_none() && before.is_none() {
                    diags.push(
                        Diagnostic::error("turnspec::extends", span, format!("the base spec has no {what} `{id}`"))
                            .label("not in the base")
                            .help(format!("to change one, use its exact id; to add a new {what}, say where: `after = \"<id>\"` or `before = \"<id>\"`")),
                    );
                    continue;
                }
                entry
            }
        };
        let (anchor, anchor_span, offset) = match (after, before) {
            (Some((a, s)), _) => (a, s, 1),
            (None, Some((b, s))) => (b, s, 0),
            (None, None) => unreachable_array(),
        };
        match items.iter().position(|v| id_of(v) == Some(anchor.as_str())) {
            Some(i) => items.insert(i + offset, merged),
            None => {
                diags.push(
                    Diagnostic::error(
                        "turnspec::extends",
                        anchor_span,
                        format!("there is no {what} `{anchor}` to place this next to"),
                    )
                    .label("unknown anchor"),
                );
                items.push(merged);
            }
        }
    }
}
