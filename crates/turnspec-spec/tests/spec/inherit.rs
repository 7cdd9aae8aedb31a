//! Spec inheritance (`extends`): merging by id, removal, placement,
//! provenance, and every mistake reported in the file that made it.

use std::path::{Path, PathBuf};

use turnspec_spec::{Report, Spec};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/specs/inherit")
}

fn load(name: &str) -> Result<(Spec, Report), Report> {
    let path = dir().join(name);
    let text = std::fs::read_to_string(&path).expect("fixture");
    turnspec_spec::load_with(&path.display().to_string(), &text, &mut |base, from| {
        let p = Path::new(from).parent().expect("a folder").join(base);
        let text = std::fs::read_to_string(&p).map_err(|e| e.to_string())?;
        Ok((p.display().to_string(), text))
    })
}

fn ids(spec: &Spec) -> Vec<String> {
    spec.turn()
        .iter()
        .map(|p| spec.phase(*p).unwrap().id.clone())
        .collect()
}

#[test]
fn child_changes_adds_moves_and_removes_by_id() {
    let (spec, _) = load("child.toml").expect("loads");
    assert_eq!(spec.game().edition, "child");
    assert_eq!(
        spec.game().name,
        "Tiny",
        "untouched keys come from the base"
    );
    assert_eq!(ids(&spec), ["start", "bonus", "middle", "finish"]);
    let middle = spec.phase(spec.phase_by_id("middle").expect("middle"));
    assert_eq!(spec.rule(middle.unwrap().rule), Some("3"));
    let finish = spec.phase(spec.phase_by_id("finish").expect("finish"));
    let steps: Vec<&str> = finish
        .unwrap()
        .steps()
        .map(|s| spec.step(s).unwrap().id.as_str())
        .collect();
    assert_eq!(
        steps,
        ["first", "last"],
        "tidy removed, first placed before last"
    );
    assert!(spec.turn_action_by_id("discard").is_none());
}

#[test]
fn chains_of_extends_merge_in_order() {
    let (spec, report) = load("grandchild.toml").expect("loads");
    assert_eq!(spec.game().edition, "grandchild");
    assert_eq!(ids(&spec), ["start", "bonus", "middle", "finish"]);
    let draw = spec.turn_action(spec.turn_action_by_id("draw").expect("draw"));
    assert_eq!(spec.rule(draw.unwrap().rule), Some("2.2"));
    // Provenance: each element names the file that last set it.
    let origin = |what: &str| {
        let o = spec
            .origins()
            .iter()
            .find(|o| o.element.trim() == what)
            .expect(what);
        report.locate(o.offset)
    };
    assert!(
        origin("game").contains("grandchild.toml"),
        "{}",
        origin("game")
    );
    assert!(origin("phase bonus").contains("child.toml"));
    assert!(!origin("phase bonus").contains("grandchild.toml"));
    assert!(origin("phase start").contains("grandchild.toml"));
    assert!(origin("timing any").contains("base.toml"));
}

#[test]
fn rule_cycle_of_extends_is_an_error_at_the_extends_value() {
    let report = load("cycle-a.toml").expect_err("a cycle");
    let text = report.to_short_text();
    assert!(text.contains("turnspec::extends"), "{text}");
    assert!(text.contains("cycle"), "{text}");
    assert!(
        text.contains(":1:11:"),
        "points at the extends value: {text}"
    );
}

#[test]
fn missing_base_is_an_error_with_position() {
    let report = load("missing-base.toml").expect_err("missing base");
    let text = report.to_short_text();
    assert!(
        text.contains("missing-base.toml:1:11: error[turnspec::extends]"),
        "{text}"
    );
    assert!(text.contains("no-such-file.toml"), "{text}");
}

#[test]
fn overrides_of_things_that_do_not_exist_are_all_reported() {
    let report = load("bad-overrides.toml").expect_err("bad overrides");
    let text = report.to_short_text();
    for (what, line) in [
        ("no phase `midle`", 3),
        ("no phase `nowhere`", 9),
        ("no step `gone`", 15),
        ("`nothing` is not in the base spec", 19),
    ] {
        let found = text
            .lines()
            .find(|l| l.contains(what))
            .unwrap_or_else(|| panic!("missing {what}:\n{text}"));
        assert!(
            found.contains(&format!("bad-overrides.toml:{line}:")),
            "{what} at line {line}: {found}"
        );
    }
}

#[test]
fn load_str_refuses_extends_with_a_clear_error() {
    let text = std::fs::read_to_string(dir().join("child.toml")).expect("fixture");
    let report = turnspec_spec::load_str("child.toml", &text).expect_err("needs file access");
    assert!(
        report.to_short_text().contains("cannot read files"),
        "{}",
        report.to_short_text()
    );
}
