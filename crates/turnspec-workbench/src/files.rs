//! Every file the workbench reads or writes goes through [`Files`]: the
//! folder `turnspec serve` runs in ([`Folder`]), or a bounded map of texts
//! kept in memory ([`MemoryFiles`]) for the page built for WebAssembly,
//! which keeps it in the browser's storage.
//!
//! The rules of saving are written once, here, and hold for scenarios,
//! stop profiles and specs alike: a path is a [`RelPath`] (relative, plain
//! names, no `..`, bounded), a file is replaced only when asked and only
//! by a file of its kind ([`check_save`]), and texts are bounded
//! ([`MAX_FILE`]). [`Folder`] adds what only a file system needs: it never
//! follows a symbolic link, and it replaces a file by writing a new one
//! beside it and renaming it over.

use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::api::ApiError;
use crate::limits::{
    MAX_DEPTH, MAX_FILE, MAX_MEMORY_BYTES, MAX_MEMORY_FILES, MAX_PATH, MAX_WALK, MAX_WALK_ENTRIES,
};

/// A path under the workbench's folder: folders and a `.toml` file name,
/// each a plain name. Only [`RelPath::parse`] makes one, so every path a
/// [`Files`] sees has passed its checks.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct RelPath {
    folders: Vec<String>,
    file: String,
}

impl RelPath {
    /// Takes a path apart. Refuses absolute paths, `..`, `.`, hidden
    /// names, control characters and backslashes, names that are not
    /// `.toml`, and paths longer than [`MAX_PATH`] bytes or deeper than
    /// [`MAX_DEPTH`] folders.
    pub fn parse(path: &str) -> Result<RelPath, ApiError> {
        let refuse = |why: &str| {
            Err(ApiError::bad(format!(
                "save path {path:?} {why}; give a path such as scenarios/session.toml, relative to the folder turnspec serve runs in"
            )))
        };
        if path.is_empty() {
            return refuse("is empty");
        }
        if path.len() > MAX_PATH {
            return refuse("is too long");
        }
        if path.chars().any(|c| c.is_control() || c == '\\') {
            return refuse("has a control character or a backslash");
        }
        if path.starts_with('/') {
            return refuse("must be relative, without `..`");
        }
        let mut names = Vec::new();
        for name in path.split('/') {
            if name.is_empty() || name == "." || name == ".." {
                return refuse("must be relative, without `..`");
            }
            if name.starts_with('.') {
                return refuse("has a name starting with `.`");
            }
            // Windows prefixes (`C:`) and the like: plain names only.
            if !Path::new(name)
                .components()
                .all(|c| matches!(c, Component::Normal(_)))
            {
                return refuse("must be relative, without `..`");
            }
            names.push(name.to_string());
        }
        if names.len() > MAX_DEPTH + 1 {
            return refuse("has too many folders");
        }
        let Some(file) = names.pop() else {
            return refuse("is empty");
        };
        if Path::new(&file).extension().and_then(|e| e.to_str()) != Some("toml") {
            return refuse("must end in .toml");
        }
        Ok(RelPath {
            folders: names,
            file,
        })
    }

    /// The folders, outermost first.
    pub fn folders(&self) -> &[String] {
        &self.folders
    }

    /// The file's name.
    pub fn file(&self) -> &str {
        &self.file
    }

    /// `a/b`: the folders joined with `/` (empty at the top).
    pub fn folder(&self) -> String {
        self.folders.join("/")
    }

    /// A file named `name` in the same folder.
    pub fn sibling(&self, name: &str) -> Result<RelPath, ApiError> {
        let folder = self.folder();
        if folder.is_empty() {
            RelPath::parse(name)
        } else {
            RelPath::parse(&format!("{folder}/{name}"))
        }
    }

    /// `rel` (as written in a file in `folder`, possibly with `..`) as a
    /// path under the folder, if it stays under it.
    pub fn resolve(folder: &str, rel: &str) -> Result<RelPath, ApiError> {
        let mut names: Vec<&str> = folder.split('/').filter(|n| !n.is_empty()).collect();
        for name in rel.split('/') {
            match name {
                "" | "." => {}
                ".." => {
                    if names.pop().is_none() {
                        return Err(ApiError::bad(format!(
                            "{rel:?} from {folder:?} leads out of the folder the workbench serves"
                        )));
                    }
                }
                n => names.push(n),
            }
        }
        RelPath::parse(&names.join("/"))
    }
}

impl std::fmt::Display for RelPath {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for folder in &self.folders {
            write!(f, "{folder}/")?;
        }
        f.write_str(&self.file)
    }
}

