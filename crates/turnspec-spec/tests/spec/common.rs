//! Loading specs that must fail and locating their diagnostics, shared by
//! the loader's test files.

#![allow(dead_code)]

use turnspec_spec::{Diagnostic, Report, line_col, load_str};

/// Loads text that must fail, returning the report.
pub fn load_err(path: &str, source: &str) -> Report {
    match load_str(path, source) {
        Ok((spec, report)) => panic!(
            "{path} loaded as `{}` but should have failed; diagnostics:\n{}",
            spec.game().name,
            report.to_short_text()
        ),
        Err(report) => report,
    }
}

/// The first diagnostic with `code` and its 1-based line and column.
pub fn located<'r>(report: &'r Report, code: &str) -> (&'r Diagnostic, (usize, usize)) {
    let d = report
        .diagnostics
        .iter()
        .find(|d| d.code == code)
        .unwrap_or_else(|| panic!("no {code}; got:\n{}", report.to_short_text()));
    (d, line_col(&report.source, d.span.start))
}

/// Loads `text`, which must fail, and maps each diagnostic with its 1-based
/// line and column (`None` leaves it out).
pub fn each_located<T>(
    path: &str,
    text: &str,
    f: impl Fn(&Diagnostic, usize, usize) -> Option<T>,
) -> Vec<T> {
    let report = load_err(path, text);
    report
        .diagnostics
        .iter()
        .filter_map(|d| {
            let (line, col) = line_col(&report.source, d.span.start);
            f(d, line, col)
        })
        .collect()
}
