//! Stop profiles (docs/stops.md): the reference profiles load against
//! their specs, names resolve to steps, and every mistake is reported at
//! once at its place.

use turnspec_spec::{Spec, StopTurn, StopWhen, line_col, load_stops, load_str};

const MTG: &str = include_str!("../../../../games/mtg.toml");
const GRAND_ARCHIVE: &str = include_str!("../../../../games/grand-archive.toml");
const LORCANA: &str = include_str!("../../../../games/lorcana.toml");

fn spec(path: &str, text: &str) -> Spec {
    match load_str(path, text) {
        Ok((spec, _)) => spec,
        Err(report) => panic!("{path} does not load:\n{}", report.to_short_text()),
    }
}

#[test]
fn reference_profiles_load_against_their_specs() {
    let mtg = spec("mtg.toml", MTG);
    let ga = spec("grand-archive.toml", GRAND_ARCHIVE);
    let lorcana = spec("lorcana.toml", LORCANA);
    let profiles: [(&str, &str, &Spec); 4] = [
        (
            "mtg-default.toml",
            include_str!("../../../../games/stops/mtg-default.toml"),
            &mtg,
        ),
        (
            "mtg-full-control.toml",
            include_str!("../../../../games/stops/mtg-full-control.toml"),
            &mtg,
        ),
        (
            "grand-archive.toml",
            include_str!("../../../../games/stops/grand-archive.toml"),
            &ga,
        ),
        (
            "lorcana.toml",
            include_str!("../../../../games/stops/lorcana.toml"),
            &lorcana,
        ),
    ];
    for (path, text, spec) in profiles {
        let profile = load_stops(path, text, spec)
            .unwrap_or_else(|r| panic!("{path} does not load:\n{}", r.to_short_text()));
        assert!(profile.fits(spec), "{path}");
    }
}

#[test]
fn a_phase_names_all_its_steps_and_turns_are_kept_apart() {
    let mtg = spec("mtg.toml", MTG);
    let text = r#"
[profile]
name = "combat"

[[stop]]
at = "combat"
turn = "others"
when = "stack_nonempty"

[[stop]]
at = "precombat_main"
turn = "own"

[anywhere]
when = ["stack_grew"]
"#;
    let profile =
        load_stops("p.toml", text, &mtg).unwrap_or_else(|r| panic!("{}", r.to_short_text()));
    let combat = mtg.phase_by_id("combat").unwrap();
    let combat_steps: Vec<_> = mtg.phase(combat).unwrap().steps().collect();
    assert_eq!(combat_steps.len(), 5);
    for step in combat_steps {
        assert_eq!(profile.at(step).others, StopWhen::STACK_NONEMPTY);
        assert!(profile.at(step).own.is_empty());
    }
    let main = mtg.step_by_id("precombat_main").unwrap();
    assert_eq!(profile.at(main).own, StopWhen::ALWAYS);
    assert!(profile.at(main).others.is_empty());
    assert_eq!(
        profile.when(main, false),
        StopWhen::STACK_GREW,
        "anywhere counts in every window"
    );
    let upkeep = mtg.step_by_id("upkeep").unwrap();
    assert!(profile.at(upkeep).own.is_empty());
    assert_eq!(profile.anywhere(), StopWhen::STACK_GREW);
}

#[test]
fn stops_add_up() {
    let mtg = spec("mtg.toml", MTG);
    let mut profile = turnspec_spec::StopProfile::new(&mtg);
    let end = mtg.step_by_id("end").unwrap();
    assert!(profile.add(end, StopTurn::Any, StopWhen::CAN_PLAY));
    assert!(profile.add(end, StopTurn::Own, StopWhen::STACK_NONEMPTY));
    assert!(profile.at(end).own.contains(StopWhen::CAN_PLAY));
    assert!(profile.at(end).own.contains(StopWhen::STACK_NONEMPTY));
    assert_eq!(profile.at(end).others, StopWhen::CAN_PLAY);
}

#[test]
fn every_mistake_is_reported_at_once_at_its_place() {
    let mtg = spec("mtg.toml", MTG);
    let text = r#"[profile]
name = "mistakes"
game = "Grand Archive"

[[stop]]
at = "declare_blocker"
turn = "mine"

[[stop]]
at = "end"
when = "stack_grow"
colour = "red"

[anywhere]
when = ["sometimes"]
"#;
    let report = load_stops("mistakes.toml", text, &mtg).expect_err("must fail");
    let found: Vec<(&str, usize, usize, String)> = report
        .diagnostics
        .iter()
        .map(|d| {
            let (line, col) = line_col(&report.source, d.span.start);
            (d.code, line, col, d.help.clone().unwrap_or_default())
        })
        .collect();
    let codes: Vec<(&str, usize)> = found.iter().map(|(c, l, _, _)| (*c, *l)).collect();
    assert_eq!(
        codes,
        [
            ("stops::game", 3),
            ("stops::unknown-place", 6),
            ("stops::value", 7),
            ("stops::value", 11),
            ("stops::unknown-key", 12),
            ("stops::value", 15),
        ],
        "{}",
        report.to_short_text()
    );
    assert!(
        found[1].3.contains("did you mean `declare_blockers`?"),
        "{found:?}"
    );
    assert!(
        found[3].3.contains("did you mean `stack_grew`?"),
        "{found:?}"
    );
    assert!(found[0].3.contains("Magic: The Gathering"), "{found:?}");
}

#[test]
fn syntax_and_type_errors_are_located() {
    let mtg = spec("mtg.toml", MTG);
    let report = load_stops("bad.toml", "[profile\nname = 1\n", &mtg).expect_err("syntax");
    assert!(
        report
            .diagnostics
            .iter()
            .all(|d| d.code == "stops::toml-syntax")
    );
    let report = load_stops("bad.toml", "[profile]\nname = 1\n", &mtg).expect_err("type");
    assert_eq!(report.diagnostics[0].code, "stops::schema");
    let report = load_stops("bad.toml", "[[stop]]\nat = \"end\"\n", &mtg).expect_err("no header");
    assert_eq!(report.diagnostics[0].code, "stops::schema");
}

#[test]
fn no_panic_on_damaged_profiles() {
    let mtg = spec("mtg.toml", MTG);
    let text = include_str!("../../../../games/stops/mtg-default.toml");
    // Every prefix of the file, cut at each character boundary.
    for (i, _) in text.char_indices() {
        let _ = load_stops("cut.toml", &text[..i], &mtg);
    }
}
