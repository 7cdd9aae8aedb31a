//! The schema side of loading: TOML tables to the raw types, unknown keys,
//! and wording serde's messages for designers.

use std::ops::Range;

use toml::Spanned;

use crate::diag::Diagnostic;
use crate::raw::RawSpec;

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

pub(super) fn raw_from_table(
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
