//! Differences between the compiled turn program and the interpreter that
//! the generated-spec fuzzer found, minimised: each file in
//! `tests/specs/differential/` is a spec whose `# act:` comment lines list
//! actions (`play P1 CLASS`, `pass P2`, the host's `set_fact FACT`), and
//! a `# turn_limit: N` line may set the game's turn limit, `# players: N`
//! the number of players and `# teams: 0 0` their teams. The test plays
//! them on both tiers and compares results, events and states after each.
//!
//! Both cases differed before the engine forgot the program's resume
//! point when a play ends the turn; they agree now, and stay here.
//!
//! `# answer: ACTION N` lines make the host answer the turn-based action
//! `ACTION` with `N` (every other action with 0, as `NoHost` does). A
//! case with a `# known:` line is a difference not fixed yet: it must
//! still differ (`known_cases_still_differ`); once the engine is fixed,
//! delete that line and the case joins the ones that must agree.

use std::path::Path;

use turnspec_engine::{Action, Game, GameOptions, Host, PlayerId, TurnActionHook};
use turnspec_spec::TurnActionId;

/// Answers the turn-based actions a case lists, 0 to the others.
struct Answers(Vec<(TurnActionId, u16)>);

impl Host for Answers {
    fn turn_action(&mut self, hook: TurnActionHook<'_>) -> u16 {
        self.0
            .iter()
            .find(|(a, _)| *a == hook.action)
            .map_or(0, |(_, n)| *n)
    }
}

fn answers(text: &str, spec: &turnspec_spec::Spec) -> Answers {
    Answers(
        text.lines()
            .filter_map(|l| l.strip_prefix("# answer: "))
            .map(|l| {
                let (id, n) = l.trim().split_once(' ').expect("ACTION N");
                (
                    spec.turn_action_by_id(id).expect("a turn-based action"),
                    n.trim().parse().expect("a number"),
                )
            })
            .collect(),
    )
}

fn known(path: &Path) -> bool {
    std::fs::read_to_string(path)
        .expect("readable")
        .lines()
        .any(|l| l.starts_with("# known:"))
}

enum Act {
    Move(Action),
    SetFact(turnspec_spec::FactId),
}

fn actions(text: &str, spec: &turnspec_spec::Spec) -> Vec<Act> {
    text.lines()
        .filter_map(|l| l.strip_prefix("# act: "))
        .map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            if words[0] == "set_fact" {
                return Act::SetFact(spec.fact_by_id(words[1]).expect("a fact"));
            }
            let player = PlayerId(words[1][1..].parse::<u8>().expect("a seat") - 1);
            Act::Move(match words[0] {
                "pass" => Action::Pass { player },
                "play" => Action::Play {
                    player,
                    timing: spec.timing_by_id(words[2]).expect("a timing class"),
                    label: 1,
                },
                v => panic!("unknown verb {v}"),
            })
        })
        .collect()
}

/// The first difference, in words, or `None`.
fn first_difference(path: &Path) -> Option<String> {
    let text = std::fs::read_to_string(path).expect("readable");
    let (spec, _) = turnspec_spec::load_str(&path.display().to_string(), &text)
        .unwrap_or_else(|r| panic!("{} does not load: {:?}", path.display(), r.diagnostics));
    let players = text
        .lines()
        .find_map(|l| l.strip_prefix("# players: "))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or(spec.game().min_players);
    let mut options = GameOptions::players(players);
    if let Some(teams) = text.lines().find_map(|l| l.strip_prefix("# teams: ")) {
        let teams = teams.split_whitespace().map(|t| t.parse().expect("a team"));
        options = options.with_teams(teams.collect());
    }
    let mut game = Game::new(&spec, &options.clone().with_turn_program(true)).expect("set-up");
    let mut twin = Game::new(&spec, &options.with_turn_program(false)).expect("set-up");
    if let Some(limit) = text
        .lines()
        .find_map(|l| l.strip_prefix("# turn_limit: "))
        .and_then(|n| n.trim().parse().ok())
    {
        game.set_turn_limit(limit);
        twin.set_turn_limit(limit);
    }
    let (mut host, mut twin_host) = (answers(&text, &spec), answers(&text, &spec));
    let (mut a, mut b) = (Vec::new(), Vec::new());
    game.start(&mut host, &mut a);
    twin.start(&mut twin_host, &mut b);
    if a != b {
        return Some(format!(
            "at the start:\n  program     {a:?}\n  interpreter {b:?}"
        ));
    }
    for act in actions(&text, &spec) {
        let (mut a, mut b) = (Vec::new(), Vec::new());
        let (ra, rb, action) = match act {
            Act::Move(action) => (
                game.apply(action, &mut host, &mut a),
                twin.apply(action, &mut twin_host, &mut b),
                format!("{action:?}"),
            ),
            Act::SetFact(fact) => (
                game.set_fact(fact, true, &mut a),
                twin.set_fact(fact, true, &mut b),
                format!("set_fact {fact:?}"),
            ),
        };
        if ra != rb || a != b || game.state() != twin.state() {
            return Some(format!(
                "after {action}:\n  program     {ra:?} {a:?}\n  interpreter {rb:?} {b:?}"
            ));
        }
    }
    None
}

fn cases() -> Vec<std::path::PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/specs/differential");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/specs/differential")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    files
}

#[test]
fn differential_cases_load() {
    for path in cases() {
        let text = std::fs::read_to_string(&path).expect("readable");
        let (spec, _) = turnspec_spec::load_str("case.toml", &text)
            .unwrap_or_else(|r| panic!("{} does not load: {:?}", path.display(), r.diagnostics));
        assert!(
            !actions(&text, &spec).is_empty(),
            "{} lists no actions",
            path.display()
        );
    }
}

#[test]
fn program_and_interpreter_agree_on_found_cases() {
    let failures: Vec<String> = cases()
        .iter()
        .filter(|p| !known(p))
        .filter_map(|p| first_difference(p).map(|d| format!("{}: {d}", p.display())))
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn known_cases_still_differ() {
    let fixed: Vec<String> = cases()
        .iter()
        .filter(|p| known(p) && first_difference(p).is_none())
        .map(|p| p.display().to_string())
        .collect();
    assert!(
        fixed.is_empty(),
        "these known cases agree now: delete their `# known:` line\n{}",
        fixed.join("\n")
    );
}
