//! Field coverage of `diff`: for every field of every element kind, two
//! specs that differ only in that field, and `diff` must report a
//! difference naming it. A field the model gains is compared once it is
//! described (`turnspec_model::describe`); a case here keeps it so.

use turnspec_compare::{Change, SpecDiff, diff};
use turnspec_spec::{Spec, load_str};

const SETTINGS: &str = r#"
[game]
name = "Base"
edition = "one"
edition_date = "2020-01-01"
source = "https://example.invalid/base"
rule = "G1"
players = { min = 2, max = 4 }
turn_order = "clockwise"
turn_effects_end = "turn_end"

[terms]
priority = "Priority"
stack = "Stack"
active_player = "AP"

[priority]
rule = "P1"
first = "active_player"
first_rule = "P2"
after_action = "actor"
after_action_rule = "P3"
after_resolve = "active_player"
after_resolve_rule = "P4"
pass_rule = "P5"
close = "all_pass"
close_rule = "P6"
triggers = "stack"
triggers_rule = "P7"

[mana]
empties = "step"
rule = "M1"
burn = true
burn_rule = "M2"

[leaving]
rule = "L1"
active_player_goto = "end"

[variants.team]
name = "Team"
description = "Team play."
rule = "V1"
default = false

[facts.big]
name = "Big"
description = "Something big."
rule = "F1"
default = false

[counters.plays]
reset = "turn"
per = "game"
start = 0
description = "Plays this turn."
rule = "C1"

[counters.attacks]
reset = "phase"
description = "Attacks."
rule = "C2"

[timing.quick]
name = "quick"
rule = "T1"
who = "any"
who_rule = "T2"
stack = "any"
stack_rule = "T3"
during = ["main"]
during_rule = "T4"
effect = "stack"
limit = { counter = "plays", max = 2, rule = "T5" }
require = [{ if = "not first_turn", rule = "T6", explain = "not on the first turn" }]
cost = { counter = "plays", amount = 1, rule = "T7" }
ends = "phase"
ends_rule = "T8"
attributes = { speed = 1 }

[timing.bonus]
name = "bonus"
who = "active_player"
during = ["main"]
enters = "bonus"  # first

[timing.bonus2]
name = "bonus2"
who = "active_player"
during = ["main"]
enters = "bonus"  # second

[timing.attack]
name = "attack"
rule = "A1"
who = "active_player"
stack = "empty"
during = ["main"]
effect = "start_phase"
phase = "combat"

[timing.raid]
name = "raid"
rule = "RD1"
who = "active_player"
stack = "empty"
during = ["main"]
effect = "start_phase"
phase = "raid"

[timing.pushed]
name = "pushed"
rule = "U1"
who = "nobody"

[effects.extra]
kind = "extra_turn"
for = "player"
name = "Extra"
rule = "E1"
own_turn_only = true
own_turn_rule = "E2"

[effects.more]
kind = "extra_phases"
phases = ["main"]
rule = "E3"

[effects.again]
kind = "extra_step"
step = "upkeep"
after = "this_step"
rule = "E4"

[effects.skipper]
kind = "skip"
step = "draw"
rule = "E5"

[effects.lasting]
kind = "skip"
step = "upkeep"
lasting = true
rule = "E8"

[effects.turner]
kind = "reverse_turn_order"
rule = "E9"

[effects.stop]
kind = "end_turn"
goto = "end"
rule = "E6"

[effects.gift]
kind = "grant"
counter = "plays"
amount = 4
rule = "E8"

[effects.halt]
kind = "end_phase"
phase = "combat"
goto = "damage"
rule = "E7"
"#;

const BEGINNING: &str = r#"
[[phase]]
id = "beginning"
name = "Beginning"
rule = "B1"
tags = ["start"]
counts_as = "beginning"
skip = [{ if = "fact.big", rule = "B2" }]
"#;

const UPKEEP: &str = r#"
  [[phase.step]]
  id = "upkeep"
  name = "Upkeep"
  rule = "S1"
  tags = ["up"]
  priority = "always"
  priority_rule = "S2"
  actions = [
    { id = "untap", name = "Untap", rule = "S3" },
    { id = "count", name = "Count", rule = "S4", if = "not first_turn", answer = { counter = "attacks", max = 3, play = "pushed" }, play = "pushed", ends_turn_effects = false, stack_triggers = false },
    { id = "end_effects", name = "End effects", ends_turn_effects = true },
  ]
"#;