/// Where the workbench keeps files. Implementations enforce what their
/// medium needs (no links for [`Folder`], bounds for [`MemoryFiles`]);
/// the rules shared by every kind of save are in [`check_save`].
pub trait Files: Send + Sync + std::fmt::Debug {
    /// The text of the file at `path`; `None` when there is none. A file
    /// over [`MAX_FILE`] bytes, or one reached through a link, is an error.
    fn read(&self, path: &RelPath) -> Result<Option<String>, ApiError>;
    /// Writes `text` at `path`, creating its folders. `replace`: a file is
    /// there and is to be replaced (in one step); otherwise a file that
    /// turns up meanwhile is never replaced.
    fn write(&self, path: &RelPath, text: &str, replace: bool) -> Result<(), ApiError>;
    /// The `.toml` files under the folder, at most [`MAX_WALK`], at most
    /// [`MAX_DEPTH`] folders deep, without following links or entering
    /// hidden folders (nor, on a disk, `target` and `node_modules`), looking
    /// at no more than [`MAX_WALK_ENTRIES`] entries; sorted.
    fn list(&self) -> Result<Vec<RelPath>, ApiError>;
    /// The folder itself, as an absolute path ([`MemoryFiles`]: `/`).
    fn root(&self) -> Result<PathBuf, ApiError>;
    /// Where `path` (relative to the folder, or absolute) is, as an
    /// absolute path without links or `..`, if it is anywhere: two paths
    /// name the same file when they locate to the same place.
    fn locate(&self, path: &Path) -> Option<PathBuf>;
}

/// What kind of file a save writes: an existing file is replaced only by
/// one of the same kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A scenario file (`[scenario]`).
    Scenario,
    /// A stop profile file (`[profile]`).
    Profile,
    /// A spec file (neither of the others).
    Spec,
}

impl Kind {
    fn is(self, text: &str) -> bool {
        let has = |header: &str| text.lines().any(|l| l.trim() == header);
        match self {
            Kind::Scenario => has("[scenario]"),
            Kind::Profile => has("[profile]"),
            Kind::Spec => !has("[scenario]") && !has("[profile]"),
        }
    }

    fn what(self) -> &'static str {
        match self {
            Kind::Scenario => "a scenario file; overwrite replaces only scenarios",
            Kind::Profile => "a stop profile file; overwrite replaces only stop profiles there",
            Kind::Spec => "a spec file; overwrite replaces only specs",
        }
    }
}

/// A save to check ([`check_save`]).
#[derive(Debug, Clone, Copy)]
pub struct Save<'a> {
    /// Where it goes.
    pub path: &'a RelPath,
    /// The text's length in bytes (0 when not known yet: the write checks
    /// it again).
    pub len: usize,
    /// Whether an existing file may be replaced.
    pub overwrite: bool,
    /// What kind of file it is.
    pub kind: Kind,
}

/// Checks a save before anything is written: the text's size; an existing
/// file only with `overwrite`, only by a file of its kind, and (for
/// scenarios and profiles) never one of `served`, the located spec files
/// on offer. Answers whether a file is there to replace.
pub fn check_save(
    files: &dyn Files,
    save: &Save<'_>,
    served: &[PathBuf],
) -> Result<bool, ApiError> {
    let Save {
        path,
        len: text_len,
        overwrite,
        kind,
    } = *save;
    if text_len > MAX_FILE {
        return Err(ApiError::too_much(format!(
            "{path}: {text_len} bytes; the workbench writes files of at most {MAX_FILE} bytes"
        )));
    }
    let Some(existing) = files.read(path)? else {
        return Ok(false);
    };
    if !overwrite {
        return Err(ApiError::bad(format!(
            "{path} exists; tick overwrite to replace it"
        )));
    }
    if kind != Kind::Spec {
        let at = files.locate(Path::new(&path.to_string()));
        if at.is_some() && served.iter().any(|s| Some(s) == at.as_ref()) {
            return Err(ApiError::bad(format!(
                "{path} is a spec the workbench serves; it never replaces one"
            )));
        }
    }
    if !kind.is(&existing) {
        return Err(ApiError::bad(format!("{path} is not {}", kind.what())));
    }
    Ok(true)
}

