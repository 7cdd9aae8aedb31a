//! Reading scenario and spec files. The only module of this crate that
//! touches the file system.
//!
//! Every file turnspec reads (spec files, the bases they `extends`, scenario
//! files) goes through [`read_text`], which reads only regular files of at
//! most [`MAX_FILE_BYTES`].

use std::collections::HashMap;
use std::fmt;
use std::fs::{File, FileType, Metadata};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use turnspec_spec::{Diagnostic, Report, Spec};

use crate::compile::{Scenario, load};

/// The largest file turnspec reads, and the largest spec including all the
/// bases it `extends`. The reference specs are under 100 KiB; the cap keeps
/// a wrong path (a disk image, a log) from filling memory.
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// Why a file could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadError {
    pub path: PathBuf,
    /// Why, without the path: "it is a folder, not a file".
    pub reason: String,
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot read {}: {}", self.path.display(), self.reason)
    }
}

impl std::error::Error for ReadError {}

fn too_big(len: u64) -> String {
    format!(
        "it is {len} bytes; turnspec reads files of at most {} MiB",
        MAX_FILE_BYTES / (1024 * 1024)
    )
}

/// What kind of file this is, for a message; `None` for a regular file.
fn not_regular(t: FileType) -> Option<String> {
    if t.is_file() {
        return None;
    }
    if t.is_dir() {
        return Some("it is a folder, not a file".into());
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let kind = if t.is_fifo() {
            Some("a named pipe (FIFO)")
        } else if t.is_char_device() {
            Some("a character device")
        } else if t.is_block_device() {
            Some("a block device")
        } else if t.is_socket() {
            Some("a socket")
        } else {
            None
        };
        if let Some(kind) = kind {
            return Some(format!("it is {kind}, not a regular file"));
        }
    }
    Some("it is not a regular file".into())
}

fn check_regular(meta: &Metadata) -> Result<(), String> {
    match not_regular(meta.file_type()) {
        Some(why) => Err(why),
        None if meta.len() > MAX_FILE_BYTES => Err(too_big(meta.len())),
        None => Ok(()),
    }
}

/// The text of a file: a regular file (links followed) of at most
/// [`MAX_FILE_BYTES`], in UTF-8. Folders, devices (`/dev/zero`), named pipes
/// and sockets are refused before they are opened, so reading never blocks
/// on a pipe or runs until memory is gone; the opened file is checked again
/// in case the path changed in between, and reading stops after the cap
/// whatever size the file claims (files under `/proc` claim 0).
pub fn read_text(path: &Path) -> Result<String, ReadError> {
    let fail = |reason: String| ReadError {
        path: path.to_path_buf(),
        reason,
    };
    let meta = std::fs::metadata(path).map_err(|e| fail(e.to_string()))?;
    check_regular(&meta).map_err(fail)?;
    let file = File::open(path).map_err(|e| fail(e.to_string()))?;
    let meta = file.metadata().map_err(|e| fail(e.to_string()))?;
    check_regular(&meta).map_err(fail)?;
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| fail(e.to_string()))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(fail(format!(
            "it is over {} MiB; turnspec reads files of at most {} MiB",
            MAX_FILE_BYTES / (1024 * 1024),
            MAX_FILE_BYTES / (1024 * 1024)
        )));
    }
    String::from_utf8(bytes).map_err(|e| {
        fail(format!(
            "it is not UTF-8 text (byte {} is not)",
            e.utf8_error().valid_up_to() + 1
        ))
    })
}

/// A file's text, or a report saying why it cannot be read.
fn read(path: &Path, shown: &str, code: &'static str) -> Result<String, Report> {
    read_text(path).map_err(|e| {
        let mut report = Report::new(shown, "");
        report.diagnostics.push(Diagnostic::error(
            code,
            0..0,
            format!("cannot read the file: {}", e.reason),
        ));
        report
    })
}

/// Loads a spec file, following `extends` relative to each file. Returns the
/// spec and its (warnings) report, or the report of its errors. The spec and
/// its bases together may hold at most [`MAX_FILE_BYTES`]. A base that is
/// already in the chain under another spelling (`./a.toml`) is given its
/// first spelling, so it is reported as the cycle it is.
pub fn load_spec_file(path: &Path) -> Result<(Spec, Report), Report> {
    let shown = path.display().to_string();
    let text = read(path, &shown, "turnspec::read")?;
    let mut total = text.len() as u64;
    // (canonical path, path as shown) of every file read so far.
    let mut chain: Vec<(PathBuf, String)> = path
        .canonicalize()
        .map(|c| (c, shown.clone()))
        .into_iter()
        .collect();
    turnspec_spec::load_with(&shown, &text, &mut |base, from| {
        let dir = Path::new(from)
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        let p = dir.join(base);
        let canonical = p.canonicalize().ok();
        if let Some((_, first)) = chain.iter().find(|(c, _)| Some(c) == canonical.as_ref()) {
            return Ok((first.clone(), String::new()));
        }
        let text = read_text(&p).map_err(|e| format!("{}: {}", p.display(), e.reason))?;
        total += text.len() as u64;
        if total > MAX_FILE_BYTES {
            return Err(format!(
                "{}: the spec and its bases together are over {} MiB, the most turnspec reads",
                p.display(),
                MAX_FILE_BYTES / (1024 * 1024)
            ));
        }
        let shown = p.display().to_string();
        if let Some(c) = canonical {
            chain.push((c, shown.clone()));
        }
        Ok((shown, text))
    })
}

/// Specs loaded so far, by canonical path: a suite of scenarios loads each
/// spec once.
#[derive(Default)]
pub struct SpecCache {
    specs: HashMap<PathBuf, Result<Arc<Spec>, String>>,
}

impl SpecCache {
    pub fn get(&mut self, path: &Path) -> Result<Arc<Spec>, String> {
        let key = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
        self.specs
            .entry(key)
            .or_insert_with(|| {
                load_spec_file(path)
                    .map(|(spec, _)| Arc::new(spec))
                    .map_err(|report| {
                        format!(
                            "spec {} has {} error(s):\n{}",
                            path.display(),
                            report.errors(),
                            report.to_short_text()
                        )
                    })
            })
            .clone()
    }
}

/// Loads one scenario file.
pub fn load_file(path: &Path, cache: &mut SpecCache) -> Result<Scenario, Report> {
    let shown = path.display().to_string();
    let text = read(path, &shown, "scenario::read")?;
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    load(&shown, &text, &mut |spec| {
        let p = dir.join(spec);
        cache.get(&p).map(|s| (s, p.display().to_string()))
    })
}

/// Every `.toml` file under the given files and folders, sorted, skipping
/// files without a `[scenario]` table (specs kept beside scenarios).
pub fn find_scenarios(paths: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            walk(p, &mut out);
        } else {
            out.push(p.clone());
        }
    }
    out.sort();
    out.dedup();
    out
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, out);
        } else if p.extension().is_some_and(|x| x == "toml")
            && read_text(&p).is_ok_and(|t| t.lines().any(|l| l.trim() == "[scenario]"))
        {
            out.push(p);
        }
    }
}