const DRAW: &str = r#"
  [[phase.step]]
  id = "draw"
  name = "Draw"
  rule = "S5"
  only_if = "not variant.team"
  skip = [{ if = "first_turn", rule = "S6" }]
  repeat = { if = "repeat_count == 0 and fact.big", rule = "S7" }
  sequence = [
    { id = "draw_card", name = "Draw a card", rule = "S8" },
    { window = "always", name = "first", rule = "S9" },
    { window = "if_pending", close = "all_pass", name = "second", rule = "S10" },
  ]
"#;

const MAIN: &str = r#"
[[phase]]
id = "main"
name = "Main"
rule = "N1"
tags = ["main"]
counts_as = "main"
priority = "always"
priority_rule = "N2"
actions = [
  { id = "refresh", name = "Refresh", rule = "N3" },
  { id = "tidy", name = "Tidy", rule = "N4" },
]
"#;

const COMBAT: &str = r#"
[[phase]]
id = "combat"
name = "Combat"
rule = "K1"
on_demand = true
  [[phase.step]]
  id = "damage"
  name = "Damage"
  rule = "K2"
  priority = "always"
"#;

const RAID: &str = r#"
[[phase]]
id = "raid"
name = "Raid"
rule = "RD2"
on_demand = true  # started by the raid timing class
  [[phase.step]]
  id = "loot"
  name = "Loot"
  priority = "always"
"#;

const BONUS: &str = r#"
[[phase]]
id = "bonus"
name = "Bonus"
optional = true
  [[phase.step]]
  id = "extra"
  priority = "always"
"#;

const REST: &str = r#"
[[phase]]
id = "rest"
name = "Rest"
rule = "R1"
only_if = "players > 1"
between_turns = false
  [[phase.step]]
  id = "nap"
  name = "Nap"
  priority = "always"
"#;

const ENDING: &str = r#"
[[phase]]
id = "ending"
name = "Ending"
rule = "D1"
  [[phase.step]]
  id = "end"
  name = "End"
  rule = "D2"
  priority = "always"
"#;

fn base() -> String {
    [
        SETTINGS, BEGINNING, UPKEEP, DRAW, MAIN, COMBAT, RAID, REST, ENDING, BONUS,
    ]
    .concat()
}

fn load(text: &str) -> Spec {
    match load_str("case.toml", text) {
        Ok((spec, _)) => spec,
        Err(report) => panic!("does not load:\n{}\n{text}", report.to_short_text()),
    }
}

fn assert_reports(d: &SpecDiff, case: &str, element: &str, field: Option<&str>) {
    assert!(
        !d.find(element, field).is_empty(),
        "{case}: no difference for {element} {field:?}; got:\n{}",
        d.to_text("base", "edited", true)
    );
}

#[test]
fn the_base_spec_does_not_differ_from_itself() {
    let s = load(&base());
    let d = diff(&s, &s);
    assert!(d.is_empty(), "{:#?}", d.entries);
}

