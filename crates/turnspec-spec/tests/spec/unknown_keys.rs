//! Unknown keys are judged against the keys of their own table, so the
//! hint never suggests the very key that is wrong, and a key that belongs
//! to another table says which (issue 14: one schema per table).

use crate::common;

fn unknown_key_help(text: &str) -> Vec<(usize, usize, String)> {
    common::each_located("keys.toml", text, |d, line, col| {
        (d.code == "turnspec::unknown-key").then(|| (line, col, d.help.clone().unwrap_or_default()))
    })
}

const SPEC: &str = r#"[game]
name = "keys"
players = { min = 2, max = 2 }
burn = true

[[phase]]
id = "main"
priority = "always"
nmae = "Main"
actions = [{ id = "a", anwser = { counter = "c" } }]
"#;

#[test]
fn a_key_of_another_table_says_where_it_belongs() {
    let found = unknown_key_help(SPEC);
    assert_eq!(found[0].0, 4);
    assert!(
        found[0].2.contains("`burn` is a key of [mana]"),
        "{}",
        found[0].2
    );
    assert!(
        !found[0].2.contains("did you mean `burn`"),
        "{}",
        found[0].2
    );
}

#[test]
fn a_misspelt_key_is_matched_against_its_own_table() {
    let found = unknown_key_help(SPEC);
    assert_eq!((found[1].0, found[1].1), (9, 1));
    assert!(
        found[1].2.contains("did you mean `name`?"),
        "{}",
        found[1].2
    );
    assert_eq!((found[2].0, found[2].1), (10, 24));
    assert!(
        found[2].2.contains("did you mean `answer`?"),
        "{}",
        found[2].2
    );
}

/// Issue 10, family 7: cost grows linearly with the input. 50,000 unknown
/// keys are each reported at their line (this took minutes when every key
/// was searched for in its table and every line counted from the top).
#[test]
fn scale_every_one_of_many_unknown_keys_is_reported_at_its_line() {
    let mut text = String::from("[game]\nname = \"keys\"\nplayers = { min = 2, max = 2 }\n");
    for i in 0..50_000 {
        text += &format!("k{i} = 1\n");
    }
    text += "[[phase]]\nid = \"main\"\npriority = \"always\"\n";
    let report = common::load_err("many.toml", &text);
    assert_eq!(report.diagnostics.len(), 50_000);
    let lines = report.to_short_text();
    assert!(
        lines.contains("many.toml:50003:1: error[turnspec::unknown-key]: unknown key `k49999`")
    );
}