/// `to` written relative to the folder `from` (both absolute), with `/`.
pub fn relative(from: &Path, to: &Path) -> String {
    let a: Vec<Component<'_>> = from.components().collect();
    let b: Vec<Component<'_>> = to.components().collect();
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut parts: Vec<String> = vec!["..".into(); a.len() - common];
    parts.extend(
        b[common..]
            .iter()
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    parts.join("/")
}

/// `path` as a [`RelPath`] under `files`' folder, if it is under it.
pub fn under_root(files: &dyn Files, path: &Path) -> Option<RelPath> {
    let root = files.root().ok()?;
    let at = files.locate(path)?;
    let rest = at.strip_prefix(&root).ok()?;
    let names: Vec<String> = rest
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    RelPath::parse(&names.join("/")).ok()
}

/// The folder `turnspec serve` runs in.
#[derive(Debug)]
pub struct Folder {
    root: PathBuf,
}

/// Folders the scenario search does not enter: build output, never
/// scenarios, and often large.
const SKIPPED: [&str; 2] = ["target", "node_modules"];

/// A walk in progress: what it found, and how many more entries it may
/// look at.
struct Walk {
    found: Vec<RelPath>,
    budget: usize,
}

/// Numbers the temporary files of replacing saves.
static TEMP: AtomicU64 = AtomicU64::new(0);

fn link_refusal(shown: &RelPath, part: &str) -> ApiError {
    ApiError::bad(format!(
        "{shown}: `{part}` is a symbolic link; the workbench saves only into plain folders under the one it serves"
    ))
}

impl Folder {
    /// The files under `root`.
    pub fn new(root: impl Into<PathBuf>) -> Folder {
        Folder { root: root.into() }
    }

    /// The folder the file goes in, and the index of its first folder that
    /// does not exist yet, if any; refuses a folder that is a link or a
    /// file.
    fn walk(&self, root: &Path, path: &RelPath) -> Result<(PathBuf, Option<usize>), ApiError> {
        let mut folder = root.to_path_buf();
        for (i, part) in path.folders.iter().enumerate() {
            folder.push(part);
            match std::fs::symlink_metadata(&folder) {
                Ok(m) if m.file_type().is_symlink() => return Err(link_refusal(path, part)),
                Ok(m) if m.is_dir() => {}
                Ok(_) => {
                    return Err(ApiError::bad(format!(
                        "{path}: `{part}` is a file, not a folder"
                    )));
                }
                Err(_) => {
                    let mut rest = folder;
                    for part in &path.folders[i + 1..] {
                        rest.push(part);
                    }
                    return Ok((rest, Some(i)));
                }
            }
        }
        Ok((folder, None))
    }

    /// Adds the `.toml` files under `dir` to `walk.found`, looking at no
    /// more than `walk.budget` entries in all.
    fn walk_into(&self, dir: &Path, prefix: &mut Vec<String>, walk: &mut Walk) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        let mut names: Vec<(String, std::fs::FileType)> = Vec::new();
        for entry in entries {
            if walk.budget == 0 {
                break;
            }
            walk.budget -= 1;
            let Ok(entry) = entry else { continue };
            if let (Ok(name), Ok(kind)) = (entry.file_name().into_string(), entry.file_type()) {
                names.push((name, kind));
            }
        }
        names.retain(|(n, _)| !n.starts_with('.'));
        names.sort_by(|a, b| a.0.cmp(&b.0));
        for (name, kind) in names {
            if walk.found.len() >= MAX_WALK {
                return;
            }
            if kind.is_dir() && prefix.len() < MAX_DEPTH && !SKIPPED.contains(&name.as_str()) {
                prefix.push(name.clone());
                self.walk_into(&dir.join(&name), prefix, walk);
                prefix.pop();
            } else if kind.is_file() && name.ends_with(".toml") {
                let mut p = prefix.join("/");
                if !p.is_empty() {
                    p.push('/');
                }
                p.push_str(&name);
                if let Ok(rel) = RelPath::parse(&p) {
                    walk.found.push(rel);
                }
            }
        }
    }
}

impl Files for Folder {
    fn read(&self, path: &RelPath) -> Result<Option<String>, ApiError> {
        let root = self.root()?;
        let (folder, missing) = self.walk(&root, path)?;
        if missing.is_some() {
            return Ok(None);
        }
        let file = folder.join(&path.file);
        match std::fs::symlink_metadata(&file) {
            Ok(m) if m.file_type().is_symlink() => Err(link_refusal(path, &path.file)),
            Ok(m) if !m.is_file() => Err(ApiError::bad(format!("{path} exists and is not a file"))),
            Ok(m) if m.len() > MAX_FILE as u64 => Err(ApiError::too_much(format!(
                "{path} is over {MAX_FILE} bytes, the most the workbench reads"
            ))),
            Ok(_) => std::fs::read_to_string(&file)
                .map(Some)
                .map_err(|e| ApiError::bad(format!("cannot read {path}: {}", e.kind()))),
            Err(_) => Ok(None),
        }
    }

