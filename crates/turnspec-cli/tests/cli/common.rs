//! Running the `turnspec` binary from the workspace root, shared by the CLI
//! test files.

#![allow(dead_code)]

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The workspace root: commands run there so paths in messages are short.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

pub fn turnspec(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_turnspec"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("the turnspec binary runs")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Fails if the binary panicked (message or Rust's exit code 101).
pub fn assert_no_panic(o: &Output) {
    let err = stderr(o);
    assert!(!err.contains("panicked"), "the binary panicked:\n{err}");
    assert_ne!(o.status.code(), Some(101), "stderr:\n{err}");
}

/// The binary exited with `code` and did not panic.
pub fn assert_exit(o: &Output, code: i32) {
    assert_no_panic(o);
    assert_eq!(o.status.code(), Some(code), "stderr:\n{}", stderr(o));
}

/// The binary exited with `code`, did not panic, and its standard error
/// says `says`.
pub fn assert_exit_saying(o: &Output, code: i32, says: &str) {
    assert_exit(o, code);
    let err = stderr(o);
    assert!(err.contains(says), "stderr lacks {says:?}:\n{err}");
}

/// The binary failed as it should (exit 1 or 2) and did not panic; `what`
/// names the run in the message.
pub fn assert_fails_without_panic(o: &Output, what: &str) {
    assert_no_panic(o);
    assert!(
        matches!(o.status.code(), Some(1 | 2)),
        "{what}exit {:?}",
        o.status.code()
    );
}

/// Runs the binary with the given standard output and error, and kills it
/// (failing the test) if it has not finished within `seconds`: for inputs
/// that used to make it hang.
pub fn turnspec_with(args: &[&str], out: Stdio, err: Stdio, seconds: u64) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_turnspec"))
        .args(args)
        .current_dir(root())
        .stdin(Stdio::null())
        .stdout(out)
        .stderr(err)
        .spawn()
        .expect("the turnspec binary runs");
    // Read both pipes while waiting, so a long output cannot block the child.
    fn drain(pipe: Option<impl Read + Send + 'static>) -> std::thread::JoinHandle<Vec<u8>> {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut bytes);
            }
            bytes
        })
    }
    let out = drain(child.stdout.take());
    let err = drain(child.stderr.take());
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for turnspec") {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("turnspec {args:?} did not finish within {seconds} s");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    Output {
        status,
        stdout: out.join().expect("stdout read"),
        stderr: err.join().expect("stderr read"),
    }
}

/// [`turnspec_with`] capturing both streams.
pub fn turnspec_within(args: &[&str], seconds: u64) -> Output {
    turnspec_with(args, Stdio::piped(), Stdio::piped(), seconds)
}

/// A file that refuses every write: "No space left on device".
pub fn full_disk() -> Stdio {
    Stdio::from(File::create("/dev/full").expect("/dev/full can be opened"))
}

/// The writing end of a pipe whose reader has already gone, as after
/// `turnspec ... | head` once `head` has read enough. Made by giving a pipe
/// to a process that exits at once without reading it.
pub fn closed_pipe() -> Stdio {
    let mut reader = Command::new(env!("CARGO_BIN_EXE_turnspec"))
        .arg("--version")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the turnspec binary runs");
    let writer = reader.stdin.take().expect("a pipe");
    reader.wait().expect("it exits");
    Stdio::from(writer)
}

/// A scratch folder in the system temp directory, removed on drop.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(name: &str) -> Self {
        let path =
            std::env::temp_dir().join(format!("turnspec-cli-test-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).expect("create a temp folder");
        TempDir(path)
    }

    pub fn write(&self, name: &str, text: &str) -> PathBuf {
        let path = self.0.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("create a folder");
        }
        std::fs::write(&path, text).expect("write a temp file");
        path
    }

    pub fn arg(&self) -> &str {
        self.0.to_str().expect("temp path is UTF-8")
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A scenario against the reference Magic spec: P1 holds priority at the
/// start, so it passes with `holder = "P1"` and fails with `"P2"`.
pub fn scenario(name: &str, holder: &str) -> String {
    let spec = root().join("games/mtg.toml");
    format!(
        "[scenario]\nname = \"{name}\"\n\n[setup]\nspec = \"{}\"\nplayers = 2\n\n[[script]]\nexpect = {{ holder = \"{holder}\" }}\n",
        spec.display()
    )
}
