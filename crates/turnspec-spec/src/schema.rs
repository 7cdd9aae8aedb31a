//! The schema side of loading, shared by every TOML format of turnspec
//! (specs here, scenarios in `turnspec-scenario`): TOML tables to the raw
//! serde types, every unknown key reported at its place with a hint drawn
//! from the keys of *that* table, and serde's messages worded for
//! designers.
//!
//! The raw serde types are the schema. The keys a table accepts are read
//! from its type (the field list serde passes to `deserialize_struct`), so
//! the hints can never fall out of step with what the loader accepts.

use std::ops::Range;

use serde::de::{self, Deserialize, DeserializeOwned, Visitor};
use toml::Spanned;

use crate::diag::Diagnostic;

/// The keys a struct type of the schema accepts, as serde names them
/// (`rename`s applied).
pub fn fields_of<'de, T: Deserialize<'de>>() -> &'static [&'static str] {
    let mut fields: &'static [&'static str] = &[];
    let _ = T::deserialize(FieldNames(&mut fields));
    fields
}

/// A deserializer that answers nothing, but records the field list of the
/// first struct asked for.
struct FieldNames<'a>(&'a mut &'static [&'static str]);

#[derive(Debug)]
struct Stop;

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("field names read")
    }
}

impl std::error::Error for Stop {}

impl de::Error for Stop {
    fn custom<T: std::fmt::Display>(_: T) -> Self {
        Stop
    }
}

impl<'de> de::Deserializer<'de> for FieldNames<'_> {
    type Error = Stop;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Stop> {
        Err(Stop)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Stop> {
        *self.0 = fields;
        Err(Stop)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map enum identifier ignored_any
    }
}

/// How a format names its problems and where its keys are documented.
pub struct Format {
    /// The diagnostic code prefix, e.g. `turnspec` or `scenario`.
    pub unknown_key_code: &'static str,
    /// The code for a value of the wrong type.
    pub schema_code: &'static str,
    /// The page that lists every key.
    pub docs: &'static str,
    /// The keys accepted by the table at `path` (array indices left out):
    /// `&["phase", "step"]` names a step table.
    pub keys_at: fn(&[&str]) -> &'static [&'static str],
    /// Every table of the format, as written in a file (`"[mana]"`) with
    /// its path for `keys_at`, to say where a misplaced key belongs.
    pub tables: &'static [(&'static str, &'static [&'static str])],
}

/// Deserializes `table` into the schema type `T`, reporting every unknown
/// key (with a hint from the keys of its own table) and, if the document
/// does not fit the types, the first mismatch.
pub fn deserialize_reporting<T: DeserializeOwned>(
    table: Spanned<toml::de::DeTable<'_>>,
    format: &Format,
    diags: &mut Vec<Diagnostic>,
) -> Option<T> {
    let mut ignored: Vec<Vec<PathPart>> = Vec::new();
    let de = toml::de::Deserializer::from(table.clone());
    let raw: Result<T, _> = serde_ignored::deserialize(de, |path| ignored.push(path_parts(&path)));
    let mut index = TableIndex::new();
    for path in &ignored {
        let (span, key) = locate(&table, path, &mut index);
        let tables: Vec<&str> = path[..path.len().saturating_sub(1)]
            .iter()
            .filter_map(|p| match p {
                PathPart::Key(k) => Some(k.as_str()),
                PathPart::Index(_) => None,
            })
            .collect();
        let known = (format.keys_at)(&tables);
        let mut d = Diagnostic::error(
            format.unknown_key_code,
            span,
            format!("unknown key `{key}`"),
        );
        d = if tables.is_empty() {
            d.label("not a key at the top of the file")
        } else {
            d.label(format!("not a key of `[{}]`", tables.join(".")))
        };
        let elsewhere: Vec<&str> = format
            .tables
            .iter()
            .filter(|(_, path)| (format.keys_at)(path).contains(&key.as_str()))
            .map(|(name, _)| *name)
            .collect();
        let listed = known
            .iter()
            .map(|k| format!("`{k}`"))
            .collect::<Vec<_>>()
            .join(", ");
        let help = match suggest(&key, known) {
            Some(s) => format!("did you mean `{s}`?"),
            None if !elsewhere.is_empty() => {
                format!("`{key}` is a key of {}", elsewhere.join(", "))
            }
            None if known.is_empty() => String::new(),
            None => format!("this table takes {listed}"),
        };
        let docs = format!("every key is listed in {}", format.docs);
        d = d.help(if help.is_empty() {
            docs
        } else {
            format!("{help} ({docs})")
        });
        diags.push(d);
    }
    match raw {
        Ok(raw) => Some(raw),
        Err(e) => {
            let span = e.span().unwrap_or(0..0);
            diags.push(
                Diagnostic::error(format.schema_code, span, plain_schema_message(e.message()))
                    .label("this value does not fit the format")
                    .help(format!(
                        "see {} for the expected type of each key",
                        format.docs
                    )),
            );
            None
        }
    }
}