/// (case, text in the base spec, replacement, element, field).
#[rustfmt::skip]
const CASES: &[(&str, &str, &str, &str, &str)] = &[
    // [game]
    ("game name", r#"name = "Base""#, r#"name = "Other""#, "game", "name"),
    ("game edition", r#"edition = "one""#, r#"edition = "two""#, "game", "edition"),
    ("game date", "2020-01-01", "2021-01-01", "game", "edition_date"),
    ("game source", "invalid/base", "invalid/other", "game", "source"),
    ("game rule", r#"rule = "G1""#, r#"rule = "G9""#, "game", "rule"),
    ("game min players", "min = 2", "min = 1", "game", "players"),
    ("game max players", "max = 4", "max = 6", "game", "players"),
    ("game turn order", r#""clockwise""#, r#""counterclockwise""#, "game", "turn_order"),
    ("game turn effects end", r#""turn_end""#, r#""action""#, "game", "turn_effects_end"),
    // [terms]
    ("terms priority", r#""Priority""#, r#""Opportunity""#, "terms", "priority"),
    ("terms stack", r#""Stack""#, r#""Effects Stack""#, "terms", "stack"),
    ("terms active player", r#""AP""#, r#""turn player""#, "terms", "active_player"),
    // [priority]
    ("priority rule", r#"rule = "P1""#, r#"rule = "P9""#, "priority", "rule"),
    ("priority first rule", r#""P2""#, r#""P9""#, "priority", "first"),
    ("priority after action", r#"after_action = "actor""#, r#"after_action = "active_player""#, "priority", "after_action"),
    ("priority after action rule", r#""P3""#, r#""P9""#, "priority", "after_action"),
    ("priority after resolve rule", r#""P4""#, r#""P9""#, "priority", "after_resolve"),
    ("priority pass rule", r#""P5""#, r#""P9""#, "priority", "pass"),
    ("priority close rule", r#""P6""#, r#""P9""#, "priority", "close"),
    // [mana]
    ("mana empties", r#"empties = "step""#, r#"empties = "phase""#, "mana", "empties"),
    ("mana rule", r#""M1""#, r#""M9""#, "mana", "empties"),
    ("mana burn", "burn = true", "burn = false", "mana", "burn"),
    ("mana burn rule", r#""M2""#, r#""M9""#, "mana", "burn"),
    // [leaving]
    ("leaving rule", r#""L1""#, r#""L9""#, "leaving", "active_player_goto"),
    ("leaving goto", r#"active_player_goto = "end""#, r#"active_player_goto = "upkeep""#, "leaving", "active_player_goto"),
    // [variants.ID], [facts.ID]
    ("variant name", r#"name = "Team""#, r#"name = "Teams""#, "variant team", "name"),
    ("variant description", "Team play.", "Teams play.", "variant team", "description"),
    ("variant rule", r#""V1""#, r#""V9""#, "variant team", "rule"),
    ("variant default", "default = false\n\n[facts", "default = true\n\n[facts", "variant team", "default"),
    ("fact name", r#"name = "Big""#, r#"name = "Huge""#, "fact big", "name"),
    ("fact description", "Something big.", "Something huge.", "fact big", "description"),
    ("fact rule", r#""F1""#, r#""F9""#, "fact big", "rule"),
    ("fact default", "default = false\n\n[counters", "default = true\n\n[counters", "fact big", "default"),
    // [counters.ID]
    ("counter reset", r#"reset = "turn""#, r#"reset = "step""#, "counter plays", "reset"),
    ("counter per", r#"per = "game""#, r#"per = "player""#, "counter plays", "per"),
    ("counter description", "Plays this turn.", "Plays.", "counter plays", "description"),
    ("counter rule", r#""C1""#, r#""C9""#, "counter plays", "rule"),
    // [timing.ID]
    ("timing name", r#"name = "quick""#, r#"name = "fast""#, "timing quick", "name"),
    ("timing rule", r#""T1""#, r#""T9""#, "timing quick", "rule"),
    ("timing who", r#"who = "any""#, r#"who = "non_active_player""#, "timing quick", "who"),
    ("timing who rule", r#""T2""#, r#""T9""#, "timing quick", "who"),
    ("timing stack", r#"stack = "any""#, r#"stack = "empty""#, "timing quick", "stack"),
    ("timing stack rule", r#""T3""#, r#""T9""#, "timing quick", "stack"),
    ("timing during", r#"during = ["main"]
during_rule"#, r#"during = ["main", "up"]
during_rule"#, "timing quick", "during"),
    ("timing during rule", r#""T4""#, r#""T9""#, "timing quick", "during"),
    ("timing effect", r#"effect = "stack""#, r#"effect = "special""#, "timing quick", "effect"),
    ("timing limit max", "max = 2", "max = 3", "timing quick", "limit"),
    ("timing limit counter", r#"counter = "plays", max = 2"#, r#"counter = "attacks", max = 2"#, "timing quick", "limit"),
    ("timing limit rule", r#""T5""#, r#""T9""#, "timing quick", "limit"),
    ("timing require if", r#"if = "not first_turn", rule = "T6""#, r#"if = "turn > 2", rule = "T6""#, "timing quick", "require"),
    ("timing require rule", r#""T6""#, r#""T9""#, "timing quick", "require"),
    ("timing require explain", "not on the first turn", "never on the first turn", "timing quick", "require"),
    // [effects.ID]
    ("effect name", r#"name = "Extra""#, r#"name = "More""#, "effect extra", "name"),
    ("effect rule", r#""E1""#, r#""E9""#, "effect extra", "rule"),
    ("effect for", r#"for = "player""#, r#"for = "each_player""#, "effect extra", "kind"),
    ("effect own turn only", "own_turn_only = true", "own_turn_only = false", "effect extra", "own_turn_only"),
    ("effect own turn rule", r#""E2""#, r#""E9""#, "effect extra", "own_turn_only"),
    ("effect phases", r#"phases = ["main"]"#, r#"phases = ["main", "ending"]"#, "effect more", "kind"),
    ("effect step", r#"step = "upkeep"
after"#, r#"step = "draw"
after"#, "effect again", "kind"),
    ("effect after", r#"after = "this_step""#, r#"after = "this_phase""#, "effect again", "kind"),
    ("effect skip step", r#"step = "draw"
rule = "E5""#, r#"phase = "main"
rule = "E5""#, "effect skipper", "kind"),
    ("effect skip turn", r#"step = "draw"
rule = "E5""#, r#"turn = true
rule = "E5""#, "effect skipper", "kind"),
    ("effect lasting", "lasting = true\nrule", "lasting = false\nrule", "effect lasting", "kind"),
    ("effect lasting for", "lasting = true\nrule", "lasting = true\nfor = \"each_player\"\nrule", "effect lasting", "kind"),
    ("effect reverse to control", r#"kind = "reverse_turn_order""#, r#"kind = "control_turn""#, "effect turner", "kind"),
    ("effect goto", "\ngoto = \"end\"", "\ngoto = \"upkeep\"", "effect stop", "kind"),
    ("effect end phase goto", r#"goto = "damage"
"#, "", "effect halt", "kind"),
    // features beyond the priority stack
    ("priority triggers", r#"triggers = "stack""#, r#"triggers = "bag""#, "priority", "triggers"),
    ("priority triggers rule", r#""P7""#, r#""P97""#, "priority", "triggers"),
    ("counter start", "start = 0", "start = 2", "counter plays", "start"),
    ("timing cost amount", "amount = 1, rule", "amount = 2, rule", "timing quick", "cost"),
    ("timing cost rule", r#""T7""#, r#""T97""#, "timing quick", "cost"),
    ("timing ends", r#"ends = "phase""#, r#"ends = "turn""#, "timing quick", "ends"),
    ("timing ends rule", r#""T8""#, r#""T98""#, "timing quick", "ends"),
    ("timing attributes", "speed = 1", "speed = 2", "timing quick", "attributes"),
    ("timing enters", r#"enters = "bonus"  # second"#, "", "timing bonus2", "enters"),
    ("effect grant", "amount = 4", "amount = 5", "effect gift", "kind"),
    ("phase between turns", "between_turns = false", "between_turns = true", "phase rest", "occurs"),
    ("step window acts", r#"{ window = "always", name = "first""#, r#"{ window = "always", acts = "active_player", name = "first""#, "step draw", r#"window "first""#),
    // [[phase]]
    ("phase name", r#"name = "Beginning""#, r#"name = "Start""#, "phase beginning", "name"),
    ("phase rule", r#""B1""#, r#""B9""#, "phase beginning", "rule"),
    ("phase tags", r#"tags = ["start"]"#, r#"tags = ["start", "early"]"#, "phase beginning", "tags"),
    ("phase counts as", r#"counts_as = "beginning""#, r#"counts_as = "opening""#, "phase beginning", "counts_as"),
    ("phase skip if", r#"if = "fact.big", rule = "B2""#, r#"if = "not fact.big", rule = "B2""#, "phase beginning", "skip"),
    ("phase skip rule", r#""B2""#, r#""B9""#, "phase beginning", "skip"),
    ("phase only if", r#"only_if = "players > 1""#, r#"only_if = "players > 2""#, "phase rest", "only_if"),
    ("phase without steps", "  [[phase.step]]\n  id = \"nap\"\n  name = \"Nap\"\n", "", "phase rest", "steps"),
    ("phase priority", r#"priority = "always"
priority_rule = "N2""#, r#"priority = "if_pending"
priority_rule = "N2""#, "phase main", "priority"),
    ("phase priority rule", r#""N2""#, r#""N9""#, "phase main", "priority"),
    ("phase repeat", r#"priority_rule = "N2""#, r#"priority_rule = "N2"
repeat = { if = "repeat_count == 0", rule = "N5" }"#, "phase main", "repeat"),
    ("phase action order", r#"  { id = "refresh", name = "Refresh", rule = "N3" },
  { id = "tidy", name = "Tidy", rule = "N4" },"#, r#"  { id = "tidy", name = "Tidy", rule = "N4" },
  { id = "refresh", name = "Refresh", rule = "N3" },"#, "phase main", "order"),
    // [[phase.step]]
    ("step name", r#"name = "Upkeep""#, r#"name = "Upkeep step""#, "step upkeep", "name"),
    ("step rule", r#""S1""#, r#""S9""#, "step upkeep", "rule"),
    ("step tags", r#"tags = ["up"]"#, r#"tags = ["up", "early"]"#, "step upkeep", "tags"),
    ("step priority", r#"priority = "always"
  priority_rule = "S2""#, r#"priority = "if_pending"
  priority_rule = "S2""#, "step upkeep", "priority"),
    ("step priority rule", r#""S2""#, r#""S9""#, "step upkeep", "priority"),
    ("step only if", r#"only_if = "not variant.team""#, r#"only_if = "variant.team""#, "step draw", "only_if"),
    ("step skip if", r#"if = "first_turn", rule = "S6""#, r#"if = "starting_player", rule = "S6""#, "step draw", "skip"),
    ("step skip rule", r#""S6""#, r#""S9""#, "step draw", "skip"),
    ("step repeat if", "repeat_count == 0 and fact.big", "repeat_count == 0", "step draw", "repeat"),
    ("step repeat rule", r#""S7""#, r#""S9""#, "step draw", "repeat"),
    ("step window name", r#"name = "first""#, r#"name = "opening""#, "step draw", "window 1"),
    ("step window rule", r#""S9""#, r#""S99""#, "step draw", r#"window "first""#),
    ("step window mode", r#"window = "if_pending""#, r#"window = "always""#, "step draw", r#"window "second""#),
    ("step window close", r#"close = "all_pass", name"#, r#"close = "stack_empty", name"#, "step draw", r#"window "second""#),
    ("step window added", r#"rule = "S10" },"#, r#"rule = "S10" },
    { window = "always", name = "third" },"#, "step draw", "window 3"),
    ("step order", r#"    { id = "draw_card", name = "Draw a card", rule = "S8" },
    { window = "always", name = "first", rule = "S9" },"#, r#"    { window = "always", name = "first", rule = "S9" },
    { id = "draw_card", name = "Draw a card", rule = "S8" },"#, "step draw", "order"),
    // turn-based actions
    ("action name", r#"name = "Untap""#, r#"name = "Untap all""#, "action untap", "name"),
    ("action rule", r#""S3""#, r#""S9""#, "action untap", "rule"),
    ("action if", r#"if = "not first_turn", answer"#, r#"if = "turn > 1", answer"#, "action count", "condition"),
    ("action answer counter", r#"answer = { counter = "attacks""#, r#"answer = { counter = "plays""#, "action count", "answer"),
    ("action answer max", "max = 3", "max = 5", "action count", "answer"),
    ("action answer play", r#"max = 3, play = "pushed" }"#, "max = 3 }", "action count", "answer"),
    ("action play", r#"}, play = "pushed", ends"#, "}, ends", "action count", "play"),
    ("action ends turn effects", "ends_turn_effects = false", "ends_turn_effects = true", "action count", "ends_turn_effects"),
    ("action stack triggers", "stack_triggers = false", "stack_triggers = true", "action count", "stack_triggers"),
];

/// Cases that take more than one edit: (case, edits in order, element,
/// field).
type Edits = &'static [(&'static str, &'static str)];
const MULTI: &[(&str, Edits, &str, &str)] = &[
    (
        "timing start phase",
        &[
            (
                "phase = \"combat\"\n\n[timing.raid]",
                "phase = \"raid\"\n\n[timing.raid]",
            ),
            (
                "phase = \"raid\"\n\n[timing.pushed]",
                "phase = \"combat\"\n\n[timing.pushed]",
            ),
        ],
        "timing attack",
        "effect",
    ),
    (
        "phase optional",
        &[
            ("optional = true", "optional = false"),
            (r#"enters = "bonus"  # first"#, ""),
            (r#"enters = "bonus"  # second"#, ""),
        ],
        "phase bonus",
        "occurs",
    ),
    (
        "phase on demand",
        &[
            (
                "on_demand = true  # started",
                "on_demand = false  # started",
            ),
            (
                "effect = \"start_phase\"\nphase = \"raid\"",
                "effect = \"special\"",
            ),
        ],
        "phase raid",
        "occurs",
    ),
];

#[test]
fn every_field_of_every_element_is_compared() {
    let base_text = base();
    let base = load(&base_text);
    let mut failures = Vec::new();
    let single = CASES
        .iter()
        .map(|(case, from, to, element, field)| (*case, vec![(*from, *to)], *element, *field));
    let multi = MULTI
        .iter()
        .map(|(case, edits, element, field)| (*case, edits.to_vec(), *element, *field));
    for (case, edits, element, field) in single.chain(multi) {
        let mut text = base_text.clone();
        for (from, to) in edits {
            assert_eq!(
                text.matches(from).count(),
                1,
                "{case}: `{from}` must occur once in the spec it edits"
            );
            text = text.replacen(from, to, 1);
        }
        let edited = load(&text);
        let d = diff(&base, &edited);
        if d.find(element, Some(field)).is_empty() {
            failures.push(format!(
                "{case}: no difference for {element} · {field}; got:\n{}",
                d.to_text("base", "edited", true)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Issue 14: Grand Archive with and without its `[leaving]` table was
/// reported as 0 differences.
#[test]
fn a_leaving_table_present_or_absent_is_a_difference() {
    let with = base();
    let without = with.replacen(
        "[leaving]\nrule = \"L1\"\nactive_player_goto = \"end\"\n",
        "",
        1,
    );
    assert_ne!(with, without);
    let d = diff(&load(&with), &load(&without));
    assert_reports(&d, "leaving removed", "leaving", Some("active_player_goto"));
    let e = d.find("leaving", None)[0];
    assert_eq!(e.change, Change::Changed);
    assert_eq!(e.left_rule.as_deref(), Some("L1"));
    assert_eq!(e.right_rule, None);
    assert!(!e.citation_only);
}

/// Issue 14: a land counter kept per player in one Magic spec and per game
/// in the other was reported as 0 differences.
#[test]
fn a_counter_per_player_or_per_game_is_a_difference() {
    let per_game = base();
    for per_player in [
        per_game.replacen(r#"per = "game""#, r#"per = "player""#, 1),
        // Without `per` a counter is kept per game.
        per_game.replacen(
            "reset = \"phase\"\n",
            "reset = \"phase\"\nper = \"player\"\n",
            1,
        ),
    ] {
        let d = diff(&load(&per_game), &load(&per_player));
        assert_eq!(d.semantic().count(), 1, "{:#?}", d.entries);
        let e = d.semantic().next().unwrap();
        assert_eq!(e.field.as_deref(), Some("per"));
        assert!(e.left.as_deref().unwrap().starts_with("game"));
        assert!(e.right.as_deref().unwrap().starts_with("player"));
    }
}

#[test]
fn moves_are_reported_as_moves() {
    let base_text = base();
    let base = load(&base_text);
    let cases = [
        // A phase earlier in the turn.
        (
            [
                SETTINGS, REST, BEGINNING, UPKEEP, DRAW, MAIN, COMBAT, RAID, ENDING, BONUS,
            ]
            .concat(),
            "phase rest",
            "position",
        ),
        // Two steps swapped: the one left out of the common order moved.
        (
            [
                SETTINGS, BEGINNING, DRAW, UPKEEP, MAIN, COMBAT, RAID, REST, ENDING, BONUS,
            ]
            .concat(),
            "step upkeep",
            "position",
        ),
        // A step into another phase.
        (
            [
                SETTINGS, BEGINNING, UPKEEP, MAIN, COMBAT, RAID, REST, DRAW, ENDING, BONUS,
            ]
            .concat(),
            "step draw",
            "phase",
        ),
        // A turn-based action into another step.
        (
            base_text
                .replacen(
                    r#"    { id = "untap", name = "Untap", rule = "S3" },"#,
                    "",
                    1,
                )
                .replacen(
                    r#"  { id = "tidy", name = "Tidy", rule = "N4" },"#,
                    r#"  { id = "tidy", name = "Tidy", rule = "N4" },
  { id = "untap", name = "Untap", rule = "S3" },"#,
                    1,
                ),
            "action untap",
            "step",
        ),
    ];
    for (text, element, field) in cases {
        let d = diff(&base, &load(&text));
        assert_reports(&d, element, element, Some(field));
        let e = d.find(element, Some(field))[0];
        assert_eq!(e.change, Change::Moved, "{e:?}");
    }
}

/// `diff` matches fields by name: within one element no two may share one.
#[test]
fn field_names_are_unique_within_each_element() {
    let mut specs = vec![load(&base())];
    for file in ["mtg.toml", "mtg-classic.toml", "grand-archive.toml"] {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../games")
            .join(file);
        specs.push(turnspec_scenario::load_spec_file(&path).unwrap().0);
    }
    for spec in &specs {
        for (element, fields) in turnspec_spec::describe::every_element(spec) {
            let mut names: Vec<&str> = fields.iter().map(|f| f.name).collect();
            names.sort();
            let count = names.len();
            names.dedup();
            assert_eq!(names.len(), count, "{element}: {fields:#?}");
        }
    }
}
