//! `turnspec test` must never miss a scenario: a header with a comment, an
//! unreadable path, a folder linking to itself and folders linking to each
//! other. Every scenario file runs exactly once, every path that cannot be
//! read is an error (exit 1), and nothing loops.

use crate::common;

use common::{TempDir, assert_no_panic, scenario, stderr, stdout, turnspec_within};

/// Runs `turnspec test` on the folder; fails the test if it does not end.
fn run_test_folder(dir: &TempDir) -> (Option<i32>, String) {
    let o = turnspec_within(&["test", dir.arg()], 60);
    assert_no_panic(&o);
    (o.status.code(), format!("{}{}", stdout(&o), stderr(&o)))
}

/// The run exited with `want` and its output says each of `says`.
fn assert_says(code: Option<i32>, out: &str, want: i32, says: &[&str]) {
    assert_eq!(code, Some(want), "{out}");
    for text in says {
        assert!(out.contains(text), "{text}: {out}");
    }
}

/// Runs `turnspec test` on the folder, which must exit with `want` and say
/// each of `says`: the output, for more checks.
fn test_folder(dir: &TempDir, want: i32, says: &[&str]) -> String {
    let (code, out) = run_test_folder(dir);
    assert_says(code, &out, want, says);
    out
}

#[test]
fn scenario_header_with_a_trailing_comment_still_runs() {
    let dir = TempDir::new("header-comment");
    dir.write(
        "fails.toml",
        &scenario("fails", "P2").replace("[scenario]", "[scenario] # a comment"),
    );
    test_folder(
        &dir,
        1,
        &["FAIL    fails", "1 scenarios: 0 passed, 1 failed"],
    );
}

#[cfg(unix)]
#[test]
fn unreadable_path_under_a_folder_fails_the_run() {
    use std::os::unix::fs::symlink;
    let dir = TempDir::new("unreadable");
    dir.write("passes.toml", &scenario("passes", "P1"));
    symlink("nowhere", dir.0.join("dangling.toml")).expect("link");
    symlink("loop-b", dir.0.join("loop-a")).expect("link");
    symlink("loop-a", dir.0.join("loop-b")).expect("link");
    let out = test_folder(&dir, 1, &[]);
    for name in ["dangling.toml", "loop-a", "loop-b"] {
        assert!(
            out.lines()
                .any(|l| l.starts_with("ERROR   cannot read ") && l.contains(name)),
            "{name}: {out}"
        );
    }
    assert!(
        out.contains("1 scenarios: 1 passed, 0 failed, 0 invalid; 3 path(s) could not be read"),
        "{out}"
    );
}

#[cfg(unix)]
#[test]
fn unlistable_sub_folder_fails_the_run() {
    use std::os::unix::fs::PermissionsExt;
    let dir = TempDir::new("unlistable");
    dir.write("passes.toml", &scenario("passes", "P1"));
    dir.write("locked/fails.toml", &scenario("fails", "P2"));
    let locked = dir.0.join("locked");
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).expect("chmod");
    let listable = std::fs::read_dir(&locked).is_ok();
    let (code, out) = run_test_folder(&dir);
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    if listable {
        // root reads any folder; the link tests above cover unreadable paths.
        eprintln!("skipped: running as a user who can read any folder");
        return;
    }
    assert_says(code, &out, 1, &["cannot list the folder"]);
}

#[cfg(unix)]
#[test]
fn folder_linking_to_itself_runs_each_scenario_once() {
    use std::os::unix::fs::symlink;
    let dir = TempDir::new("self-link");
    dir.write("passes.toml", &scenario("passes", "P1"));
    symlink(".", dir.0.join("again")).expect("link");
    std::fs::create_dir(dir.0.join("sub")).expect("a folder");
    symlink("..", dir.0.join("sub/up")).expect("link");
    let out = test_folder(&dir, 0, &[]);
    assert_eq!(out.matches("ok      passes").count(), 1, "{out}");
    assert!(out.contains("\n1 scenarios: 1 passed"), "{out}");
}

#[cfg(unix)]
#[test]
fn folders_linking_to_each_other_run_each_scenario_once() {
    use std::os::unix::fs::symlink;
    let dir = TempDir::new("mutual-links");
    dir.write("a/one.toml", &scenario("one", "P1"));
    dir.write("b/two.toml", &scenario("two", "P1"));
    // Several links per folder: without a record of the folders searched,
    // the number of paths doubles at every level.
    for (from, to) in [("a", "../b"), ("b", "../a")] {
        for name in ["x", "y", "z"] {
            symlink(to, dir.0.join(from).join(name)).expect("link");
        }
    }
    let out = test_folder(&dir, 0, &[]);
    assert_eq!(out.matches("ok      ").count(), 2, "{out}");
    assert!(
        out.contains("a/one.toml") && out.contains("b/two.toml"),
        "{out}"
    );
}

#[test]
fn toml_that_is_not_a_scenario_is_listed_as_skipped() {
    let dir = TempDir::new("skipped");
    dir.write("passes.toml", &scenario("passes", "P1"));
    dir.write("spec.toml", "[game] # [scenario]\nname = \"kept beside\"\n");
    test_folder(&dir, 0, &["spec.toml (TOML without a [scenario] table)"]);
}

// --- check on folders: the same discovery, for specs -----------------------

#[test]
fn check_on_a_folder_checks_every_spec_under_it_and_skips_scenarios() {
    let o = turnspec_within(&["check", "games"], 60);
    common::assert_exit(&o, 0);
    let out = stdout(&o);
    for spec in [
        "grand-archive",
        "mtg-2011",
        "mtg-2024",
        "mtg-classic",
        "mtg",
    ] {
        assert!(
            out.contains(&format!("ok: games/{spec}.toml\n")),
            "{spec}: {out}"
        );
    }
    // Nested folders, a scenario beside the specs, a broken spec, a link.
    let dir = TempDir::new("check-folder");
    let mtg = common::root().join("games/mtg.toml");
    let text = std::fs::read_to_string(&mtg).expect("read mtg.toml");
    dir.write("a/deep/good.toml", &text);
    dir.write("a/broken.toml", "[game\n");
    dir.write("scenario.toml", &scenario("passes", "P1"));
    dir.write("notes.txt", "not a spec");
    #[cfg(unix)]
    std::os::unix::fs::symlink("a", dir.0.join("link-to-a")).expect("link");
    let o = turnspec_within(&["check", dir.arg()], 60);
    assert_no_panic(&o);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let (out, err) = (stdout(&o), stderr(&o));
    assert_eq!(out.matches("ok: ").count(), 1, "each spec once: {out}");
    assert!(out.contains("good.toml"), "{out}");
    assert!(err.contains("broken.toml: 1 error(s)"), "{err}");
    assert!(
        !out.contains("scenario.toml") && !err.contains("scenario.toml"),
        "{out}{err}"
    );
    // A folder without specs is a usage error, as in `test`.
    let empty = TempDir::new("check-empty-folder");
    let o = turnspec_within(&["check", empty.arg()], 60);
    common::assert_exit_saying(&o, 2, "no spec files under");
}
