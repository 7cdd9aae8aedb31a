//! Files that are not what they claim: `extends` bases, specs and scenarios
//! that are devices, named pipes, folders or huge files are refused with the
//! reason, without being read; and scenario discovery finds every scenario
//! once, whatever links, comments and unreadable paths the folders hold.

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use turnspec_scenario::{
    MAX_FILE_BYTES, SpecCache, find_scenarios, load_spec_file, read_text, run_file,
};

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

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("the workspace root")
}

/// A child spec that extends `base` and adds nothing.
fn child_of(base: &str) -> String {
    format!("extends = \"{base}\"\n")
}

/// Loads `file`, written in `dir` to extend `base` (whatever the test made
/// of it), which must fail (`why`): the message of the refusal.
fn load_refused(dir: &TempDir, file: &str, base: &str, why: &str) -> String {
    let path = dir.write(file, &child_of(base));
    load_within_seconds(path).expect_err(why)
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
    let message = load_refused(&dir, "child.toml", "/dev/zero", "a device is no spec");
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
    let message = load_refused(&dir, "child.toml", "base.toml", "a pipe is no spec");
    assert!(message.contains("named pipe"), "{message}");
}

#[test]
fn extends_of_a_folder_is_refused_with_the_reason() {
    let dir = TempDir::new("folder");
    std::fs::create_dir_all(dir.0.join("base.toml")).expect("a folder");
    let message = load_refused(&dir, "child.toml", "base.toml", "a folder is no spec");
    assert!(message.contains("it is a folder, not a file"), "{message}");
}

