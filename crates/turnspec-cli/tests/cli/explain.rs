//! `turnspec check --explain`: every element with the file that set it and
//! its described fields (the fields `turnspec diff` compares).

use crate::common;

use common::{stdout, turnspec};
use serde_json::Value;

#[test]
fn explain_lists_each_elements_fields_with_their_rules() {
    let o = turnspec(&["check", "--explain", "games/mtg.toml"]);
    assert!(o.status.success());
    let out = stdout(&o);
    let counter = out
        .split("    counter lands_played")
        .nth(1)
        .expect("the counter is listed");
    assert!(
        counter.contains("      per: player (one count per player)\n"),
        "{out}"
    );
    assert!(counter.contains("      rule: 305.2\n"), "{out}");
    assert!(
        out.contains("      who: active player only  [305.3]\n"),
        "{out}"
    );
    assert!(out.contains("        priority: always  [503.1]\n"), "{out}");
    assert!(
        out.contains("        allows: instant, tap_ability, once_each_turn (derived)\n"),
        "{out}"
    );
}

#[test]
fn explain_json_gives_the_fields_of_each_origin() {
    let o = turnspec(&[
        "check",
        "--explain",
        "--format",
        "json",
        "games/grand-archive.toml",
    ]);
    let v: Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    let origins = v[0]["origins"].as_array().unwrap();
    let attack = origins
        .iter()
        .find(|o| o["element"] == "timing attack")
        .unwrap();
    let require = attack["fields"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"] == "require")
        .unwrap();
    assert!(
        require["value"]
            .as_str()
            .unwrap()
            .contains("not first_turn or seat == players")
    );
    assert_eq!(require["compared"], true);
}
