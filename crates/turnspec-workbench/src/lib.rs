//! The designer's workbench without HTTP: pick a spec, step through turns
//! with every move, see the turn diagram, the stack, counters, facts and
//! the trace with rule citations, go back to any earlier point, play a
//! second spec side by side, save the session as a scenario, and (the
//! studio) check, compare, draft, save and test a spec being edited.
//!
//! Every request goes through one function, [`Workbench::handle`]: a
//! method, a path under `/api/`, a JSON body and the time. `turnspec
//! serve` (crates/turnspec-serve) forwards every `/api/` request to it;
//! the page built for WebAssembly calls it directly, with the same paths
//! and JSON. So this crate does no networking, starts no threads and reads
//! no clock: the time comes with each request, and files are reached only
//! through [`files::Files`] (a folder, or texts in memory).
//!
//! - [`route`]: the one dispatch, request path to function;
//! - [`api`]: replaying a session, the specs on offer;
//! - [`sessions`]: the open games;
//! - [`session`]: moves and their replay under a spec;
//! - [`scenario`]: a session written as a scenario file and checked;
//! - [`studio`]: the spec editor's routes (check, diff, draft, save, test);
//! - [`catalog`]: the specs on offer and their diagrams;
//! - [`files`]: where files are read and written, and the rules of saving;
//! - [`record`]: recorded runs and their replay under another spec;
//! - [`limits`]: the bound on everything a request may ask.

#![warn(missing_docs, unreachable_pub)]

pub mod api;
pub mod catalog;
pub mod files;
pub mod limits;
pub mod record;
pub mod route;
pub mod scenario;
pub mod session;
pub mod sessions;
pub mod studio;
pub mod svg;

use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};

pub use api::{ApiError, PlayRequest, Setup, StopMarker};
pub use catalog::SpecEntry;
pub use files::{Files, Folder, MemoryFiles, RelPath};
pub use scenario::SaveRequest;
pub use session::{Move, Refusal};
pub use sessions::{OpenRequest, SaveOpenRequest, Sessions};

/// The specs on offer (drafts included), where files are kept, and the
/// open games.
#[derive(Debug)]
pub struct Workbench {
    catalog: Mutex<Catalog>,
    files: Arc<dyn Files>,
    /// The open games.
    pub sessions: Sessions,
}

/// The specs, and which of them are drafts.
#[derive(Debug, Default)]
struct Catalog {
    specs: Vec<SpecEntry>,
    /// Draft slots: the spec index, the spec it is a draft of, and when it
    /// was made (a counter), oldest replaced first.
    drafts: Vec<Draft>,
    made: u64,
    /// Scenarios saved through this workbench, run with their spec's.
    saved: Vec<RelPath>,
}

#[derive(Debug, Clone, Copy)]
struct Draft {
    index: usize,
    base: Option<usize>,
    made: u64,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Workbench {
    /// A workbench offering `specs` and keeping files in the folder
    /// `save_root`, with no game open.
    pub fn new(specs: Vec<SpecEntry>, save_root: PathBuf) -> Self {
        Self::with_files(specs, Arc::new(Folder::new(save_root)))
    }

    /// A workbench offering `specs` and keeping files in `files`.
    pub fn with_files(specs: Vec<SpecEntry>, files: Arc<dyn Files>) -> Self {
        Workbench {
            catalog: Mutex::new(Catalog {
                specs,
                ..Catalog::default()
            }),
            files,
            sessions: Sessions::default(),
        }
    }

    /// The same, making game ids with `key` ([`Sessions::with_key`]): a
    /// server gives a random one.
    pub fn with_session_key(mut self, key: u128) -> Self {
        self.sessions = Sessions::with_key(key);
        self
    }

    /// The specs on offer now, in the order the page lists them.
    pub fn specs(&self) -> Vec<SpecEntry> {
        lock(&self.catalog).specs.clone()
    }

    /// The specs, to change before the workbench is shared.
    pub fn specs_mut(&mut self) -> &mut Vec<SpecEntry> {
        &mut self
            .catalog
            .get_mut()
            .unwrap_or_else(|e| e.into_inner())
            .specs
    }

    /// Where files are kept.
    pub fn files(&self) -> &dyn Files {
        &*self.files
    }

    /// The spec files on offer, located: a scenario save never replaces
    /// one.
    pub(crate) fn served(&self) -> Vec<PathBuf> {
        self.specs()
            .iter()
            .filter_map(|s| s.path.as_deref().and_then(|p| self.files.locate(p)))
            .collect()
    }

    /// Notes a scenario saved in this session (the most recent
    /// [`limits::MAX_RUNS`]).
    pub(crate) fn remember_scenario(&self, path: &RelPath) {
        let mut c = lock(&self.catalog);
        if !c.saved.contains(path) {
            if c.saved.len() >= limits::MAX_RUNS {
                c.saved.remove(0);
            }
            c.saved.push(path.clone());
        }
    }

    pub(crate) fn saved_scenarios(&self) -> Vec<RelPath> {
        lock(&self.catalog).saved.clone()
    }

    /// Registers a draft of `base` (or of no spec): it replaces the draft
    /// of the same base, else takes a free slot, else the oldest draft's.
    /// Answers its index.
    pub(crate) fn add_draft(&self, base: Option<usize>, mut entry: SpecEntry) -> usize {
        entry.draft = true;
        let mut c = lock(&self.catalog);
        c.made += 1;
        let made = c.made;
        let slot = c.drafts.iter().position(|d| d.base == base).or_else(|| {
            (c.drafts.len() >= limits::MAX_DRAFTS)
                .then(|| {
                    c.drafts
                        .iter()
                        .enumerate()
                        .min_by_key(|(_, d)| d.made)
                        .map(|(i, _)| i)
                })
                .flatten()
        });
        match slot {
            Some(i) => {
                let index = c.drafts[i].index;
                c.drafts[i] = Draft { index, base, made };
                c.specs[index] = entry;
                index
            }
            None => {
                let index = c.specs.len();
                c.specs.push(entry);
                c.drafts.push(Draft { index, base, made });
                index
            }
        }
    }

    /// Puts a saved spec on offer: in place of `replace` (the spec it was
    /// edited from, or the one already at its file), else as a new spec.
    pub(crate) fn put_spec(
        &self,
        replace: Option<usize>,
        entry: SpecEntry,
    ) -> Result<usize, ApiError> {
        let mut c = lock(&self.catalog);
        let drafts: Vec<usize> = c.drafts.iter().map(|d| d.index).collect();
        match replace {
            Some(i) if i < c.specs.len() && !drafts.contains(&i) => {
                c.specs[i] = entry;
                Ok(i)
            }
            _ => {
                if c.specs.len() >= limits::MAX_SPECS {
                    return Err(ApiError::too_much(format!(
                        "the workbench offers at most {} specs",
                        limits::MAX_SPECS
                    )));
                }
                c.specs.push(entry);
                Ok(c.specs.len() - 1)
            }
        }
    }
}
