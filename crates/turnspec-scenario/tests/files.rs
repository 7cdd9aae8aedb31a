//! Files that are not what they claim: `extends` bases, specs and scenarios
//! that are devices, named pipes, folders or huge files are refused with the
//! reason, without being read.

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use turnspec_scenario::{MAX_FILE_BYTES, load_spec_file, read_text};

/// A scratch folder in the system temp directory, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> Self {
        let path =
            std::env::temp_dir().join(format!("turnspec-files-test-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).expect("create a temp folder");
        TempDir(path)
    }

    fn write(&self, name: &str, text: &str) -> PathBuf {
        let path = self.0.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("create a folder");
        }
        std::fs::write(&path, text).expect("write a temp file");
        path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A child spec that extends `base` and adds nothing.
fn child_of(base: &str) -> String {
    format!("extends = \"{base}\"\n")
}

/// Loads a spec on another thread; fails the test instead of hanging if
/// loading blocks (as opening a named pipe for reading does).
fn load_within_seconds(path: PathBuf) -> Result<(), String> {
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        let result = load_spec_file(&path)
            .map(|_| ())
            .map_err(|report| report.to_short_text());
        let _ = send.send(result);
    });
    receive
        .recv_timeout(Duration::from_secs(10))
        .expect("loading the spec did not block")
}

// --- reading files that are not spec files -------------------------------------

#[test]
fn extends_of_a_device_is_refused_without_reading_it() {
    let dir = TempDir::new("device");
    let child = dir.write("child.toml", &child_of("/dev/zero"));
    let message = load_within_seconds(child).expect_err("a device is no spec");
    assert!(message.contains("turnspec::extends"), "{message}");
    assert!(
        message.contains("/dev/zero") && message.contains("character device"),
        "{message}"
    );
}

#[cfg(unix)]
#[test]
fn extends_of_a_named_pipe_is_refused_without_blocking() {
    let dir = TempDir::new("fifo");
    let fifo = dir.0.join("base.toml");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("skipped: mkfifo is not available");
        return;
    }
    let child = dir.write("child.toml", &child_of("base.toml"));
    let message = load_within_seconds(child).expect_err("a pipe is no spec");
    assert!(message.contains("named pipe"), "{message}");
}

#[test]
fn extends_of_a_folder_is_refused_with_the_reason() {
    let dir = TempDir::new("folder");
    std::fs::create_dir_all(dir.0.join("base.toml")).expect("a folder");
    let child = dir.write("child.toml", &child_of("base.toml"));
    let message = load_within_seconds(child).expect_err("a folder is no spec");
    assert!(message.contains("it is a folder, not a file"), "{message}");
}

#[test]
fn extends_of_a_file_over_the_size_cap_is_refused_unread() {
    let dir = TempDir::new("huge");
    // Sparse: no disk space used, and it is never read.
    let huge = std::fs::File::create(dir.0.join("base.toml")).expect("create");
    huge.set_len(MAX_FILE_BYTES + 1)
        .expect("grow a sparse file");
    let child = dir.write("child.toml", &child_of("base.toml"));
    let message = load_within_seconds(child).expect_err("too big");
    assert!(message.contains("at most 16 MiB"), "{message}");
}

#[test]
fn extends_chain_over_the_size_cap_together_is_refused() {
    let dir = TempDir::new("chain");
    // Each file under the cap, the two over it together.
    let half = format!(
        "# {}\n[game]\nname = \"Big\"\n",
        "x".repeat(MAX_FILE_BYTES as usize / 2 + 16)
    );
    dir.write("base.toml", &half);
    let child = dir.write("child.toml", &format!("extends = \"base.toml\"\n{half}"));
    let message = load_within_seconds(child).expect_err("too big together");
    assert!(message.contains("together are over 16 MiB"), "{message}");
}

#[test]
fn extends_cycle_spelled_two_ways_is_reported_as_a_cycle() {
    let dir = TempDir::new("cycle");
    // `./a.toml` and `a.toml` are one file: without resolving them, the
    // chain would read the file again and again until the depth limit.
    let a = dir.write("a.toml", &child_of("./a.toml"));
    let message = load_within_seconds(a).expect_err("a cycle");
    assert!(message.contains("makes a cycle"), "{message}");
}

#[test]
fn spec_or_scenario_that_is_a_device_or_folder_is_refused_with_the_reason() {
    let dir = TempDir::new("direct");
    for (path, why) in [
        (Path::new("/dev/zero"), "character device"),
        (dir.0.as_path(), "it is a folder, not a file"),
    ] {
        let e = read_text(path).expect_err("not a regular file");
        assert!(e.reason.contains(why), "{e}");
        assert!(e.to_string().starts_with("cannot read "), "{e}");
        let report = load_spec_file(path).expect_err("not a spec");
        assert!(report.to_short_text().contains(why), "{report:?}");
    }
}

#[test]
fn file_that_is_not_utf8_is_refused_with_the_reason() {
    let dir = TempDir::new("utf8");
    let path = dir.0.join("binary.toml");
    std::fs::write(&path, b"name = \"\xff\xfe\"").expect("write");
    let e = read_text(&path).expect_err("not UTF-8");
    assert!(e.reason.contains("not UTF-8"), "{e}");
}
