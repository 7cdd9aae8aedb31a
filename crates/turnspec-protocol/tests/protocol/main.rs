//! The protocol library driven line by line: every request, typed errors
//! for malformed and refused requests with the game unchanged, snapshots,
//! the bounded trace, and the schema copy in docs/.

use std::sync::LazyLock;

use proptest::prelude::*;
use serde_json::{Value, json};
use turnspec_protocol::{MAX_LINE_BYTES, MAX_TRACE_EVENTS, Session};
use turnspec_spec::Spec;

fn root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn load(name: &str) -> Spec {
    let games = root().join("games");
    let text = std::fs::read_to_string(games.join(name)).unwrap();
    let mut read = |base: &str, _from: &str| {
        let p = games.join(base);
        let text = std::fs::read_to_string(&p).map_err(|e| e.to_string())?;
        Ok((p.display().to_string(), text))
    };
    turnspec_spec::load_with(name, &text, &mut read).unwrap().0
}

static MTG: LazyLock<Spec> = LazyLock::new(|| load("mtg.toml"));

fn send(s: &mut Session, request: Value) -> Value {
    let line = s.handle_line(&request.to_string());
    assert!(!line.contains('\n'), "one line: {line}");
    serde_json::from_str(&line).unwrap()
}

fn ok(s: &mut Session, request: Value) -> Value {
    let r = send(s, request.clone());
    assert_eq!(r["v"], 1);
    assert!(r.get("error").is_none(), "{request} -> {r}");
    r["ok"].clone()
}

fn err(s: &mut Session, request: Value) -> Value {
    let r = send(s, request.clone());
    assert!(r.get("ok").is_none(), "{request} -> {r}");
    r["error"].clone()
}

fn started(players: u8) -> Session {
    let mut s = Session::new(MTG.clone());
    ok(
        &mut s,
        json!({"v": 1, "id": 1, "op": "new_game", "players": players}),
    );
    s
}

fn snapshot(s: &Session) -> Vec<u8> {
    s.game().unwrap().to_bytes()
}

#[test]
fn hello_names_the_protocol_and_the_spec() {
    let mut s = Session::new(MTG.clone());
    let r = send(&mut s, json!({"v": 1, "id": "a", "op": "hello"}));
    assert_eq!(r["id"], "a");
    assert_eq!(r["ok"]["protocol"], 1);
    assert_eq!(r["ok"]["spec"], "Magic: The Gathering");
    assert_eq!(r["ok"]["snapshot_format"], 2);
    assert_eq!(r["ok"]["fingerprint"].as_str().unwrap().len(), 16);
    assert_eq!(r["ok"]["requests"].as_array().unwrap().len(), 8);
    // `version` is the same request.
    let v = ok(&mut s, json!({"v": 1, "op": "version"}));
    assert_eq!(v["protocol"], 1);
}

#[test]
fn an_all_pass_turn_played_one_pass_at_a_time() {
    let mut s = Session::new(MTG.clone());
    let state = ok(
        &mut s,
        json!({"v": 1, "id": 1, "op": "new_game", "players": 2}),
    );
    assert_eq!(state["status"], "running");
    assert_eq!(state["turn"], 1);
    assert_eq!(state["holder"], "P1");
    let mut passes = 0;
    loop {
        let legal = ok(&mut s, json!({"v": 1, "op": "legal_moves"}));
        assert_eq!(legal["moves"][0]["kind"], "pass");
        let holder = legal["player"].clone();
        let r = ok(
            &mut s,
            json!({"v": 1, "id": passes, "op": "apply", "move": {"kind": "pass", "by": holder}}),
        );
        passes += 1;
        if r["state"]["turn"] == 3 {
            break;
        }
        assert!(passes < 200);
    }
    let trace = ok(&mut s, json!({"v": 1, "op": "trace"}));
    let events = trace["events"].as_array().unwrap();
    assert_eq!(events[0]["event"], "turn_began");
    assert!(
        events
            .iter()
            .any(|e| e["event"] == "step_began" && e["step"] == "upkeep")
    );
    assert_eq!(trace["first"], 0);
    assert_eq!(trace["next"], events.len() as u64);
    // Drained: the next `trace` has nothing new; `since` reads again.
    let again = ok(&mut s, json!({"v": 1, "op": "trace"}));
    assert_eq!(again["events"], json!([]));
    let since = ok(&mut s, json!({"v": 1, "op": "trace", "since": 2}));
    assert_eq!(since["events"][0], events[2]);
}

