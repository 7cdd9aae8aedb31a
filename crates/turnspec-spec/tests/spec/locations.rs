//! Issue 10, family 8: messages point at the right place and say the right
//! thing, whatever form a string takes and whatever type a value has.

use crate::common;

fn problems(text: &str) -> Vec<(String, usize, usize, String)> {
    common::each_located("where.toml", text, |d, line, col| {
        Some((d.code.to_string(), line, col, d.message.clone()))
    })
}

const HEADER: &str = "[game]\nname = \"x\"\nplayers = { min = 2, max = 2 }\n[[phase]]\nid = \"main\"\npriority = \"always\"\n";

#[test]
fn messages_in_multi_line_escaped_and_literal_conditions_point_at_the_word() {
    let text = format!(
        "{HEADER}skip = [{{ if = \"\"\"\nfirst_turn and\n  bogus_name\"\"\" }}, {{ if = \"\\\"x\\\" == 1\" }}, {{ if = 'first_turn and nada' }}, {{ if = \"\\u00e9t\\u00e9 or nope\" }}]\n"
    );
    let found = problems(&text);
    let at: Vec<(usize, usize)> = found.iter().map(|p| (p.1, p.2)).collect();
    // `bogus_name` on the third line of the multi-line string.
    assert_eq!(at[0], (9, 3), "{found:?}");
    // The escaped quote: the backslash that starts it, on the same line.
    let line9 = text.lines().nth(8).unwrap();
    assert_eq!(at[1], (9, line9.find("\\\"x").unwrap() + 1), "{found:?}");
    assert_eq!(at[2], (9, line9.find("nada").unwrap() + 1), "{found:?}");
    assert!(found[3].3.contains("unexpected character"), "{found:?}");
    assert_eq!(at[3], (9, line9.find("\\u00e9t").unwrap() + 1), "{found:?}");
}

#[test]
fn messages_for_a_value_of_the_wrong_type_name_the_expected_type() {
    let found =
        problems("phase = \"main\"\n[game]\nname = \"x\"\nplayers = { min = 2, max = 2 }\n");
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!((found[0].1, found[0].2), (1, 9));
    assert_eq!(found[0].0, "turnspec::schema");
    assert!(found[0].3.contains("expected an array"), "{found:?}");
    assert!(found[0].3.contains("[[name]]"), "{found:?}");
}