#[test]
fn extends_of_a_file_over_the_size_cap_is_refused_unread() {
    let dir = TempDir::new("huge");
    // Sparse: no disk space used, and it is never read.
    let huge = std::fs::File::create(dir.0.join("base.toml")).expect("create");
    huge.set_len(MAX_FILE_BYTES + 1)
        .expect("grow a sparse file");
    let message = load_refused(&dir, "child.toml", "base.toml", "too big");
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
    let message = load_refused(&dir, "a.toml", "./a.toml", "a cycle");
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

// --- scenario discovery ---------------------------------------------------------

/// A scenario against the reference Magic spec that passes.
fn passing(name: &str) -> String {
    format!(
        "[scenario]\nname = \"{name}\"\n\n[setup]\nspec = \"{}\"\nplayers = 2\n\n[[script]]\nexpect = {{ holder = \"P1\" }}\n",
        root().join("games/mtg.toml").display()
    )
}

fn names(files: &[PathBuf], dir: &TempDir) -> Vec<String> {
    files
        .iter()
        .map(|f| f.strip_prefix(&dir.0).unwrap_or(f).display().to_string())
        .collect()
}

#[test]
fn scenario_header_with_a_trailing_comment_is_found() {
    let dir = TempDir::new("comment");
    dir.write(
        "commented.toml",
        &passing("commented").replace("[scenario]", "[scenario] # the header"),
    );
    dir.write(
        "dotted.toml",
        &passing("dotted").replace("[scenario]\nname", "scenario.name"),
    );
    let found = find_scenarios(std::slice::from_ref(&dir.0));
    assert_eq!(names(&found.files, &dir), ["commented.toml", "dotted.toml"]);
    assert!(found.errors.is_empty(), "{:?}", found.errors);
}

#[test]
fn toml_without_a_scenario_table_is_skipped_and_listed_but_broken_toml_is_a_scenario() {
    let dir = TempDir::new("skipped");
    dir.write("a-spec.toml", "[game]\nname = \"x\" # [scenario]\n");
    dir.write("broken.toml", "[scenario\nname = \"half a header\"\n");
    dir.write("notes.txt", "[scenario]\n");
    let found = find_scenarios(std::slice::from_ref(&dir.0));
    assert_eq!(names(&found.files, &dir), ["broken.toml"]);
    assert_eq!(names(&found.skipped, &dir), ["a-spec.toml"]);
}

#[test]
fn stop_profiles_are_neither_specs_nor_scenarios() {
    let dir = TempDir::new("profiles");
    dir.write("a-spec.toml", "[game]\nname = \"x\"\n");
    dir.write("stops/default.toml", "[profile]\nname = \"default\"\n");
    let specs = turnspec_scenario::find_specs(std::slice::from_ref(&dir.0));
    assert_eq!(names(&specs.files, &dir), ["a-spec.toml"]);
    assert_eq!(names(&specs.skipped, &dir), ["stops/default.toml"]);
    assert!(!turnspec_scenario::is_spec_file(
        &dir.0.join("stops/default.toml")
    ));
    let scenarios = find_scenarios(std::slice::from_ref(&dir.0));
    assert!(scenarios.files.is_empty(), "{:?}", scenarios.files);
}

#[cfg(unix)]
#[test]
fn folder_linking_to_itself_or_to_a_sibling_is_searched_once() {
    use std::os::unix::fs::symlink;
    let dir = TempDir::new("links");
    dir.write("a/one.toml", &passing("one"));
    dir.write("b/two.toml", &passing("two"));
    symlink("..", dir.0.join("a/up")).expect("link");
    symlink("../a", dir.0.join("b/to-a")).expect("link");
    symlink("../b", dir.0.join("a/to-b")).expect("link");
    // A hard link and a file link: the same file by other names. Each file
    // is listed under its own path, not a link's.
    std::fs::hard_link(dir.0.join("a/one.toml"), dir.0.join("b/one-again.toml")).expect("link");
    symlink("one.toml", dir.0.join("a/linked.toml")).expect("link");
    let found = find_scenarios(std::slice::from_ref(&dir.0));
    assert_eq!(names(&found.files, &dir), ["a/one.toml", "b/two.toml"]);
    assert!(found.errors.is_empty(), "{:?}", found.errors);
}

#[cfg(unix)]
#[test]
fn links_that_lead_nowhere_or_in_a_loop_are_reported() {
    use std::os::unix::fs::symlink;
    let dir = TempDir::new("broken-links");
    dir.write("ok.toml", &passing("ok"));
    symlink("missing", dir.0.join("dangling")).expect("link");
    symlink("loop-b", dir.0.join("loop-a")).expect("link");
    symlink("loop-a", dir.0.join("loop-b")).expect("link");
    let found = find_scenarios(std::slice::from_ref(&dir.0));
    assert_eq!(names(&found.files, &dir), ["ok.toml"]);
    let unreadable = names(
        &found
            .errors
            .iter()
            .map(|e| e.path.clone())
            .collect::<Vec<_>>(),
        &dir,
    );
    assert_eq!(unreadable, ["dangling", "loop-a", "loop-b"]);
}

#[cfg(unix)]
#[test]
fn folder_that_cannot_be_listed_is_reported() {
    use std::os::unix::fs::PermissionsExt;
    let dir = TempDir::new("unlistable");
    dir.write("locked/hidden.toml", &passing("hidden"));
    let locked = dir.0.join("locked");
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).expect("chmod");
    let listable = std::fs::read_dir(&locked).is_ok();
    let found = find_scenarios(std::slice::from_ref(&dir.0));
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    if listable {
        eprintln!("skipped: running as a user who can read any folder (root)");
        return;
    }
    assert!(found.files.is_empty());
    assert_eq!(found.errors.len(), 1, "{:?}", found.errors);
    assert!(
        found.errors[0].reason.contains("cannot list the folder"),
        "{}",
        found.errors[0]
    );
}

#[test]
fn file_named_twice_on_the_command_line_runs_once() {
    let dir = TempDir::new("twice");
    let one = dir.write("one.toml", &passing("one"));
    let found = find_scenarios(&[one.clone(), dir.0.clone(), one]);
    assert_eq!(names(&found.files, &dir), ["one.toml"]);
}

// --- what a failed event check says --------------------------------------------

/// `expect_events` compares the events since the last check, `expect_trace`
/// every event: each says which failed.
#[test]
fn failed_event_and_trace_checks_say_which_failed() {
    let dir = TempDir::new("event-checks");
    let spec = root().join("games/mtg.toml");
    for (check, says) in [
        ("expect_events", "the events differ from the expected ones"),
        ("expect_trace", "the trace differs from the expected one"),
    ] {
        let path = dir.write(
            &format!("{check}.toml"),
            &format!(
                "[scenario]\nname = \"{check}\"\n\n[setup]\nspec = \"{}\"\nplayers = 2\n\n\
                 [[script]]\n{check} = [\"nothing like this\"]\n",
                spec.display()
            ),
        );
        let result = run_file(&path, &mut SpecCache::default());
        let text = result.to_text(&path);
        assert!(!result.passed(), "{text}");
        assert!(text.contains(says), "{check}: {text}");
    }
}
