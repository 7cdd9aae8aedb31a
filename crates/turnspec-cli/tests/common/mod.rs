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
