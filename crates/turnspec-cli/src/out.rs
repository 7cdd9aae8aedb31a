//! Every byte the CLI writes goes through here, so a write that fails is
//! neither lost silently nor a panic (`println!` and `eprintln!` panic when
//! the write fails).
//!
//! The first failed write on each stream is remembered and nothing more is
//! written to that stream. When the command is done, [`exit_code`] turns a
//! failure into exit code 2 with a message. One failure is not an error: a
//! reader that closed the pipe early (`turnspec run | head`) ends the output
//! of a streaming command (`run`, `test`) quietly, and the command's own exit
//! code stands (`test` still exits 1 if a scenario failed).

use std::io::{self, Write};
use std::process::ExitCode;
use std::sync::Mutex;

/// One of the two output streams.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Stream {
    Stdout,
    Stderr,
}

impl Stream {
    fn index(self) -> usize {
        self as usize
    }

    fn name(self) -> &'static str {
        match self {
            Stream::Stdout => "standard output",
            Stream::Stderr => "standard error",
        }
    }
}

/// The first failed write on each stream: its kind and message.
static FAILED: Mutex<[Option<(io::ErrorKind, String)>; 2]> = Mutex::new([None, None]);

fn failures() -> [Option<(io::ErrorKind, String)>; 2] {
    FAILED.lock().unwrap_or_else(|e| e.into_inner()).clone()
}

/// Records a failed write made outside this module (`run`'s buffered
/// writer, clap's help); later writes to that stream are skipped.
pub fn failed(stream: Stream, e: &io::Error) {
    let mut failed = FAILED.lock().unwrap_or_else(|e| e.into_inner());
    let slot = &mut failed[stream.index()];
    if slot.is_none() {
        *slot = Some((e.kind(), e.to_string()));
    }
}

/// Whether writes to `stream` still go through.
pub fn open(stream: Stream) -> bool {
    failures()[stream.index()].is_none()
}

fn write(stream: Stream, text: &str) {
    if !open(stream) {
        return;
    }
    let result = match stream {
        Stream::Stdout => {
            let mut out = io::stdout().lock();
            out.write_all(text.as_bytes()).and_then(|_| out.flush())
        }
        Stream::Stderr => {
            let mut err = io::stderr().lock();
            err.write_all(text.as_bytes()).and_then(|_| err.flush())
        }
    };
    if let Err(e) = result {
        failed(stream, &e);
    }
}

/// Writes `text` to standard output.
pub fn print(text: &str) {
    write(Stream::Stdout, text);
}

/// [`print()`] with a newline.
pub fn println(text: &str) {
    print(&format!("{text}\n"));
}

/// Writes `text` to standard error.
pub fn eprint(text: &str) {
    write(Stream::Stderr, text);
}

/// [`eprint()`] with a newline.
pub fn eprintln(text: &str) {
    eprint(&format!("{text}\n"));
}

/// `Some(2)` if a write failed in a way that is an error for this command
/// (after saying so on standard error, if it still works).
fn failure_code(streaming: bool) -> Option<u8> {
    let mut code = None;
    for (stream, failure) in [Stream::Stdout, Stream::Stderr].into_iter().zip(failures()) {
        let Some((kind, message)) = failure else {
            continue;
        };
        if kind == io::ErrorKind::BrokenPipe {
            // The reader has gone: nothing to tell it, and for a streaming
            // command nothing wrong.
            if !streaming {
                code = Some(2);
            }
            continue;
        }
        eprintln(&format!(
            "error: cannot write to {}: {message}",
            stream.name()
        ));
        code = Some(2);
    }
    code
}

/// The program's exit code: the command's own `code` if every write went
/// through (or only the pipe of a `streaming` command closed), else 2.
pub fn exit_code(code: ExitCode, streaming: bool) -> ExitCode {
    match failure_code(streaming) {
        Some(failure) => ExitCode::from(failure),
        None => code,
    }
}

/// Ends a streaming command at once after its output failed: quietly with 0
/// if the reader closed the pipe, else with [`exit_code`]'s 2.
pub fn end_streaming() -> ! {
    std::process::exit(failure_code(true).map_or(0, i32::from))
}

/// `-q` / `-v`, set once from the command line: how much a verb prints
/// besides its result (docs/cli.md, "Conventions").
static LEVEL: Mutex<(bool, u8)> = Mutex::new((false, 0));

/// Records the global `-q` and `-v` flags.
pub fn set_level(quiet: bool, verbose: u8) {
    *LEVEL.lock().unwrap_or_else(|e| e.into_inner()) = (quiet, verbose);
}

/// `-q`: print results and problems only.
pub fn quiet() -> bool {
    LEVEL.lock().unwrap_or_else(|e| e.into_inner()).0
}

/// `-v` (given n times): print more detail.
pub fn verbose() -> u8 {
    LEVEL.lock().unwrap_or_else(|e| e.into_inner()).1
}
