//! Running the `turnspec` binary from the workspace root, shared by the CLI
//! test files.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

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
