//! Problems found while loading a spec, reported all together.
//!
//! Each [`Diagnostic`] has a stable code (`turnspec::unknown-key`), a span in
//! the file, a label for the span and a hint. [`Report`] turns them into
//! miette diagnostics for people or into JSON for tools.

use std::fmt;
use std::ops::Range;
use std::sync::Arc;

use miette::{LabeledSpan, NamedSource, SourceSpan};
use serde::Serialize;

/// Whether a problem stops the spec from loading.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The spec is not loaded.
    Error,
    /// The spec loads, but something is probably not what the designer meant.
    Warning,
}

/// One problem in a spec, with where it is and how to fix it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    /// Whether the problem stops the load.
    pub severity: Severity,
    /// Stable identifier, e.g. `turnspec::unknown-key`.
    pub code: &'static str,
    /// What is wrong, in one sentence.
    pub message: String,
    /// Byte range in the source file.
    #[serde(skip)]
    pub span: Range<usize>,
    /// Shown under the span ("referenced here"); may be empty.
    pub label: String,
    /// How to fix it ("did you mean `description`?").
    pub help: Option<String>,
    /// Other places the problem involves, each with its own label: where
    /// an id defined twice was first defined.
    pub related: Vec<Related>,
}

/// Another place in the source a [`Diagnostic`] involves, shown with its
/// own label (miette draws it as a second label; the short text and JSON
/// give its position).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Related {
    /// Byte range in the source file.
    #[serde(skip)]
    pub span: Range<usize>,
    /// Shown under the span ("first definition").
    pub label: String,
}

impl Diagnostic {
    /// A problem that stops the spec from loading.
    pub fn error(code: &'static str, span: Range<usize>, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            code,
            message: message.into(),
            span,
            label: String::new(),
            help: None,
            related: Vec::new(),
        }
    }

    /// A problem that still lets the spec load.
    pub fn warning(code: &'static str, span: Range<usize>, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            ..Self::error(code, span, message)
        }
    }

    /// Sets the text shown under the span.
    pub fn label(mut self, label: impl Into<String>) -> Self {
        self.label = label.into();
        self
    }

    /// Adds how to fix the problem.
    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// In-place [`Diagnostic::label`], for diagnostics already collected.
    pub fn labelled(&mut self, label: impl Into<String>) -> &mut Self {
        self.label = label.into();
        self
    }

    /// Adds another place the problem involves, with its label, for
    /// diagnostics already collected.
    pub fn also_at(&mut self, span: Range<usize>, label: impl Into<String>) -> &mut Self {
        self.related.push(Related {
            span,
            label: label.into(),
        });
        self
    }
}

/// 1-based line and column of a byte offset (columns count characters).
pub fn line_col(source: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(source.len());
    let before = &source[..floor_char_boundary(source, offset)];
    let line = before.matches('\n').count() + 1;
    let col = before
        .rsplit('\n')
        .next()
        .map(|l| l.chars().count())
        .unwrap_or(0)
        + 1;
    (line, col)
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// One file's part of a combined source (a spec and the specs it extends).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Segment {
    /// The file's display path, as [`crate::ReadBase`] gave it.
    pub path: String,
    /// Its bytes in the combined source.
    pub range: Range<usize>,
}

/// The diagnostics of one load, with the text so they can be shown. When a
/// spec extends others, `source` holds all their texts one after the other
/// and `segments` says which file each byte range belongs to.
#[derive(Debug, Clone)]
pub struct Report {
    /// The file that was loaded (the extending spec, with `extends`).
    pub path: String,
    /// The text of that file, or of every file of the load together.
    pub source: Arc<str>,
    /// Every problem found, in source order.
    pub diagnostics: Vec<Diagnostic>,
    /// Which file each byte range of `source` came from.
    pub segments: Vec<Segment>,
    /// Where each line of `source` ends, built on first use, so placing
    /// many diagnostics costs a search each, not a scan of the text.
    newlines: std::sync::OnceLock<Vec<usize>>,
}

impl Report {
    /// A report for one file, no diagnostics yet.
    pub fn new(path: impl Into<String>, source: &str) -> Report {
        let path = path.into();
        Report {
            segments: vec![Segment {
                path: path.clone(),
                range: 0..source.len(),
            }],
            path,
            source: Arc::from(source),
            diagnostics: Vec::new(),
            newlines: std::sync::OnceLock::new(),
        }
    }

    /// Line breaks in `source` before `offset`.
    fn lines_before(&self, offset: usize) -> usize {
        let newlines = self.newlines.get_or_init(|| {
            self.source
                .bytes()
                .enumerate()
                .filter(|(_, b)| *b == b'\n')
                .map(|(i, _)| i)
                .collect()
        });
        newlines.partition_point(|&i| i < offset)
    }

    /// 1-based line and column of `offset`, counting lines from `start`.
    fn line_col_from(&self, start: usize, offset: usize) -> (usize, usize) {
        let offset = floor_char_boundary(&self.source, offset.min(self.source.len()));
        let start = start.min(offset);
        let line = self.lines_before(offset) - self.lines_before(start) + 1;
        let line_start = self.source[start..offset]
            .rfind('\n')
            .map(|i| start + i + 1)
            .unwrap_or(start);
        (line, self.source[line_start..offset].chars().count() + 1)
    }

    fn segment(&self, offset: usize) -> Option<&Segment> {
        self.segments
            .iter()
            .find(|s| s.range.start <= offset && offset <= s.range.end)
    }

