//! Reading scenario and spec files. The only module of this crate that
//! touches the file system.
//!
//! Every file turnspec reads (spec files, the bases they `extends`, scenario
//! files) goes through [`read_text`], which reads only regular files of at
//! most [`MAX_FILE_BYTES`]. [`find_scenarios`] decides which files under a
//! folder are scenarios by parsing them, follows links and reports every path
//! it cannot read.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::fs::{File, FileType, Metadata};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use turnspec_spec::{Diagnostic, Report, Spec};

use crate::compile::{Scenario, load_with_files};

/// The largest file turnspec reads, and the largest spec including all the
/// bases it `extends`. The reference specs are under 100 KiB; the cap keeps
/// a wrong path (a disk image, a log) from filling memory.
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// Why a file could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadError {
    /// The file that could not be read.
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
    /// The spec at `path`, loaded on first use; the error is the spec's
    /// report as text, so every scenario naming a broken spec shows it.
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
    load_with_files(
        &shown,
        &text,
        &mut |spec| {
            let p = dir.join(spec);
            cache.get(&p).map(|s| (s, p.display().to_string()))
        },
        &mut |file| {
            let p = dir.join(file);
            read_text(&p)
                .map(|text| (text, p.display().to_string()))
                .map_err(|e| e.to_string())
        },
    )
}

/// What a search for scenario (or spec) files found.
#[derive(Debug, Default)]
pub struct Found {
    /// Scenario (or spec) files, sorted; each file once, however many paths
    /// lead to it.
    pub files: Vec<PathBuf>,
    /// `.toml` files in the folders searched that are not of the kind
    /// searched for (specs kept beside scenarios, or scenarios beside
    /// specs), sorted.
    pub skipped: Vec<PathBuf>,
    /// Every path that could not be searched or read: each is an error.
    pub errors: Vec<ReadError>,
}

/// What identifies a file or folder whatever path leads to it.
#[cfg(unix)]
type Identity = (u64, u64);

#[cfg(unix)]
fn identity(_path: &Path, meta: &Metadata) -> Option<Identity> {
    use std::os::unix::fs::MetadataExt;
    Some((meta.dev(), meta.ino()))
}

#[cfg(not(unix))]
type Identity = PathBuf;

#[cfg(not(unix))]
fn identity(path: &Path, _meta: &Metadata) -> Option<Identity> {
    path.canonicalize().ok()
}

/// Whether a `.toml` file found in a folder is a scenario: it is TOML with a
/// top-level `scenario` table. Text that is not TOML counts as a scenario,
/// so that loading it reports the syntax error instead of it being skipped.
fn is_scenario(text: &str) -> bool {
    match toml::from_str::<toml::Table>(text) {
        Ok(table) => table.contains_key("scenario"),
        Err(_) => true,
    }
}

/// Files given by name are scenarios whatever they hold (loading says what
/// is wrong with them). Folders are searched recursively, links followed:
/// every `.toml` file is read, and is a scenario if it has a `scenario`
/// table. Each folder and file is visited once (by device and inode), so a
/// link back up the tree or two folders linking to each other end rather
/// than loop; links are followed after everything else, so a file inside
/// the folders searched is listed under its own path, not a link's.
pub fn find_scenarios(paths: &[PathBuf]) -> Found {
    find(paths, is_scenario)
}

/// Whether a `.toml` file found in a folder is a spec: it is neither a
/// scenario (a top-level `scenario` table) nor a stop profile (a top-level
/// `profile` table, docs/stops.md). Text that is not TOML counts as a
/// spec, so that checking it reports the syntax error instead of it being
/// skipped.
fn is_spec(text: &str) -> bool {
    match toml::from_str::<toml::Table>(text) {
        Ok(table) => is_spec_table(&table),
        Err(_) => true,
    }
}

fn is_spec_table(table: &toml::Table) -> bool {
    !table.contains_key("scenario") && !table.contains_key("profile")
}

/// Whether the file at `path` is a readable `.toml` spec (no `scenario`
/// or `profile` table), so a command that takes both specs and scenarios as arguments
/// can tell them apart by content, as the folder search does.
pub fn is_spec_file(path: &Path) -> bool {
    path.is_file()
        && path.extension().is_some_and(|e| e == "toml")
        && read_text(path)
            .is_ok_and(|text| toml::from_str::<toml::Table>(&text).is_ok_and(|t| is_spec_table(&t)))
}

/// Spec files under `paths`, by the rules of [`find_scenarios`]: files
/// given by name are specs whatever they hold; in folders, searched
/// recursively with links followed, every `.toml` file without a
/// `scenario` or `profile` table is a spec, and the others are listed as
/// skipped.
pub fn find_specs(paths: &[PathBuf]) -> Found {
    find(paths, is_spec)
}

fn find(paths: &[PathBuf], wanted: fn(&str) -> bool) -> Found {
    let mut search = Search {
        wanted,
        folders: HashSet::new(),
        files: HashSet::new(),
        links: Vec::new(),
        found: Found::default(),
    };
    for p in paths {
        search.enter(p, true);
    }
    while !search.links.is_empty() {
        let mut links = std::mem::take(&mut search.links);
        links.sort();
        for link in links {
            search.enter(&link, false);
        }
    }
    let mut found = search.found;
    found.files.sort();
    found.skipped.sort();
    found
}

struct Search {
    /// Whether a `.toml` file found in a folder, with this text, is wanted.
    wanted: fn(&str) -> bool,
    folders: HashSet<Identity>,
    files: HashSet<Identity>,
    /// Links met in folders, to follow once the folders are done.
    links: Vec<PathBuf>,
    found: Found,
}

impl Search {
    fn error(&mut self, path: &Path, reason: String) {
        self.found.errors.push(ReadError {
            path: path.to_path_buf(),
            reason,
        });
    }

    /// Visits a path, following links: a link that leads nowhere or round in
    /// a loop is an error.
    fn enter(&mut self, path: &Path, named: bool) {
        let meta = match std::fs::metadata(path) {
            Ok(meta) => meta,
            Err(e) => return self.error(path, e.to_string()),
        };
        let Some(id) = identity(path, &meta) else {
            return self.error(path, "cannot tell where this path leads".into());
        };
        if meta.is_dir() {
            if self.folders.insert(id) {
                self.walk(path);
            }
            return;
        }
        if !named && path.extension().is_none_or(|x| x != "toml") {
            return;
        }
        if !self.files.insert(id) {
            return;
        }
        if named {
            self.found.files.push(path.to_path_buf());
            return;
        }
        match read_text(path) {
            Ok(text) if (self.wanted)(&text) => self.found.files.push(path.to_path_buf()),
            Ok(_) => self.found.skipped.push(path.to_path_buf()),
            Err(e) => self.found.errors.push(e),
        }
    }

    fn walk(&mut self, dir: &Path) {
        let entries = match std::fs::read_dir(dir) {
            Ok(entries) => entries,
            Err(e) => return self.error(dir, format!("cannot list the folder: {e}")),
        };
        let mut paths = Vec::new();
        for entry in entries {
            match entry {
                Ok(entry) => paths.push(entry.path()),
                Err(e) => self.error(dir, format!("cannot list the folder: {e}")),
            }
        }
        // Sorted, so the search does not depend on the order the file
        // system lists a folder in.
        paths.sort();
        for p in paths {
            match std::fs::symlink_metadata(&p) {
                Ok(meta) if meta.file_type().is_symlink() => self.links.push(p),
                Ok(_) => self.enter(&p, false),
                Err(e) => self.error(&p, e.to_string()),
            }
        }
    }
}