/// One step of a path into a TOML document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathPart {
    /// A key of a table.
    Key(String),
    /// An element of an array.
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
fn locate<'t>(
    table: &'t Spanned<toml::de::DeTable<'t>>,
    path: &[PathPart],
    index: &mut TableIndex<'t>,
) -> (Range<usize>, String) {
    use toml::de::DeValue;
    let mut span = 0..0;
    let mut name = String::new();
    let mut current: Option<&'t DeValue<'t>> = None;
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
                let keys = index.entry(tbl as *const _ as usize).or_insert_with(|| {
                    tbl.iter()
                        .map(|(key, value)| (key.get_ref().as_ref(), (key.span(), value.get_ref())))
                        .collect()
                });
                let Some((key_span, value)) = keys.get(k.as_str()) else {
                    break;
                };
                span = key_span.clone();
                current = Some(*value);
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

/// The keys of each table met while locating unknown keys, indexed once,
/// so a file with many unknown keys costs a lookup per key, not a scan.
type TableIndex<'t> = std::collections::HashMap<
    usize,
    std::collections::HashMap<&'t str, (Range<usize>, &'t toml::de::DeValue<'t>)>,
>;

/// serde's message without the Rust type names behind the schema
/// ("expected struct RawPlayers" → "expected a table").
pub fn plain_schema_message(message: &str) -> String {
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
        .replace(
            "expected a sequence",
            "expected an array (`[...]`, or `[[name]]` tables for a list of tables)",
        )
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

/// The JSON Schema of a spec file, generated from the raw serde types (so
/// it accepts exactly the keys the loader accepts). Editors use it to
/// complete and check specs (docs/cli.md, "Editor support"); `turnspec
/// schema spec` prints it.
///
/// No key is marked required: a spec that `extends` another may leave out
/// what its base gives (an effect's `kind`), and `turnspec check` reports
/// what the merged spec lacks.
pub fn json_schema() -> serde_json::Value {
    let mut schema = json_schema_of::<crate::raw::RawSpec>(
        "turnspec turn spec",
        "A card game's turn structure for turnspec: see docs/spec-format.md.",
    );
    drop_required(&mut schema);
    schema
}

fn drop_required(value: &mut serde_json::Value) {
    use serde_json::Value;
    match value {
        Value::Object(map) => {
            if map.get("type").is_some_and(|t| t == "object") {
                map.remove("required");
            }
            map.values_mut().for_each(drop_required);
        }
        Value::Array(items) => items.iter_mut().for_each(drop_required),
        _ => {}
    }
}

/// The JSON Schema (draft 7, which Taplo / Even Better TOML reads) of a
/// raw type, with a title and a description. Optional keys are just
/// optional: TOML has no null, so the `null` schemars adds is removed.
pub fn json_schema_of<T: schemars::JsonSchema>(
    title: &str,
    description: &str,
) -> serde_json::Value {
    let generator = schemars::generate::SchemaSettings::draft07().into_generator();
    let mut schema =
        serde_json::to_value(generator.into_root_schema_for::<T>()).unwrap_or_default();
    drop_null(&mut schema);
    schema["title"] = title.into();
    schema["description"] = description.into();
    schema
}

fn drop_null(value: &mut serde_json::Value) {
    use serde_json::Value;
    match value {
        Value::Object(map) => {
            if let Some(Value::Array(types)) = map.get_mut("type") {
                types.retain(|t| t != "null");
                if types.len() == 1 {
                    let only = types.remove(0);
                    map.insert("type".into(), only);
                }
            }
            for key in ["anyOf", "oneOf"] {
                if let Some(Value::Array(options)) = map.get_mut(key) {
                    options.retain(|o| o.get("type").is_none_or(|t| t != "null"));
                    if options.len() == 1 {
                        let only = options.remove(0);
                        map.remove(key);
                        if let Value::Object(inner) = only {
                            map.extend(inner);
                        }
                    }
                }
            }
            map.values_mut().for_each(drop_null);
        }
        Value::Array(items) => items.iter_mut().for_each(drop_null),
        _ => {}
    }
}
