//! Diagrams that must parse whatever the names hold: `turnspec graph` of a
//! spec whose names contain `"`, `\`, a line break, `<`, `>`, `|`, `{`, `}`.
//! The DOT output is checked by Graphviz when `/usr/bin/dot` is installed,
//! and always by a small tokenizer here that also decodes every label; the
//! Mermaid output by decoding its quoted labels.

use crate::common;

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use common::{assert_no_panic, stderr, stdout, turnspec};

const HOSTILE: &str = "tests/specs/hostile/names.toml";

/// Names in the fixture, as the designer wrote them (after TOML escapes).
const NAMES: &[&str] = &[
    "Main \"phase\" \\ ends in a backslash \\",
    "Up\nkeep <one> | {two} # &amp; `tick`",
    "Step \"one\"\n<second line> {braces} | bar \\",
    "End \\",
    "Fight \"club\" <1> {2} |3| \\4\\",
    "brawl \"now\" |x| {y} <z> \\",
    "prio|rity <b>",
];

fn graph(spec: &str, format: &str) -> String {
    let o = turnspec(&["graph", spec, "--format", format]);
    assert_no_panic(&o);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    stdout(&o)
}

#[derive(Debug, PartialEq)]
enum Token {
    Id(String),
    /// A double-quoted string, with `\"` already read as `"`.
    Quoted(String),
    Punct(char),
    Arrow,
}

/// DOT's tokens: identifiers, quoted strings (where only `\"` is an escape
/// at this level), `->`, and punctuation. Errors on anything else,
/// including a string that does not end.
fn dot_tokens(text: &str) -> Result<Vec<Token>, String> {
    let mut tokens = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {}
            '"' => {
                let mut s = String::new();
                loop {
                    match chars.next() {
                        None => return Err(format!("unterminated string: {s}")),
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some('"') => s.push('"'),
                            Some(other) => {
                                s.push('\\');
                                s.push(other);
                            }
                            None => return Err("unterminated string".into()),
                        },
                        Some('\n') => return Err(format!("raw line break in a string: {s}")),
                        Some(other) => s.push(other),
                    }
                }
                tokens.push(Token::Quoted(s));
            }
            '-' if chars.peek() == Some(&'>') => {
                chars.next();
                tokens.push(Token::Arrow);
            }
            '{' | '}' | '[' | ']' | ';' | ',' | '=' => tokens.push(Token::Punct(c)),
            c if c.is_alphanumeric() || c == '_' => {
                let mut id = c.to_string();
                while let Some(&n) = chars.peek() {
                    if !(n.is_alphanumeric() || n == '_') {
                        break;
                    }
                    id.push(n);
                    chars.next();
                }
                tokens.push(Token::Id(id));
            }
            other => return Err(format!("unexpected character {other:?}")),
        }
    }
    Ok(tokens)
}

/// A label as Graphviz shows it: `\\` is a backslash, `\n` a line break.
fn dot_label(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some(other) => out.push(other),
            None => {}
        }
    }
    out
}

/// Checks the structure of the diagram (balanced braces and brackets,
/// `label = "..."` pairs) and returns every label, decoded.
fn dot_labels(text: &str) -> Vec<String> {
    let tokens = dot_tokens(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let mut depth: Vec<char> = Vec::new();
    let mut labels = Vec::new();
    for (i, t) in tokens.iter().enumerate() {
        match t {
            Token::Punct(c @ ('{' | '[')) => depth.push(*c),
            Token::Punct('}') => assert_eq!(depth.pop(), Some('{'), "{text}"),
            Token::Punct(']') => assert_eq!(depth.pop(), Some('['), "{text}"),
            Token::Id(id) if id == "label" => {
                assert_eq!(tokens.get(i + 1), Some(&Token::Punct('=')), "{text}");
                match tokens.get(i + 2) {
                    Some(Token::Quoted(s)) => labels.push(dot_label(s)),
                    other => panic!("label without a string: {other:?}\n{text}"),
                }
            }
            _ => {}
        }
    }
    assert!(depth.is_empty(), "unbalanced: {depth:?}\n{text}");
    labels
}

/// Runs Graphviz on the text if it is installed.
fn graphviz_accepts(text: &str) {
    if !Path::new("/usr/bin/dot").exists() {
        return;
    }
    let mut dot = Command::new("/usr/bin/dot")
        .arg("-Tsvg")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("dot runs");
    dot.stdin
        .take()
        .expect("stdin")
        .write_all(text.as_bytes())
        .expect("write to dot");
    let o = dot.wait_with_output().expect("dot ends");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success() && err.is_empty(), "dot: {err}\n{text}");
}

/// Every quoted label of a Mermaid flowchart, decoded: entity codes
/// (`#34;`) to characters, `<br/>` to line breaks. Fails on a quote inside
/// a label or a `<`, `>` that is not a line break.
fn mermaid_labels(text: &str) -> Vec<String> {
    let mut labels = Vec::new();
    for line in text.lines() {
        let quoted: Vec<&str> = line.split('"').collect();
        assert!(quoted.len() % 2 == 1, "odd number of quotes: {line}");
        for raw in quoted.iter().skip(1).step_by(2) {
            let raw = raw.replace("<br/>", "\n");
            assert!(
                !raw.contains(['<', '>', '|', '`']),
                "unescaped character in {raw:?}"
            );
            let mut label = String::new();
            let mut rest = raw.as_str();
            while let Some(at) = rest.find('#') {
                label.push_str(&rest[..at]);
                let end = rest[at..].find(';').expect("an entity ends with ;") + at;
                let code: u32 = rest[at + 1..end].parse().expect("a decimal entity");
                label.push(char::from_u32(code).expect("a character"));
                rest = &rest[end + 1..];
            }
            label.push_str(rest);
            labels.push(label);
        }
    }
    labels
}

fn assert_names_shown(labels: &[String], text: &str) {
    for name in NAMES {
        assert!(
            labels.iter().any(|l| l.contains(name)),
            "{name:?} is not in any label: {labels:#?}\n{text}"
        );
    }
}

#[test]
fn graph_dot_with_quotes_backslashes_and_line_breaks_in_names_parses() {
    let text = graph(HOSTILE, "dot");
    graphviz_accepts(&text);
    let labels = dot_labels(&text);
    assert_names_shown(&labels, &text);
}

#[test]
fn graph_mermaid_with_quotes_backslashes_and_line_breaks_in_names_parses() {
    let text = graph(HOSTILE, "mermaid");
    let labels = mermaid_labels(&text);
    assert_names_shown(&labels, &text);
}

#[test]
fn graph_of_every_reference_spec_parses() {
    for spec in [
        "games/mtg.toml",
        "games/grand-archive.toml",
        "games/mtg-classic.toml",
    ] {
        let text = graph(spec, "dot");
        graphviz_accepts(&text);
        assert!(!dot_labels(&text).is_empty(), "{spec}");
        assert!(
            !mermaid_labels(&graph(spec, "mermaid")).is_empty(),
            "{spec}"
        );
    }
}
