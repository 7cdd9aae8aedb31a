//! The bounds on what one request may ask of the workbench, so that no
//! request holds the server for long or makes it grow without end. Each
//! is a 4xx answer with a sentence, never a stall.

use crate::api::ApiError;
use crate::session::Move;

/// Bytes in one request body (axum's own default is 2 MB).
pub const MAX_BODY: usize = 256 * 1024;
/// Moves in one game: replayed by `POST /api/play` or a saved scenario,
/// or kept by an open game ([`crate::sessions`]).
pub const MAX_MOVES: usize = 2_000;
/// Trace events of one side in one answer.
pub const MAX_TRACE: usize = 10_000;
/// Characters in a label (what is played, a trigger's name).
pub const MAX_LABEL: usize = 100;
/// Triggers one host answer may report.
pub const MAX_TRIGGERS: usize = 16;
/// Objects in play at once in one game (`enter` past it is refused,
/// `too_many_objects`): below the engine's own `MAX_OBJECTS`, so each
/// answer's list of objects, and the legal plays named by each, stay small.
pub const MAX_OBJECTS: usize = 64;
/// Games the server keeps open at once; past it the one idle longest is
/// closed (its page reopens it from its moves).
pub const MAX_SESSIONS: usize = 128;
/// An open game unused this long (milliseconds of the clock the caller
/// gives [`crate::Workbench::handle`]) is closed.
pub const IDLE_MS: u64 = 30 * 60 * 1000;
/// Stop markers (and `anywhere` conditions) of all players in one game.
pub const MAX_STOP_MARKERS: usize = 512;
/// `pass_to_stop` moves in one request that may pass [`MAX_TRACE`] times
/// without anyone being asked (each is refused, `pass_limit`, and changes
/// nothing, so the trace bound does not count its passes).
pub const MAX_PASS_LIMITS: u32 = 2;
/// Bytes in a save path, and folders in it.
pub const MAX_PATH: usize = 200;
/// Folders in a save path, and how deep the scenario search goes.
pub const MAX_DEPTH: usize = 8;
/// Bytes in a spec text sent to be checked, compared, drafted or saved,
/// and in a spec and its bases together.
pub const MAX_SOURCE: usize = 128 * 1024;
/// Bytes in one file the workbench reads or writes (a long session saved
/// as a scenario is the largest).
pub const MAX_FILE: usize = 2 * 1024 * 1024;
/// Files kept by [`crate::files::MemoryFiles`].
pub const MAX_MEMORY_FILES: usize = 256;
/// Bytes of all files kept by [`crate::files::MemoryFiles`] together.
pub const MAX_MEMORY_BYTES: usize = 8 * 1024 * 1024;
/// Files the scenario search looks at (`POST /api/specs/{i}/scenarios`).
pub const MAX_WALK: usize = 2_000;
/// Folder entries the scenario search looks at, files and folders alike.
pub const MAX_WALK_ENTRIES: usize = 50_000;
/// Scenarios one `POST /api/specs/{i}/scenarios` runs.
pub const MAX_RUNS: usize = 500;
/// Drafts (specs played without saving) kept at once; past it a new draft
/// replaces the oldest.
pub const MAX_DRAFTS: usize = 8;
/// Specs on offer, drafts included (saving new specs stops past it).
pub const MAX_SPECS: usize = 256;

/// Refuses more than [`MAX_MOVES`] moves.
pub(crate) fn check_moves(moves: &[Move]) -> Result<(), ApiError> {
    if moves.len() > MAX_MOVES {
        return Err(ApiError::too_much(format!(
            "{} moves; a game in the workbench holds at most {MAX_MOVES}",
            moves.len()
        )));
    }
    Ok(())
}

/// Refuses a request whose `pass_to_stop` moves reached the pass limit
/// more than [`MAX_PASS_LIMITS`] times.
pub(crate) fn check_pass_limits(hits: u32) -> Result<(), ApiError> {
    if hits > MAX_PASS_LIMITS {
        return Err(ApiError::too_much(format!(
            "{hits} pass_to_stop moves passed {MAX_TRACE} times without anyone being asked; at most {MAX_PASS_LIMITS} in one request"
        )));
    }
    Ok(())
}

/// Refuses a trace longer than [`MAX_TRACE`] events.
pub(crate) fn check_trace(events: usize) -> Result<(), ApiError> {
    if events > MAX_TRACE {
        return Err(ApiError::too_much(format!(
            "the trace has grown past {MAX_TRACE} events, more than one answer carries"
        )));
    }
    Ok(())
}

/// Why a label cannot be written into a scenario as it stands, if it
/// cannot: it must be one line of printable text without spaces at either
/// end, two in a row or other kinds of space (a trace line is compared
/// word by word), and be at most
/// [`MAX_LABEL`] characters. `empty_ok` for a play, whose label may be
/// left out.
pub fn label_problem(label: &str, empty_ok: bool) -> Option<String> {
    let problem = if label.is_empty() {
        (!empty_ok).then_some("must not be empty")
    } else if label.chars().count() > MAX_LABEL {
        Some("is longer than 100 characters")
    } else if label.chars().any(char::is_control) {
        Some("has a tab, line break or other control character")
    } else if label.starts_with(char::is_whitespace) || label.ends_with(char::is_whitespace) {
        Some("starts or ends with a space")
    } else if label.contains("  ") || label.chars().any(|c| c.is_whitespace() && c != ' ') {
        Some("has two spaces in a row, or a space other than the plain one")
    } else {
        None
    };
    problem.map(|p| format!("the label {label:?} {p}"))
}