    /// Creates the missing folders one by one (never through a link) and
    /// writes the file: as a new file, or (replacing) as a new file beside
    /// it renamed over it, so a link put there meanwhile is replaced, not
    /// followed.
    fn write(&self, path: &RelPath, text: &str, replace: bool) -> Result<(), ApiError> {
        let fail = |what: &str, e: std::io::Error| {
            ApiError::bad(format!("cannot {what} {path}: {}", e.kind()))
        };
        if text.len() > MAX_FILE {
            return Err(ApiError::too_much(format!(
                "{path}: the workbench writes files of at most {MAX_FILE} bytes"
            )));
        }
        let root = self.root()?;
        let (folder, missing) = self.walk(&root, path)?;
        if let Some(from) = missing {
            let mut dir = root.clone();
            for (i, part) in path.folders.iter().enumerate() {
                dir.push(part);
                if i < from {
                    continue;
                }
                if let Err(e) = std::fs::create_dir(&dir)
                    && e.kind() != std::io::ErrorKind::AlreadyExists
                {
                    return Err(fail("create the folders of", e));
                }
                match std::fs::symlink_metadata(&dir) {
                    Ok(m) if m.is_dir() && !m.file_type().is_symlink() => {}
                    _ => return Err(link_refusal(path, part)),
                }
            }
        }
        let new_file = |at: &Path| -> std::io::Result<()> {
            let mut f = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(at)?;
            std::io::Write::write_all(&mut f, text.as_bytes())
        };
        let file = folder.join(&path.file);
        if !replace {
            return new_file(&file).map_err(|e| {
                if e.kind() == std::io::ErrorKind::AlreadyExists {
                    ApiError::bad(format!("{path} exists; tick overwrite to replace it"))
                } else {
                    fail("write", e)
                }
            });
        }
        // A fresh name beside the file: never an existing file or link.
        let mut tries = 0;
        let temp = loop {
            let n = TEMP.fetch_add(1, Ordering::Relaxed);
            let temp = folder.join(format!(".{}.{n}.part", path.file));
            match new_file(&temp) {
                Ok(()) => break temp,
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && tries < 16 => {
                    tries += 1;
                }
                Err(e) => return Err(fail("write", e)),
            }
        };
        std::fs::rename(&temp, &file).map_err(|e| {
            let _ = std::fs::remove_file(&temp);
            fail("replace", e)
        })
    }

    fn list(&self) -> Result<Vec<RelPath>, ApiError> {
        let root = self.root()?;
        let mut walk = Walk {
            found: Vec::new(),
            budget: MAX_WALK_ENTRIES,
        };
        self.walk_into(&root, &mut Vec::new(), &mut walk);
        walk.found.sort();
        Ok(walk.found)
    }

    fn root(&self) -> Result<PathBuf, ApiError> {
        self.root
            .canonicalize()
            .map_err(|e| ApiError::bad(format!("cannot find the served folder: {}", e.kind())))
    }

    fn locate(&self, path: &Path) -> Option<PathBuf> {
        self.root.join(path).canonicalize().ok()
    }
}

/// Files kept in memory, by path: what the page built for WebAssembly
/// saves into (and keeps in the browser's storage). At most
/// [`MAX_MEMORY_FILES`] files of [`MAX_MEMORY_BYTES`] bytes together.
#[derive(Debug, Default)]
pub struct MemoryFiles {
    files: Mutex<BTreeMap<String, String>>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl MemoryFiles {
    /// No files.
    pub fn new() -> Self {
        Self::default()
    }

    /// The files of `map` (path to text), as saved by [`MemoryFiles::to_map`];
    /// paths a save could not make and files past the bounds are left out.
    pub fn from_map(map: BTreeMap<String, String>) -> Self {
        let files = MemoryFiles::new();
        for (path, text) in map {
            if let Ok(p) = RelPath::parse(&path) {
                let _ = files.write(&p, &text, true);
            }
        }
        files
    }

    /// Every file, path to text.
    pub fn to_map(&self) -> BTreeMap<String, String> {
        lock(&self.files).clone()
    }
}

impl Files for MemoryFiles {
    fn read(&self, path: &RelPath) -> Result<Option<String>, ApiError> {
        Ok(lock(&self.files).get(&path.to_string()).cloned())
    }