    /// The file, 1-based line and column of a byte offset.
    pub fn position(&self, offset: usize) -> (&str, usize, usize) {
        match self.segment(offset) {
            Some(seg) => {
                let (line, col) = self.line_col_from(seg.range.start, offset);
                (seg.path.as_str(), line, col)
            }
            None => {
                let (line, col) = self.line_col_from(0, offset);
                (self.path.as_str(), line, col)
            }
        }
    }

    /// `file:line` of a byte offset, for provenance listings.
    pub fn locate(&self, offset: usize) -> String {
        let (file, line, _) = self.position(offset);
        format!("{file}:{line}")
    }

    /// How many problems are errors, for the summary line.
    pub fn errors(&self) -> usize {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count()
    }

    /// Whether the spec failed to load.
    pub fn has_errors(&self) -> bool {
        self.errors() > 0
    }

    /// `path:line:column: severity[code]: message` lines, one per problem.
    pub fn to_short_text(&self) -> String {
        let mut out = String::new();
        for d in &self.diagnostics {
            let (file, line, col) = self.position(d.span.start);
            let sev = match d.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
            };
            out.push_str(&format!(
                "{file}:{line}:{col}: {sev}[{}]: {}",
                d.code, d.message
            ));
            for r in &d.related {
                out.push_str(&format!(" ({} at {})", r.label, self.where_from(file, r)));
            }
            if let Some(help) = &d.help {
                out.push_str(&format!(" (help: {help})"));
            }
            out.push('\n');
        }
        out
    }

    /// `line:column` of a related span, with its file first when that is
    /// not `file` (the primary span's).
    fn where_from(&self, file: &str, r: &Related) -> String {
        let (other, line, col) = self.position(r.span.start);
        if other == file {
            format!("{line}:{col}")
        } else {
            format!("{other}:{line}:{col}")
        }
    }

    /// One JSON value per diagnostic, with file, line and column; its
    /// related places (`related`) each with file, line, column and label.
    pub fn to_json(&self) -> Vec<serde_json::Value> {
        self.diagnostics
            .iter()
            .map(|d| {
                let (file, line, column) = self.position(d.span.start);
                let (_, end_line, end_column) = self.position(d.span.end);
                let related: Vec<serde_json::Value> = d
                    .related
                    .iter()
                    .map(|r| {
                        let (file, line, column) = self.position(r.span.start);
                        let (_, end_line, end_column) = self.position(r.span.end);
                        serde_json::json!({
                            "file": file,
                            "line": line,
                            "column": column,
                            "end_line": end_line,
                            "end_column": end_column,
                            "label": r.label,
                        })
                    })
                    .collect();
                serde_json::json!({
                    "file": file,
                    "line": line,
                    "column": column,
                    "end_line": end_line,
                    "end_column": end_column,
                    "severity": d.severity,
                    "code": d.code,
                    "message": d.message,
                    "label": d.label,
                    "help": d.help,
                    "related": related,
                })
            })
            .collect()
    }

    /// miette diagnostics, each carrying the file so it renders with context.
    pub fn to_miette(&self) -> Vec<miette::Report> {
        self.diagnostics
            .iter()
            .map(|d| {
                let (name, text, shift) = match self.segment(d.span.start) {
                    Some(seg) => (
                        seg.path.clone(),
                        self.source[seg.range.clone()].to_string(),
                        seg.range.start,
                    ),
                    None => (self.path.clone(), self.source.to_string(), 0),
                };
                let mut diag = d.clone();
                let local = |span: &Range<usize>| {
                    let start = span.start.saturating_sub(shift).min(text.len());
                    start..span.end.saturating_sub(shift).clamp(start, text.len())
                };
                diag.span = local(&d.span);
                // A related place in this file is a second label; one in
                // another file of the load (a base spec) is named in the
                // help, since miette shows one file per diagnostic.
                let file = self.position(d.span.start).0;
                let (here, elsewhere): (Vec<Related>, Vec<Related>) = d
                    .related
                    .iter()
                    .cloned()
                    .partition(|r| self.segment(r.span.start) == self.segment(d.span.start));
                diag.related = here
                    .into_iter()
                    .map(|r| Related {
                        span: local(&r.span),
                        label: r.label,
                    })
                    .collect();
                for r in &elsewhere {
                    let note = format!("{} at {}", r.label, self.where_from(file, r));
                    diag.help = Some(match diag.help.take() {
                        Some(help) => format!("{help}; {note}"),
                        None => note,
                    });
                }
                miette::Report::new(Rendered {
                    diag,
                    source: NamedSource::new(name, text),
                })
            })
            .collect()
    }
}

#[derive(Debug)]
struct Rendered {
    diag: Diagnostic,
    source: NamedSource<String>,
}

impl fmt::Display for Rendered {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.diag.message)
    }
}

impl std::error::Error for Rendered {}

impl miette::Diagnostic for Rendered {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.diag.code))
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.diag.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
        })
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.diag
            .help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        Some(&self.source)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let span =
            SourceSpan::from(self.diag.span.start..self.diag.span.end.max(self.diag.span.start));
        let label = if self.diag.label.is_empty() {
            None
        } else {
            Some(self.diag.label.clone())
        };
        let related = self.diag.related.iter().map(|r| {
            let span = SourceSpan::from(r.span.start..r.span.end.max(r.span.start));
            LabeledSpan::new_with_span(Some(r.label.clone()), span)
        });
        // The problem's own span is the primary one: the header names its
        // line, also when a related span comes first in the file.
        Some(Box::new(
            std::iter::once(LabeledSpan::new_primary_with_span(label, span)).chain(related),
        ))
    }
}
