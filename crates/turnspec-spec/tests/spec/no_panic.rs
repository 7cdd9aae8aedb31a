//! `load_str` never panics: not on arbitrary text, and not on the two
//! reference specs damaged at random. Whatever it returns is consistent (an
//! `Err` has errors, an `Ok` has none) and every diagnostic can be shown.

use proptest::prelude::*;
use turnspec_spec::line_col;
use turnspec_spec::{Report, load_str};

const MTG: &str = include_str!("../../../../games/mtg.toml");
const GRAND_ARCHIVE: &str = include_str!("../../../../games/grand-archive.toml");

/// Case count: modest by default so the suite stays fast; set
/// `PROPTEST_CASES` for a longer run.
fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn spec_text(which: bool) -> &'static str {
    if which { GRAND_ARCHIVE } else { MTG }
}

/// Loads `source` and checks the result hangs together; panics propagate.
fn load_and_check(source: &str) {
    let (report, ok) = match load_str("fuzz.toml", source) {
        Ok((_, report)) => (report, true),
        Err(report) => (report, false),
    };
    assert_eq!(
        ok,
        !report.has_errors(),
        "Ok must mean no errors and Err at least one:\n{}",
        report.to_short_text()
    );
    show(&report, source);
}

/// Every way a report is shown must work on any input.
fn show(report: &Report, source: &str) {
    for d in &report.diagnostics {
        assert!(
            d.span.start <= d.span.end && d.span.end <= source.len(),
            "{} span {:?} outside a source of {} bytes",
            d.code,
            d.span,
            source.len()
        );
        assert!(d.code.starts_with("turnspec::"), "code {:?}", d.code);
        let _ = line_col(source, d.span.start);
        let _ = line_col(source, d.span.end);
    }
    let _ = report.to_short_text();
    let _ = report.to_json();
    // The graphical handler needs miette's `fancy` feature, which only the CLI
    // enables; the narratable one reads the same spans and snippets.
    let handler = miette::NarratableReportHandler::new();
    for r in report.to_miette() {
        let mut out = String::new();
        let _ = handler.render_report(&mut out, r.as_ref());
    }
}

/// One way of damaging a spec.
#[derive(Debug, Clone)]
enum Mutation {
    /// Replace the byte at this position (modulo length) with this byte.
    ReplaceByte(usize, u8),
    DeleteLine(usize),
    DuplicateLine(usize),
    Truncate(usize),
    /// Replace the n-th word with the m-th word of the same file, which keeps
    /// the TOML valid more often and so reaches the semantic checks.
    SwapWord(usize, usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Mutation::ReplaceByte(i, b)),
        any::<usize>().prop_map(Mutation::DeleteLine),
        any::<usize>().prop_map(Mutation::DuplicateLine),
        any::<usize>().prop_map(Mutation::Truncate),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Mutation::SwapWord(a, b)),
    ]
}

fn floor_boundary(s: &str, mut i: usize) -> usize {
    i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Byte ranges of the words (`[A-Za-z0-9_.-]+`) of `s`.
fn words(s: &str) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in s.char_indices() {
        let w = c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-');
        match (w, start) {
            (true, None) => start = Some(i),
            (false, Some(st)) => {
                out.push(st..i);
                start = None;
            }
            _ => {}
        }
    }
    if let Some(st) = start {
        out.push(st..s.len());
    }
    out
}

fn apply(text: &str, m: &Mutation) -> String {
    if text.is_empty() {
        return String::new();
    }
    match *m {
        Mutation::ReplaceByte(i, b) => {
            let mut bytes = text.as_bytes().to_vec();
            let i = i % bytes.len();
            bytes[i] = b;
            String::from_utf8_lossy(&bytes).into_owned()
        }
        Mutation::DeleteLine(i) => {
            let mut lines: Vec<&str> = text.split_inclusive('\n').collect();
            let i = i % lines.len();
            lines.remove(i);
            lines.concat()
        }
        Mutation::DuplicateLine(i) => {
            let mut lines: Vec<&str> = text.split_inclusive('\n').collect();
            let i = i % lines.len();
            lines.insert(i, lines[i]);
            lines.concat()
        }
        Mutation::Truncate(i) => text[..floor_boundary(text, i % (text.len() + 1))].to_string(),
        Mutation::SwapWord(a, b) => {
            let w = words(text);
            if w.is_empty() {
                return text.to_string();
            }
            let (a, b) = (w[a % w.len()].clone(), w[b % w.len()].clone());
            let mut out = String::with_capacity(text.len());
            out.push_str(&text[..a.start]);
            out.push_str(&text[b]);
            out.push_str(&text[a.end..]);
            out
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(256), ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_strings_never_panic(s in any::<String>()) {
        load_and_check(&s);
    }

    #[test]
    fn toml_like_strings_never_panic(
        s in "([\\[\\]{}=\",. #a-z0-9_\n-]|phase|step|id|if|players|min|max|timing|during|on_demand|true|priority|always|window|sequence){0,120}"
    ) {
        load_and_check(&s);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(96), ..ProptestConfig::default() })]

    #[test]
    fn mutated_reference_specs_never_panic(
        which in any::<bool>(),
        mutations in prop::collection::vec(mutation(), 1..4),
    ) {
        let mut text = spec_text(which).to_string();
        for m in &mutations {
            text = apply(&text, m);
        }
        load_and_check(&text);
    }

    #[test]
    fn reference_specs_with_one_word_swapped_never_panic(
        which in any::<bool>(),
        a in any::<usize>(),
        b in any::<usize>(),
    ) {
        let text = apply(spec_text(which), &Mutation::SwapWord(a, b));
        load_and_check(&text);
    }
}

#[test]
fn every_truncation_of_a_small_spec_never_panics() {
    // A short but complete spec, cut at every character boundary.
    let text = "[game]\nname = \"t\"\nplayers = { min = 2, max = 2 }\n\n[timing.fast]\nwho = \"any\"\n\n[[phase]]\nid = \"main\"\nskip = [{ if = \"first_turn and players == 2\" }]\npriority = \"always\"\n";
    load_and_check(text);
    for (i, _) in text.char_indices() {
        load_and_check(&text[..i]);
    }
}