    fn write(&self, path: &RelPath, text: &str, replace: bool) -> Result<(), ApiError> {
        if text.len() > MAX_FILE {
            return Err(ApiError::too_much(format!(
                "{path}: the workbench writes files of at most {MAX_FILE} bytes"
            )));
        }
        let key = path.to_string();
        let mut files = lock(&self.files);
        let old = files.get(&key).map_or(0, String::len);
        if old > 0 || files.contains_key(&key) {
            if !replace {
                return Err(ApiError::bad(format!(
                    "{path} exists; tick overwrite to replace it"
                )));
            }
        } else if files.len() >= MAX_MEMORY_FILES {
            return Err(ApiError::too_much(format!(
                "the workbench keeps at most {MAX_MEMORY_FILES} files; remove some first"
            )));
        }
        // A folder and a file may not share a name, as on a disk.
        let clash = files.keys().any(|k| {
            k.strip_prefix(key.as_str())
                .is_some_and(|r| r.starts_with('/'))
                || key
                    .strip_prefix(k.as_str())
                    .is_some_and(|r| r.starts_with('/'))
        });
        if clash {
            return Err(ApiError::bad(format!(
                "{path}: a file and a folder of the same name"
            )));
        }
        let total: usize = files.values().map(String::len).sum::<usize>() - old + text.len();
        if total > MAX_MEMORY_BYTES {
            return Err(ApiError::too_much(format!(
                "the workbench keeps at most {MAX_MEMORY_BYTES} bytes of files; remove some first"
            )));
        }
        files.insert(key, text.to_string());
        Ok(())
    }

    fn list(&self) -> Result<Vec<RelPath>, ApiError> {
        Ok(lock(&self.files)
            .keys()
            .filter_map(|k| RelPath::parse(k).ok())
            .take(MAX_WALK)
            .collect())
    }

    fn root(&self) -> Result<PathBuf, ApiError> {
        Ok(PathBuf::from("/"))
    }

    fn locate(&self, path: &Path) -> Option<PathBuf> {
        let text = path.to_str()?;
        let rel = RelPath::resolve("", text.trim_start_matches('/')).ok()?;
        Some(Path::new("/").join(rel.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_climb_then_descend() {
        assert_eq!(
            relative(Path::new("/a/b/c"), Path::new("/a/games/x.toml")),
            "../../games/x.toml"
        );
        assert_eq!(relative(Path::new("/a"), Path::new("/a/x.toml")), "x.toml");
    }

    #[test]
    fn save_paths_are_plain_relative_toml_names() {
        for bad in [
            "",
            "../x.toml",
            "/etc/x.toml",
            "a/x.txt",
            "a/../x.toml",
            "./x.toml",
            ".hidden.toml",
            "a/.git/x.toml",
            "a\\x.toml",
            "a\nb.toml",
            "a//x.toml",
            "a/b/c/d/e/f/g/h/i/j/x.toml",
        ] {
            assert!(RelPath::parse(bad).is_err(), "{bad:?}");
        }
        let p = RelPath::parse("a/b/x.toml").unwrap();
        assert_eq!(p.folders(), ["a".to_string(), "b".to_string()]);
        assert_eq!(p.file(), "x.toml");
        assert_eq!(p.to_string(), "a/b/x.toml");
        assert!(RelPath::parse(&format!("{}.toml", "a/".repeat(1000))).is_err());
    }

    #[test]
    fn paths_resolve_without_leaving_the_folder() {
        assert_eq!(
            RelPath::resolve("games", "mtg.toml").unwrap().to_string(),
            "games/mtg.toml"
        );
        assert_eq!(
            RelPath::resolve("tests/x", "../../games/mtg.toml")
                .unwrap()
                .to_string(),
            "games/mtg.toml"
        );
        assert!(RelPath::resolve("games", "../../x.toml").is_err());
    }

    #[test]
    fn memory_files_are_bounded_and_never_replaced_unasked() {
        let m = MemoryFiles::new();
        let p = RelPath::parse("a/x.toml").unwrap();
        m.write(&p, "one", false).unwrap();
        assert!(m.write(&p, "two", false).is_err());
        m.write(&p, "two", true).unwrap();
        assert_eq!(m.read(&p).unwrap().as_deref(), Some("two"));
        assert!(
            m.write(&RelPath::parse("a.toml").unwrap(), "", false)
                .is_ok()
        );
        assert!(
            m.write(&RelPath::parse("a/x.toml/y.toml").unwrap(), "", false)
                .is_err()
        );
        assert!(m.write(&p, &"x".repeat(MAX_FILE + 1), true).is_err());
        for i in 0..MAX_MEMORY_FILES + 1 {
            let _ = m.write(&RelPath::parse(&format!("f{i}.toml")).unwrap(), "x", false);
        }
        assert!(m.to_map().len() <= MAX_MEMORY_FILES);
        assert_eq!(
            m.locate(Path::new("a/../b/x.toml")),
            Some(PathBuf::from("/b/x.toml"))
        );
    }
}
