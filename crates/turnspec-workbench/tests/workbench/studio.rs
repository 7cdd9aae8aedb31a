//! The studio routes through the one dispatch, [`Workbench::handle`], on a
//! folder and in memory: a new spec from an empty folder, played, given a
//! scenario and tested; checks with diagnostics; diffs; drafts; the rules
//! of saving; and garbage that must be refused without a panic.

use std::path::PathBuf;
use std::sync::Arc;

use serde_json::{Value, json};
use turnspec_workbench::{ApiError, Files, Folder, MemoryFiles, Workbench};

/// A small spec that loads: two players, one phase where both get
/// priority.
const MINI: &str = r#"[game]
name = "Mini"
players = { min = 2, max = 2 }

[priority]
rule = "R1"
pass_rule = "R2"

[timing.quick]
rule = "R3"
who = "any"

[[phase]]
id = "main"
rule = "R4"
priority = "always"
"#;

pub(crate) fn scratch(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("turnspec-workbench-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn call(w: &Workbench, method: &str, path: &str, body: Value) -> Result<Value, ApiError> {
    let bytes = if body.is_null() {
        Vec::new()
    } else {
        body.to_string().into_bytes()
    };
    w.handle(method, path, &bytes, 1_000)
}

fn ok(w: &Workbench, method: &str, path: &str, body: Value) -> Value {
    call(w, method, path, body).unwrap_or_else(|e| panic!("{method} {path}: {e:?}"))
}

/// From an empty folder: save a spec, play it, save a scenario of the
/// game, run the spec's scenarios.
fn new_spec_flow(files: Arc<dyn Files>) {
    let w = Workbench::with_files(vec![], files);
    assert_eq!(ok(&w, "GET", "/api/specs", Value::Null)["specs"], json!([]));
    let saved = ok(
        &w,
        "POST",
        "/api/spec/save",
        json!({ "path": "myspec.toml", "text": MINI }),
    );
    assert_eq!(saved["ok"], true, "{saved}");
    assert_eq!(saved["path"], "myspec.toml");
    let spec = saved["spec"].as_u64().unwrap();
    assert_eq!(spec, 0);
    let source = ok(&w, "GET", "/api/specs/0/source", Value::Null);
    assert_eq!(source, json!({ "path": "myspec.toml", "text": MINI }));
    let list = ok(&w, "GET", "/api/specs", Value::Null);
    assert_eq!(list["specs"][0]["savable"], true);

    let open = ok(
        &w,
        "POST",
        "/api/session",
        json!({ "spec": 0, "players": 2 }),
    );
    let id = open["session"].as_str().unwrap().to_string();
    let moved = ok(
        &w,
        "POST",
        &format!("/api/session/{id}/move"),
        json!({ "kind": "pass_all" }),
    );
    assert!(moved.get("refused").is_none(), "{moved}");
    let scenario = ok(
        &w,
        "POST",
        &format!("/api/session/{id}/save"),
        json!({ "name": "R1 both pass", "path": "scenarios/first.toml" }),
    );
    assert_eq!(scenario["passes"], true, "{scenario}");
    assert_eq!(scenario["written"], "scenarios/first.toml");
    assert!(
        scenario["toml"]
            .as_str()
            .unwrap()
            .contains("spec = \"../myspec.toml\"")
    );

    let runs = ok(&w, "POST", "/api/specs/0/scenarios", Value::Null);
    assert_eq!(
        runs,
        json!([{ "path": "scenarios/first.toml", "name": "R1 both pass", "passed": true, "failure": null }])
    );

    // An edit that changes the turn: saved in place, the scenario now
    // fails, run against the spec as saved, not as first read.
    let edited = format!("{MINI}\n[[phase]]\nid = \"end\"\nrule = \"R5\"\n");
    let diff = ok(
        &w,
        "POST",
        "/api/diff",
        json!({ "spec": 0, "text": edited }),
    );
    assert_eq!(diff["same"], false, "{diff}");
    assert!(diff["lines"].as_array().unwrap().len() > 1);
    let same = ok(&w, "POST", "/api/diff", json!({ "spec": 0, "text": MINI }));
    assert_eq!(same["same"], true, "{same}");
    let resaved = ok(
        &w,
        "POST",
        "/api/spec/save",
        json!({ "spec": 0, "text": edited }),
    );
    assert_eq!(resaved["spec"], 0, "{resaved}");
    let runs = ok(&w, "POST", "/api/specs/0/scenarios", Value::Null);
    assert_eq!(runs[0]["passed"], false, "{runs}");
    assert!(runs[0]["failure"].as_str().unwrap().contains("entry"));

    // Work in progress with errors is saved, with its diagnostics, and the
    // spec on offer stays the last one that loaded.
    let broken = ok(
        &w,
        "POST",
        "/api/spec/save",
        json!({ "spec": 0, "text": "[game\nname = 1" }),
    );
    assert_eq!(broken["ok"], false);
    assert_eq!(broken["spec"], Value::Null);
    assert!(!broken["diagnostics"].as_array().unwrap().is_empty());
    assert_eq!(
        ok(&w, "GET", "/api/specs", Value::Null)["specs"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    // A new spec never replaces a file unasked.
    let e = call(
        &w,
        "POST",
        "/api/spec/save",
        json!({ "path": "myspec.toml", "text": MINI }),
    )
    .unwrap_err();
    assert!(e.message.contains("exists"), "{e}");
    // ... nor a scenario, even when asked.
    let e = call(
        &w,
        "POST",
        "/api/spec/save",
        json!({ "path": "scenarios/first.toml", "text": MINI, "overwrite": true }),
    )
    .unwrap_err();
    assert!(e.message.contains("not a spec file"), "{e}");
}

#[test]
fn a_new_spec_is_saved_played_given_a_scenario_and_tested_in_a_folder() {
    let dir = scratch("new-spec");
    new_spec_flow(Arc::new(Folder::new(dir.clone())));
    assert!(dir.join("myspec.toml").is_file());
    assert!(dir.join("scenarios/first.toml").is_file());
    // Nothing left beside the files but the files.
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| !n.ends_with(".part")), "{names:?}");
}

#[test]
fn a_new_spec_is_saved_played_given_a_scenario_and_tested_in_memory() {
    let files = Arc::new(MemoryFiles::new());
    new_spec_flow(files.clone());
    let map = files.to_map();
    assert!(map.contains_key("myspec.toml"));
    assert!(map.contains_key("scenarios/first.toml"));
}

#[test]
fn check_gives_every_diagnostic_with_its_place_and_the_details_when_it_loads() {
    let w = Workbench::with_files(vec![], Arc::new(MemoryFiles::new()));
    let good = ok(&w, "POST", "/api/check", json!({ "text": MINI }));
    assert_eq!(good["ok"], true);
    assert_eq!(good["details"]["index"], Value::Null);
    assert_eq!(good["details"]["name"], "Mini");
    assert!(good["details"]["diagram"]["phases"].is_array());
    assert!(good["svg"].as_str().unwrap().starts_with("<svg"));
    assert!(good.get("micros").is_none());
    // The same answer every time.
    assert_eq!(good, ok(&w, "POST", "/api/check", json!({ "text": MINI })));

    let text = MINI.replace("who = \"any\"", "who = \"any\"\nwhom = 1");
    let bad = ok(
        &w,
        "POST",
        "/api/check",
        json!({ "text": text, "path": "games/x.toml" }),
    );
    assert_eq!(bad["ok"], false);
    assert_eq!(bad["details"], Value::Null);
    assert_eq!(bad["svg"], Value::Null);
    let d = &bad["diagnostics"][0];
    assert_eq!(d["severity"], "error");
    assert_eq!(d["code"], "turnspec::unknown-key");
    assert_eq!(d["file"], "games/x.toml");
    assert_eq!(d["line"], 12);
    assert_eq!(d["column"], 1);
    assert_eq!(d["end_line"], 12);
    for key in ["message", "label", "help", "related", "end_column"] {
        assert!(d.get(key).is_some(), "{key} in {d}");
    }
}

#[test]
fn a_spec_that_extends_another_reads_its_base_through_the_files() {
    let files = Arc::new(MemoryFiles::new());
    let w = Workbench::with_files(vec![], files.clone());
    ok(
        &w,
        "POST",
        "/api/spec/save",
        json!({ "path": "games/base.toml", "text": MINI }),
    );
    let edition = "extends = \"base.toml\"\n\n[game]\nedition = \"2\"\n";
    let checked = ok(
        &w,
        "POST",
        "/api/check",
        json!({ "text": edition, "path": "games/edition.toml" }),
    );
    assert_eq!(checked["ok"], true, "{checked}");
    assert_eq!(checked["details"]["edition"], "2");
    // From another folder the base is not there: a located error.
    let missing = ok(
        &w,
        "POST",
        "/api/check",
        json!({ "text": edition, "path": "other/edition.toml" }),
    );
    assert_eq!(missing["ok"], false);
    assert_eq!(missing["diagnostics"][0]["line"], 1);
    // Out of the folder: refused as a base.
    let out = ok(
        &w,
        "POST",
        "/api/check",
        json!({ "text": "extends = \"../../x.toml\"\n", "path": "games/e.toml" }),
    );
    assert_eq!(out["ok"], false);
    // A cycle is an error, not a loop.
    files
        .write(
            &turnspec_workbench::RelPath::parse("a.toml").unwrap(),
            "extends = \"b.toml\"\n",
            false,
        )
        .unwrap();
    files
        .write(
            &turnspec_workbench::RelPath::parse("b.toml").unwrap(),
            "extends = \"a.toml\"\n",
            false,
        )
        .unwrap();
    let cycle = ok(
        &w,
        "POST",
        "/api/check",
        json!({ "text": "extends = \"a.toml\"\n", "path": "c.toml" }),
    );
    assert_eq!(cycle["ok"], false);
}

#[test]
fn drafts_are_played_without_saving_and_bounded() {
    let w = Workbench::with_files(vec![], Arc::new(MemoryFiles::new()));
    ok(
        &w,
        "POST",
        "/api/spec/save",
        json!({ "path": "mini.toml", "text": MINI }),
    );
    let draft = ok(&w, "POST", "/api/draft", json!({ "base": 0, "text": MINI }));
    let index = draft["spec"].as_u64().unwrap();
    assert_eq!(index, 1);
    assert_eq!(draft["details"]["draft"], true);
    // Played through the session routes.
    let open = ok(
        &w,
        "POST",
        "/api/session",
        json!({ "spec": index, "players": 2, "compare": 0 }),
    );
    assert_eq!(open["divergence"], Value::Null);
    // A new draft of the same base takes its place.
    let again = ok(&w, "POST", "/api/draft", json!({ "base": 0, "text": MINI }));
    assert_eq!(again["spec"], index);
    // A draft has no file: a scenario of it cannot be saved yet.
    let e = call(
        &w,
        "POST",
        "/api/scenario",
        json!({ "spec": index, "moves": [] }),
    )
    .unwrap_err();
    assert!(e.message.contains("save it first"), "{e}");
    // Many drafts: never more than the bound.
    for base in 0..20 {
        let _ = call(
            &w,
            "POST",
            "/api/draft",
            json!({ "base": base % 3, "text": MINI }),
        );
        let _ = call(&w, "POST", "/api/draft", json!({ "text": MINI }));
    }
    let specs = ok(&w, "GET", "/api/specs", Value::Null)["specs"]
        .as_array()
        .unwrap()
        .len();
    assert!(
        specs <= 1 + turnspec_workbench::limits::MAX_DRAFTS,
        "{specs}"
    );
    // A text that does not load: 422 with its diagnostics.
    let e = call(
        &w,
        "POST",
        "/api/draft",
        json!({ "text": "[[phase]]\nid = 3" }),
    )
    .unwrap_err();
    assert_eq!(e.status, 422);
    assert!(
        e.to_json()["diagnostics"]
            .as_array()
            .is_some_and(|d| !d.is_empty())
    );
    let e = call(
        &w,
        "POST",
        "/api/diff",
        json!({ "spec": 0, "text": "x = " }),
    )
    .unwrap_err();
    assert_eq!(e.status, 422);
}

#[test]
fn spec_saves_follow_the_rules_of_every_save() {
    let dir = scratch("spec-rules");
    let w = Workbench::new(vec![], dir.clone());
    for bad in [
        "../x.toml",
        "/tmp/x.toml",
        "a/../x.toml",
        ".x.toml",
        "x.txt",
        "a\\x.toml",
    ] {
        let e = call(
            &w,
            "POST",
            "/api/spec/save",
            json!({ "path": bad, "text": MINI }),
        )
        .unwrap_err();
        assert_eq!(e.status, 400, "{bad}");
    }
    let e = call(
        &w,
        "POST",
        "/api/spec/save",
        json!({ "path": "big.toml", "text": "#".repeat(turnspec_workbench::limits::MAX_SOURCE + 1) }),
    )
    .unwrap_err();
    assert_eq!(e.status, 413);
    assert!(!dir.join("big.toml").exists());
    #[cfg(unix)]
    {
        let outside = scratch("spec-rules-outside");
        std::os::unix::fs::symlink(&outside, dir.join("link")).unwrap();
        let e = call(
            &w,
            "POST",
            "/api/spec/save",
            json!({ "path": "link/x.toml", "text": MINI }),
        )
        .unwrap_err();
        assert!(e.message.contains("symbolic link"), "{e}");
        std::os::unix::fs::symlink(outside.join("y.toml"), dir.join("y.toml")).unwrap();
        let e = call(
            &w,
            "POST",
            "/api/spec/save",
            json!({ "path": "y.toml", "text": MINI, "overwrite": true }),
        )
        .unwrap_err();
        assert!(e.message.contains("symbolic link"), "{e}");
        assert!(std::fs::read_dir(&outside).unwrap().next().is_none());
    }
    // Overwrite replaces a spec file in one step.
    ok(
        &w,
        "POST",
        "/api/spec/save",
        json!({ "path": "s.toml", "text": MINI }),
    );
    let again = ok(
        &w,
        "POST",
        "/api/spec/save",
        json!({ "path": "s.toml", "text": MINI, "overwrite": true }),
    );
    assert_eq!(again["spec"], 0, "the same file is the same spec: {again}");
    assert_eq!(std::fs::read_to_string(dir.join("s.toml")).unwrap(), MINI);
}

#[test]
fn garbage_is_refused_without_a_panic() {
    let w = Workbench::with_files(vec![], Arc::new(MemoryFiles::new()));
    ok(
        &w,
        "POST",
        "/api/spec/save",
        json!({ "path": "m.toml", "text": MINI }),
    );
    let paths = [
        "",
        "/",
        "/api",
        "/api/",
        "/api/specs/",
        "/api/specs/x",
        "/api/specs/-1",
        "/api/specs/99999999999999999999999",
        "/api/specs/0/source/x",
        "/api/specs/7/source",
        "/api/specs/7/scenarios",
        "/api/session/x/move",
        "/api/session//back",
        "/api/check?x=1",
        "/api/spec/save",
        "/api/draft",
        "/api/diff",
        "/api/play",
        "/api/scenario",
        "/api/session",
        "/api/\u{0}",
        "/api/../../etc",
    ];
    let bodies: [&[u8]; 12] = [
        b"",
        b"null",
        b"[]",
        b"{",
        b"\xff\xfe",
        b"{\"text\": 3}",
        b"{\"text\": \"\\u0000\"}",
        b"{\"spec\": -1, \"text\": \"\"}",
        b"{\"spec\": 0, \"text\": \"[[[[[[[[\"}",
        b"{\"base\": 99, \"text\": \"\"}",
        b"{\"path\": \"a/b/c/d/e/f/g/h/i/j/k.toml\", \"text\": \"\"}",
        b"{\"to\": 18446744073709551615}",
    ];
    for method in ["GET", "POST", "PUT", ""] {
        for path in paths {
            for body in bodies {
                if let Err(e) = w.handle(method, path, body, u64::MAX) {
                    assert!((400..500).contains(&e.status), "{method} {path}: {e:?}");
                }
            }
        }
    }
    // Deep nesting and huge bodies.
    let deep = format!(
        "{{\"text\": {}1{}}}",
        "[".repeat(10_000),
        "]".repeat(10_000)
    );
    assert!(w.handle("POST", "/api/check", deep.as_bytes(), 0).is_err());
    let huge = vec![b' '; turnspec_workbench::limits::MAX_BODY + 1];
    assert_eq!(
        w.handle("POST", "/api/check", &huge, 0).unwrap_err().status,
        413
    );
    let text = format!("[game]\nname = \"{}\"\n", "x".repeat(100));
    let r = ok(&w, "POST", "/api/check", json!({ "text": text.repeat(50) }));
    assert_eq!(r["ok"], false);
}

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");

/// The repository as the served folder, offering `games/mtg.toml` as the
/// CLI does (a path relative to the folder, with its text).
fn repository() -> Workbench {
    let text = std::fs::read_to_string(format!("{ROOT}/games/mtg.toml")).unwrap();
    let (spec, _) = turnspec_spec::load_str("games/mtg.toml", &text).unwrap();
    let entry = turnspec_workbench::SpecEntry::new(
        "games/mtg.toml",
        Some(PathBuf::from("games/mtg.toml")),
        Arc::new(spec),
    );
    Workbench::new(vec![entry], PathBuf::from(ROOT))
}

#[test]
fn the_reference_scenarios_of_a_spec_are_found_and_pass() {
    let w = repository();
    let runs = ok(&w, "POST", "/api/specs/0/scenarios", Value::Null);
    let runs = runs.as_array().unwrap();
    assert!(runs.len() > 20, "{}", runs.len());
    for r in runs {
        assert_eq!(r["passed"], true, "{r}");
        assert!(r["path"].as_str().unwrap().starts_with("tests/scenarios/"));
    }
    // Its source, and an edition that extends it, read through the folder.
    let source = ok(&w, "GET", "/api/specs/0/source", Value::Null);
    assert_eq!(source["path"], "games/mtg.toml");
    let edition = std::fs::read_to_string(format!("{ROOT}/games/mtg-2024.toml")).unwrap();
    let checked = ok(
        &w,
        "POST",
        "/api/check",
        json!({ "text": edition, "path": "games/mtg-2024.toml" }),
    );
    assert_eq!(checked["ok"], true, "{checked}");
    // Its text extending itself is a cycle, located.
    let e = call(
        &w,
        "POST",
        "/api/diff",
        json!({ "spec": 0, "text": edition }),
    )
    .unwrap_err();
    assert_eq!(e.status, 422);
    let older = std::fs::read_to_string(format!("{ROOT}/games/mtg-2011.toml")).unwrap();
    let diff = ok(&w, "POST", "/api/diff", json!({ "spec": 0, "text": older }));
    assert_eq!(diff["same"], false);
    assert!(
        diff["lines"][0]
            .as_str()
            .unwrap()
            .starts_with("--- games/mtg.toml (saved)")
    );
}