#[test]
fn legal_moves_list_plays_in_the_main_phase() {
    let mut s = started(2);
    for _ in 0..100 {
        let st = ok(&mut s, json!({"v": 1, "op": "state"}));
        if st["step"] == "precombat_main" || st["phase"] == "precombat_main" {
            break;
        }
        ok(
            &mut s,
            json!({"v": 1, "op": "apply", "move": {"kind": "pass"}}),
        );
    }
    let legal = ok(&mut s, json!({"v": 1, "op": "legal_moves", "player": "P1"}));
    let timings: Vec<&str> = legal["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|m| m["timing"].as_str())
        .collect();
    assert!(timings.contains(&"sorcery"), "{legal}");
    // The other player holds nothing: no moves.
    let other = ok(&mut s, json!({"v": 1, "op": "legal_moves", "player": "P2"}));
    assert_eq!(other["moves"], json!([]));
    // A play goes on the stack; the state shows it.
    let r = ok(
        &mut s,
        json!({"v": 1, "op": "apply", "move": {"kind": "play", "timing": "sorcery", "label": 7}}),
    );
    assert_eq!(r["state"]["stack"][0]["label"], 7);
    assert_eq!(r["state"]["stack"][0]["kind"], "sorcery");
}

#[test]
fn an_illegal_move_is_a_typed_error_with_its_rule_and_changes_nothing() {
    let mut s = started(2);
    let before = snapshot(&s);
    let e = err(
        &mut s,
        json!({"v": 1, "id": 9, "op": "apply", "move": {"kind": "pass", "by": "P2"}}),
    );
    assert_eq!(e["code"], "rule::not_holder");
    assert!(e["rule"].is_string(), "{e}");
    assert_eq!(snapshot(&s), before);
    // A sorcery in the upkeep.
    let e = err(
        &mut s,
        json!({"v": 1, "op": "apply", "move": {"kind": "play", "timing": "sorcery"}}),
    );
    assert!(e["code"].as_str().unwrap().starts_with("rule::"), "{e}");
    assert_eq!(snapshot(&s), before);
    // Nothing new in the trace either.
    ok(&mut s, json!({"v": 1, "op": "trace"}));
    let _ = err(
        &mut s,
        json!({"v": 1, "op": "apply", "move": {"kind": "pass", "by": "P2"}}),
    );
    assert_eq!(
        ok(&mut s, json!({"v": 1, "op": "trace"}))["events"],
        json!([])
    );
}

#[test]
fn malformed_requests_are_typed_errors_and_change_nothing() {
    let mut s = started(2);
    let before = snapshot(&s);
    let cases: &[(&str, &str)] = &[
        ("", "protocol::malformed_json"),
        ("not json", "protocol::malformed_json"),
        ("[1,2]", "protocol::malformed_json"),
        ("{\"v\":1,\"op\":\"apply\"", "protocol::malformed_json"),
        (r#"{"op":"state"}"#, "protocol::unsupported_version"),
        (r#"{"v":2,"op":"state"}"#, "protocol::unsupported_version"),
        (r#"{"v":"1","op":"state"}"#, "protocol::unsupported_version"),
        (r#"{"v":1}"#, "protocol::bad_request"),
        (r#"{"v":1,"op":"fly"}"#, "protocol::bad_request"),
        (r#"{"v":1,"op":"state","extra":1}"#, "protocol::bad_request"),
        (r#"{"v":1,"op":"apply"}"#, "protocol::bad_request"),
        (
            r#"{"v":1,"op":"apply","move":{"kind":"dance"}}"#,
            "protocol::bad_request",
        ),
        (
            r#"{"v":1,"op":"apply","move":{"kind":"pass","by":3}}"#,
            "protocol::bad_request",
        ),
        (
            r#"{"v":1,"op":"apply","move":{"kind":"pass","by":"P9"}}"#,
            "protocol::unknown_player",
        ),
        (
            r#"{"v":1,"op":"apply","move":{"kind":"play","timing":"warp"}}"#,
            "protocol::unknown_name",
        ),
        (
            r#"{"v":1,"op":"apply","move":{"kind":"set_fact","fact":"nope"}}"#,
            "protocol::unknown_name",
        ),
        (
            r#"{"v":1,"op":"apply","move":{"kind":"play","timing":"instant","label":-1}}"#,
            "protocol::bad_request",
        ),
        (
            r#"{"v":1,"op":"legal_moves","player":"X"}"#,
            "protocol::unknown_player",
        ),
        (
            r#"{"v":1,"op":"restore","snapshot":"zz"}"#,
            "protocol::bad_snapshot",
        ),
        (
            r#"{"v":1,"op":"restore","snapshot":"54534753"}"#,
            "protocol::bad_snapshot",
        ),
        (r#"{"v":1,"id":[1],"op":"state"}"#, "protocol::bad_request"),
        (r#"{"v":1,"op":"new_game","players":0}"#, "protocol::setup"),
        (
            r#"{"v":1,"op":"new_game","variants":["nope"]}"#,
            "protocol::unknown_name",
        ),
    ];
    for (line, code) in cases {
        let r: Value = serde_json::from_str(&s.handle_line(line)).unwrap();
        assert_eq!(r["error"]["code"], *code, "{line} -> {r}");
        assert!(r["error"]["message"].is_string());
        assert_eq!(snapshot(&s), before, "{line} changed the game");
    }
    // The id is echoed when it could be read.
    let r: Value = serde_json::from_str(&s.handle_line(r#"{"v":1,"id":"x7","op":"fly"}"#)).unwrap();
    assert_eq!(r["id"], "x7");
    let long = format!(
        r#"{{"v":1,"op":"state","pad":"{}"}}"#,
        "a".repeat(MAX_LINE_BYTES)
    );
    let r: Value = serde_json::from_str(&s.handle_line(&long)).unwrap();
    assert_eq!(r["error"]["code"], "protocol::line_too_long");
    let r: Value = serde_json::from_str(&turnspec_protocol::line_too_long(2 << 20)).unwrap();
    assert_eq!(r["error"]["code"], "protocol::line_too_long");
}

#[test]
fn requests_before_a_game_ask_for_one() {
    let mut s = Session::new(MTG.clone());
    for op in ["state", "snapshot", "trace", "legal_moves"] {
        assert_eq!(
            err(&mut s, json!({"v": 1, "op": op}))["code"],
            "protocol::no_game"
        );
    }
    let e = err(
        &mut s,
        json!({"v": 1, "op": "apply", "move": {"kind": "pass"}}),
    );
    assert_eq!(e["code"], "protocol::no_game");
}

#[test]
fn snapshot_and_restore_round_trip() {
    let mut s = started(2);
    for _ in 0..5 {
        ok(
            &mut s,
            json!({"v": 1, "op": "apply", "move": {"kind": "pass"}}),
        );
    }
    let snap = ok(&mut s, json!({"v": 1, "op": "snapshot"}));
    let hex = snap["snapshot"].as_str().unwrap().to_string();
    assert_eq!(snap["format"], 2);
    let at = ok(&mut s, json!({"v": 1, "op": "state"}));
    let mut after = Vec::new();
    for _ in 0..20 {
        after.push(ok(
            &mut s,
            json!({"v": 1, "op": "apply", "move": {"kind": "pass"}}),
        ));
    }
    let restored = ok(&mut s, json!({"v": 1, "op": "restore", "snapshot": hex}));
    assert_eq!(restored, at);
    for a in &after {
        let r = ok(
            &mut s,
            json!({"v": 1, "op": "apply", "move": {"kind": "pass"}}),
        );
        assert_eq!(&r, a);
    }
    // A snapshot of another spec is refused.
    let mut other = Session::new(load("lorcana.toml"));
    ok(&mut other, json!({"v": 1, "op": "new_game"}));
    let e = err(
        &mut other,
        json!({"v": 1, "op": "restore", "snapshot": hex}),
    );
    assert_eq!(e["code"], "protocol::bad_snapshot");
    assert!(
        e["message"].as_str().unwrap().contains("another spec"),
        "{e}"
    );
}

#[test]
fn pass_all_is_all_or_nothing_and_answers_are_queued() {
    let mut s = started(2);
    let r = ok(
        &mut s,
        json!({"v": 1, "op": "apply", "move": {"kind": "pass_all"}}),
    );
    assert!(r["events"].as_u64().unwrap() > 0);
    let q = ok(
        &mut s,
        json!({"v": 1, "op": "apply", "move": {"kind": "answer", "action": "declare_attackers", "value": 1, "triggers": [5]}}),
    );
    assert_eq!(q["state"]["queued_answers"], 1);
    assert_eq!(q["events"], 0);
    let e = err(
        &mut s,
        json!({"v": 1, "op": "apply", "move": {"kind": "answer", "action": "fly"}}),
    );
    assert_eq!(e["code"], "protocol::unknown_name");
    // Play on to the declare-attackers step: the answer is used.
    for _ in 0..60 {
        let r = ok(
            &mut s,
            json!({"v": 1, "op": "apply", "move": {"kind": "pass"}}),
        );
        if r["state"]["queued_answers"] == 0 {
            break;
        }
    }
    let trace = ok(&mut s, json!({"v": 1, "op": "trace"}));
    assert!(
        trace["events"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["event"] == "turn_action"
                && e["action"] == "declare_attackers"
                && e["answer"] == 1),
        "{trace}"
    );
}

#[test]
fn host_commands_facts_effects_and_endings() {
    let mut s = started(2);
    let spec = &*MTG;
    if let Some(f) = spec.facts().iter().next() {
        let r = ok(
            &mut s,
            json!({"v": 1, "op": "apply", "move": {"kind": "set_fact", "fact": f.id}}),
        );
        assert!(r["events"].as_u64().unwrap() >= 1);
        ok(
            &mut s,
            json!({"v": 1, "op": "apply", "move": {"kind": "clear_fact", "fact": f.id}}),
        );
    }
    ok(
        &mut s,
        json!({"v": 1, "op": "apply", "move": {"kind": "trigger", "label": 3, "by": "P2"}}),
    );
    ok(
        &mut s,
        json!({"v": 1, "op": "apply", "move": {"kind": "add_mana", "by": "P1", "amount": 2}}),
    );
    let ending = spec.endings().iter().next().unwrap();
    let r = ok(
        &mut s,
        json!({"v": 1, "op": "apply", "move": {"kind": "declare_ending", "ending": ending.id, "by": "P2"}}),
    );
    assert_eq!(r["state"]["status"], "over", "{r}");
    assert!(r["state"]["outcome"]["winners"].is_array());
    // Once over, moves are refused with the engine's reason.
    let e = err(
        &mut s,
        json!({"v": 1, "op": "apply", "move": {"kind": "pass", "by": "P1"}}),
    );
    assert_eq!(e["code"], "rule::not_running");
}

#[test]
fn delayed_triggers_durations_and_lasting_effects() {
    let mut s = started(2);
    let apply = |s: &mut Session, m: Value| send(s, json!({"v": 1, "op": "apply", "move": m}));
    // A delayed trigger at P1's next upkeep, and one at both places: refused.
    let r = apply(
        &mut s,
        json!({"kind": "delay_trigger", "label": 4, "by": "P1", "step": "upkeep", "own_turn": true}),
    );
    assert!(r.get("ok").is_some(), "{r}");
    let r = apply(
        &mut s,
        json!({"kind": "delay_trigger", "label": 4, "by": "P1", "step": "upkeep", "phase": "beginning"}),
    );
    assert_eq!(r["error"]["code"], "protocol::bad_request");
    let r = apply(
        &mut s,
        json!({"kind": "delay_trigger", "label": 4, "by": "P1", "step": "nowhere"}),
    );
    assert_eq!(r["error"]["code"], "protocol::unknown_name");
    // Durations: until end of turn; bound to a player's turns.
    assert!(
        apply(
            &mut s,
            json!({"kind": "duration", "label": 8, "scope": "turn"})
        )
        .get("ok")
        .is_some()
    );
    let r = apply(
        &mut s,
        json!({"kind": "duration", "label": 9, "scope": "through_next_turn", "player": "P2"}),
    );
    assert!(r.get("ok").is_some(), "{r}");
    let r = apply(
        &mut s,
        json!({"kind": "duration", "label": 9, "scope": "until_next"}),
    );
    assert_eq!(r["error"]["code"], "protocol::bad_request");
    let r = apply(
        &mut s,
        json!({"kind": "duration", "label": 9, "scope": "forever"}),
    );
    assert_eq!(r["error"]["code"], "protocol::bad_request");
    let r = apply(&mut s, json!({"kind": "end_duration", "label": 1234}));
    assert_eq!(r["error"]["code"], "rule::no_such_duration");
    assert!(
        apply(&mut s, json!({"kind": "end_duration", "label": 9}))
            .get("ok")
            .is_some()
    );
    // A lasting skip, ended; another player controlling a turn.
    assert!(
        apply(
            &mut s,
            json!({"kind": "effect", "effect": "skip_upkeeps", "by": "P2"})
        )
        .get("ok")
        .is_some()
    );
    assert!(
        apply(
            &mut s,
            json!({"kind": "end_effect", "effect": "skip_upkeeps", "by": "P2"})
        )
        .get("ok")
        .is_some()
    );
    let r = apply(
        &mut s,
        json!({"kind": "effect_on", "effect": "control_turn", "by": "P1", "target": "P2"}),
    );
    assert!(r.get("ok").is_some(), "{r}");
    assert!(
        apply(
            &mut s,
            json!({"kind": "pending_trigger", "label": 6, "by": "P2"})
        )
        .get("ok")
        .is_some()
    );
    // Play on to P1's next upkeep: the turn-long duration expired, the
    // delayed trigger triggered.
    for _ in 0..200 {
        let st = ok(
            &mut s,
            json!({"v": 1, "op": "apply", "move": {"kind": "pass"}}),
        );
        if st["state"]["turn"] == 3 && st["state"]["step"] == "upkeep" {
            break;
        }
    }
    let trace = ok(&mut s, json!({"v": 1, "op": "trace"}));
    let events = trace["events"].as_array().unwrap();
    assert!(
        events
            .iter()
            .any(|e| e["event"] == "expired" && e["label"] == 8),
        "{trace}"
    );
    assert!(
        events
            .iter()
            .any(|e| e["event"] == "trigger_put" && e["label"] == 4),
        "{trace}"
    );
    assert!(
        events.iter().any(|e| e["event"] == "turn_controlled"),
        "{trace}"
    );
}

#[test]
fn the_state_is_bounded() {
    // A small bound, so the test stays quick in debug builds.
    let mut s = Session::new(MTG.clone()).with_max_state_bytes(1024);
    ok(&mut s, json!({"v": 1, "op": "new_game", "players": 2}));
    let mut refused = None;
    for label in 0..2_000u32 {
        let r = send(
            &mut s,
            json!({"v": 1, "op": "apply", "move": {"kind": "trigger", "label": label, "by": "P1"}}),
        );
        if let Some(e) = r.get("error") {
            refused = Some((label, e.clone()));
            break;
        }
    }
    let (label, e) = refused.expect("triggers are refused at some point");
    assert_eq!(e["code"], "protocol::too_many");
    assert!(label > 100, "{label}");
    assert!(snapshot(&s).len() <= 1024 + 64);
    // Passing still goes, and resolves them.
    ok(
        &mut s,
        json!({"v": 1, "op": "apply", "move": {"kind": "pass"}}),
    );
}

#[test]
fn the_trace_keeps_the_latest_events_only() {
    let mut s = started(2);
    let mut last = json!(null);
    for _ in 0..(MAX_TRACE_EVENTS / 2) {
        last = ok(
            &mut s,
            json!({"v": 1, "op": "apply", "move": {"kind": "pass"}}),
        );
    }
    assert_eq!(last["state"]["status"], "running");
    let t = ok(&mut s, json!({"v": 1, "op": "trace"}));
    let n = t["events"].as_array().unwrap().len();
    assert_eq!(n, MAX_TRACE_EVENTS);
    assert!(t["dropped"].as_u64().unwrap() > 0);
    assert_eq!(t["first"].as_u64().unwrap(), t["dropped"].as_u64().unwrap());
    assert_eq!(
        t["next"].as_u64().unwrap() - t["first"].as_u64().unwrap(),
        n as u64
    );
}

#[test]
fn the_schema_in_docs_is_up_to_date() {
    let generated = serde_json::to_string_pretty(&turnspec_protocol::json_schema()).unwrap();
    let file = root().join("docs/schema/protocol.schema.json");
    let committed = std::fs::read_to_string(&file).unwrap_or_default();
    assert!(
        committed.trim_end() == generated,
        "docs/schema/protocol.schema.json is out of date: regenerate it with\n  cargo run -- schema protocol > docs/schema/protocol.schema.json"
    );
    let schema: Value = serde_json::from_str(&generated).unwrap();
    assert_eq!(schema["$schema"], "http://json-schema.org/draft-07/schema#");
    let text = generated.as_str();
    for name in [
        "new_game",
        "legal_moves",
        "pass_all",
        "declare_ending",
        "restore",
    ] {
        assert!(text.contains(name), "the schema lacks {name}");
    }
}

/// Lines a client might get wrong: JSON-ish text, real requests with a
/// field changed.
fn lines() -> impl Strategy<Value = String> {
    let requests = prop::sample::select(vec![
        r#"{"v":1,"op":"apply","move":{"kind":"pass"}}"#,
        r#"{"v":1,"op":"apply","move":{"kind":"play","timing":"instant","by":"P1","label":1}}"#,
        r#"{"v":1,"op":"legal_moves"}"#,
        r#"{"v":1,"op":"restore","snapshot":"5453475301"}"#,
        r#"{"v":1,"op":"trace","since":3}"#,
        r#"{"v":1,"id":4,"op":"state"}"#,
    ]);
    prop_oneof![
        any::<String>(),
        "[{}\\[\\]\":,0-9a-z_ ]{0,80}",
        (requests, any::<prop::sample::Index>(), any::<char>()).prop_map(|(r, at, c)| {
            let mut chars: Vec<char> = r.chars().collect();
            let i = at.index(chars.len());
            chars[i] = c;
            chars.into_iter().collect()
        }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Any line is answered with one JSON response line, and an error
    /// leaves the game as it was.
    #[test]
    fn any_line_is_answered_and_an_error_changes_nothing(line in lines()) {
        let mut s = started(2);
        let before = snapshot(&s);
        let out = s.handle_line(&line);
        prop_assert!(!out.contains('\n'));
        let r: Value = serde_json::from_str(&out).unwrap();
        prop_assert_eq!(&r["v"], &json!(1));
        if r.get("error").is_some() {
            let code = r["error"]["code"].as_str().unwrap();
            prop_assert!(code.starts_with("protocol::") || code.starts_with("rule::"));
            prop_assert_eq!(snapshot(&s), before);
        }
    }
}
