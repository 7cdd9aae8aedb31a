//! Issue 10, families 1 and 2: every limit of the compiled model is either
//! large enough or refused at load with a located `turnspec::limit`
//! diagnostic, and deep conditions are refused instead of exhausting the
//! stack. Nothing loads "ok" and then runs a different turn.

use turnspec_spec::{Report, load_str};

use crate::common;

const HEADER: &str = "[game]\nname = \"limits\"\nplayers = { min = 2, max = 2 }\n";

/// Loads a spec that goes past a limit.
fn errors(text: &str) -> Report {
    common::load_err("limits.toml", text)
}

/// The first `turnspec::limit` diagnostic and its line.
fn limit(report: &Report) -> (String, usize) {
    let (d, (line, _)) = common::located(report, "turnspec::limit");
    (d.message.clone(), line)
}

/// Loads `text` on a 256 KiB stack, as small as simulate's worker threads
/// get, so a recursion that depends on the input would overflow here.
fn errors_on_small_stack(text: String) -> Report {
    std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(move || errors(&text))
        .expect("thread starts")
        .join()
        .expect("no stack overflow")
}

fn spec_with_skip(cond: &str) -> String {
    format!(
        "{HEADER}[[phase]]\nid = \"main\"\npriority = \"always\"\nskip = [{{ if = \"{cond}\" }}]\n"
    )
}

#[test]
fn silent_overflow_more_steps_than_the_model_holds_is_refused_where_it_happens() {
    let mut text = String::from(HEADER);
    text += "[[phase]]\nid = \"main\"\n";
    for i in 0..65_540 {
        text += &format!("[[phase.step]]\nid = \"s{i}\"\npriority = \"always\"\n");
    }
    let report = errors(&text);
    let (message, line) = limit(&report);
    assert!(
        message.contains("steps") && message.contains("65535"),
        "{message}"
    );
    // The 65,536th step: header (3 lines) + phase (2) + 3 lines per step.
    assert_eq!(line, 3 + 2 + 65_535 * 3 + 2);
}

#[test]
fn silent_overflow_counter_compared_past_what_the_state_holds_is_refused() {
    let text = format!(
        "{HEADER}[counters.c]\n[[phase]]\nid = \"main\"\npriority = \"always\"\nskip = [{{ if = \"counter.c > 70000\" }}]\n"
    );
    let (message, line) = limit(&errors(&text));
    assert!(message.contains("70000"), "{message}");
    assert_eq!(line, 8);
}

#[test]
fn silent_overflow_more_rule_citations_than_the_model_holds_is_refused() {
    let mut text = String::from(HEADER);
    text += "[[phase]]\nid = \"main\"\n";
    for i in 0..22_000 {
        text += &format!(
            "[[phase.step]]\nid = \"s{i}\"\nrule = \"a{i}\"\npriority = \"always\"\npriority_rule = \"b{i}\"\nactions = [{{ id = \"t{i}\", rule = \"c{i}\" }}]\n"
        );
    }
    let (message, _) = limit(&errors(&text));
    assert!(message.contains("rule citations"), "{message}");
}

#[test]
fn silent_overflow_repeat_count_past_what_the_state_counts_is_refused() {
    let text = format!(
        "{HEADER}[[phase]]\nid = \"main\"\npriority = \"always\"\nrepeat = {{ if = \"repeat_count < 300\" }}\n"
    );
    let report = errors(&text);
    let (d, (line, _)) = common::located(&report, "turnspec::never-ends");
    assert_eq!(line, 7);
    assert!(d.help.as_deref().unwrap_or("").contains("255"), "{d:?}");
}

#[test]
fn deep_nesting_parentheses_are_refused_without_exhausting_the_stack() {
    let depth = 50_000;
    let cond = format!("{}true{}", "(".repeat(depth), ")".repeat(depth));
    let text = format!(
        "{HEADER}[[phase]]\nid = \"main\"\npriority = \"always\"\nskip = [{{ if = \"{cond}\" }}]\n"
    );
    // Run on a small stack, as simulate's worker threads have.
    let report = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(move || errors(&text))
        .expect("thread starts")
        .join()
        .expect("no stack overflow");
    let (message, line) = limit(&report);
    assert!(message.contains("nests deeper than 64"), "{message}");
    assert_eq!(line, 7);
}

#[test]
fn deep_nesting_long_not_chains_and_and_chains_are_refused() {
    for cond in [
        "not ".repeat(40_000) + "true",
        vec!["first_turn"; 200].join(" and "),
    ] {
        let report = errors_on_small_stack(spec_with_skip(&cond));
        let (message, _) = limit(&report);
        assert!(message.contains("nest"), "{message}");
    }
}

#[test]
fn conditions_just_inside_the_depth_limit_still_load() {
    let cond = format!("{}true{}", "(".repeat(30), ")".repeat(30));
    if let Err(report) = load_str("limits.toml", &spec_with_skip(&format!("not ({cond})"))) {
        panic!("{}", report.to_short_text());
    }
}
