//! The workbench's JSON API on the reference specs, without a browser:
//! replay, refusals with their rule, time travel, two specs side by side,
//! saved scenarios that pass, and the HTTP routes themselves.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::{Value, json};
use turnspec_serve::{Move, PlayRequest, SaveRequest, Setup, SpecEntry, Workbench};

const GAMES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../games");

fn entry(file: &str) -> SpecEntry {
    let path = Path::new(GAMES).join(file);
    let (spec, _) = turnspec_scenario::load_spec_file(&path)
        .unwrap_or_else(|r| panic!("{}", r.to_short_text()));
    SpecEntry {
        label: file.into(),
        path: Some(path),
        spec: Arc::new(spec),
    }
}

/// MTG (0), Grand Archive (1), MTG 2011 (2); scenarios saved under `root`.
fn workbench(root: PathBuf) -> Workbench {
    Workbench {
        specs: vec![
            entry("mtg.toml"),
            entry("grand-archive.toml"),
            entry("mtg-2011.toml"),
        ],
        save_root: root,
    }
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("turnspec-serve-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn request(spec: usize, compare: Option<usize>, moves: Vec<Move>) -> PlayRequest {
    PlayRequest {
        setup: Setup {
            spec,
            players: Some(2),
            variants: vec![],
            compare,
        },
        moves,
    }
}

fn lines(side: &Value) -> Vec<String> {
    side["trace"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["line"].as_str().unwrap().to_string())
        .collect()
}

fn pass_all() -> Move {
    Move::PassAll
}

fn play(timing: &str, by: &str, label: &str) -> Move {
    Move::Play {
        timing: timing.into(),
        by: by.into(),
        label: label.into(),
    }
}

#[test]
fn lists_the_specs_with_their_players_and_variants() {
    let w = workbench(scratch("list"));
    let list = w.list();
    let specs = list["specs"].as_array().unwrap();
    assert_eq!(specs.len(), 3);
    assert_eq!(specs[1]["name"], "Grand Archive");
    assert!(!specs[0]["variants"].as_array().unwrap().is_empty());
    let details = w.spec_details(1).unwrap();
    let phases = details["diagram"]["phases"].as_array().unwrap();
    // Turn order first, then the phase only an attack starts.
    assert_eq!(phases[0]["id"], "wake_up");
    let combat = phases.iter().find(|p| p["id"] == "combat").unwrap();
    assert_eq!(combat["on_demand"], true);
    assert_eq!(phases.last().unwrap()["on_demand"], true);
    assert!(w.spec_details(9).is_err());
}

#[test]
fn replays_moves_with_rule_citations_and_legal_moves() {
    let w = workbench(scratch("replay"));
    let r = w
        .play(&request(
            0,
            None,
            vec![pass_all(), play("sorcery", "P1", "Bears")],
        ))
        .unwrap();
    let main = &r["sides"][0];
    let state = &main["state"];
    assert_eq!(state["phase"], "precombat_main");
    assert_eq!(state["holder"], "P1");
    assert_eq!(state["stack"][0]["label"], "Bears");
    let trace = main["trace"].as_array().unwrap();
    let skip = trace
        .iter()
        .find(|e| e["line"] == "skip step draw")
        .unwrap();
    assert_eq!(skip["rule"], "103.8a");
    assert_eq!(skip["move"], 0);
    assert!(trace.iter().any(|e| e["line"] == "push P1 sorcery Bears"));
    // With Bears on the stack, P1 may cast an instant but not a sorcery;
    // P2 may not pass.
    let p1 = &main["legal"]["players"][0];
    let by_id = |p: &Value, id: &str| {
        p["timing"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["id"] == id)
            .cloned()
            .unwrap()
    };
    assert_eq!(by_id(p1, "instant")["legal"], true);
    let sorcery = by_id(p1, "sorcery");
    assert_eq!(sorcery["legal"], false);
    assert_eq!(sorcery["refusal"]["reason"], "stack_not_empty");
    assert!(p1["pass_refusal"].is_null());
    assert_eq!(
        main["legal"]["players"][1]["pass_refusal"]["reason"],
        "not_holder"
    );
}

#[test]
fn a_refused_move_names_its_rule_and_changes_nothing() {
    let w = workbench(scratch("refused"));
    let before = w.play(&request(0, None, vec![pass_all()])).unwrap();
    let after = w
        .play(&request(
            0,
            None,
            vec![pass_all(), play("sorcery", "P2", "Divination")],
        ))
        .unwrap();
    let refused = &after["sides"][0]["refused"][0];
    assert_eq!(refused["move"], 1);
    assert_eq!(refused["refusal"]["reason"], "not_holder");
    assert!(refused["refusal"]["rule"].is_string());
    assert_eq!(after["sides"][0]["state"], before["sides"][0]["state"]);
    assert_eq!(lines(&after["sides"][0]), lines(&before["sides"][0]));
    let unknown = w
        .play(&request(0, None, vec![play("teleport", "P1", "")]))
        .unwrap();
    assert_eq!(
        unknown["sides"][0]["refused"][0]["refusal"]["reason"],
        "unknown"
    );
}

#[test]
fn an_earlier_point_is_the_same_as_replaying_fewer_moves() {
    let w = workbench(scratch("travel"));
    let moves = vec![
        pass_all(),
        play("instant", "P1", "Shock"),
        pass_all(),
        pass_all(),
        pass_all(),
    ];
    let full = w.play(&request(0, None, moves.clone())).unwrap();
    let full_lines = lines(&full["sides"][0]);
    for k in 0..moves.len() {
        let part = w.play(&request(0, None, moves[..k].to_vec())).unwrap();
        let part_lines = lines(&part["sides"][0]);
        assert_eq!(
            part_lines[..],
            full_lines[..part_lines.len()],
            "after {k} moves"
        );
    }
}

#[test]
fn grand_archive_attack_starts_combat() {
    let w = workbench(scratch("ga"));
    // Turn 1: pass until Main (the phases before give nobody Opportunity).
    let r = w.play(&request(1, None, vec![])).unwrap();
    assert_eq!(r["sides"][0]["state"]["phase"], "main");
    let r = w
        .play(&request(1, None, vec![play("attack", "P1", "Ally")]))
        .unwrap();
    // No attack on the first turn of the game.
    assert_eq!(
        r["sides"][0]["refused"][0]["refusal"]["reason"],
        "requirement"
    );
    let mut moves = vec![pass_all()];
    for _ in 0..20 {
        let r = w.play(&request(1, None, moves.clone())).unwrap();
        let s = &r["sides"][0]["state"];
        if s["turn"] == 2 && s["phase"] == "main" {
            break;
        }
        moves.push(pass_all());
    }
    moves.push(play("attack", "P2", "Ally"));
    let r = w.play(&request(1, None, moves)).unwrap();
    assert!(r["sides"][0]["refused"].as_array().unwrap().is_empty());
    assert_eq!(r["sides"][0]["state"]["phase"], "combat");
}

#[test]
fn two_specs_side_by_side_mark_the_first_difference() {
    let w = workbench(scratch("compare"));
    let same = w.play(&request(0, Some(0), vec![pass_all()])).unwrap();
    assert!(same["divergence"].is_null());
    let r = w.play(&request(0, Some(1), vec![pass_all()])).unwrap();
    let d = &r["divergence"];
    let i = d["index"].as_u64().unwrap() as usize;
    let (a, b) = (lines(&r["sides"][0]), lines(&r["sides"][1]));
    assert_eq!(a[..i], b[..i]);
    assert_eq!(d["left"].as_str(), a.get(i).map(String::as_str));
    assert_eq!(d["right"].as_str(), b.get(i).map(String::as_str));
    assert!(r["sides"][1].get("legal").is_none());
}

fn save(w: &Workbench, spec: usize, moves: Vec<Move>, path: Option<&str>) -> Value {
    w.save(&SaveRequest {
        session: request(spec, None, moves),
        name: String::new(),
        path: path.map(str::to_string),
        overwrite: false,
    })
    .unwrap()
}

#[test]
fn a_saved_session_is_a_scenario_that_passes() {
    let root = scratch("save");
    let w = workbench(root.clone());
    let moves = vec![
        Move::Answer {
            action: "declare_attackers".into(),
            value: 1,
            triggers: vec!["Attack trigger".into()],
        },
        pass_all(),
        play("sorcery", "P1", "Bears"),
        Move::Pass { by: "P1".into() },
        // Refused (P1 no longer holds priority): left out of the file.
        Move::Pass { by: "P1".into() },
        Move::Pass { by: "P2".into() },
        Move::Trigger {
            label: "Landfall".into(),
            by: "P2".into(),
        },
        Move::SetFact {
            fact: "phasing".into(),
        },
        pass_all(),
        pass_all(),
        pass_all(),
        pass_all(),
        pass_all(),
    ];
    let r = save(&w, 0, moves.clone(), Some("nested/mtg-session.toml"));
    assert_eq!(r["passes"], true, "{}", r["failure"]);
    let file = root.join("nested/mtg-session.toml");
    assert_eq!(r["written"], file.display().to_string());
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("spec = \"../"), "{text}");
    assert!(text.contains("answer = \"declare_attackers\""));
    // The file on its own, as `turnspec test` runs it.
    let mut cache = turnspec_scenario::SpecCache::default();
    let result = turnspec_scenario::run_file(&file, &mut cache);
    assert!(result.passed(), "{}", result.to_text(&file));
    // Not over an existing file unless asked.
    let again = w.save(&SaveRequest {
        session: request(0, None, moves),
        name: "again".into(),
        path: Some("nested/mtg-session.toml".into()),
        overwrite: false,
    });
    assert!(again.is_err());
    // Grand Archive too.
    let r = save(&w, 1, vec![pass_all(), pass_all()], Some("ga.toml"));
    assert_eq!(r["passes"], true, "{}", r["failure"]);
    let result = turnspec_scenario::run_file(&root.join("ga.toml"), &mut cache);
    assert!(result.passed(), "{}", result.to_text(&root.join("ga.toml")));
}

#[test]
fn saving_refuses_paths_outside_the_folder_and_built_in_specs() {
    let root = scratch("refuse");
    let w = workbench(root.clone());
    let outside = w.save(&SaveRequest {
        session: request(0, None, vec![]),
        name: String::new(),
        path: Some("../escape.toml".into()),
        overwrite: false,
    });
    assert!(outside.is_err());
    // Without a path the text is only shown.
    let shown = save(&w, 0, vec![pass_all()], None);
    assert_eq!(shown["passes"], true);
    assert!(shown["written"].is_null());
    let mut built_in = workbench(root);
    built_in.specs[0].path = None;
    assert!(
        built_in
            .save(&SaveRequest {
                session: request(0, None, vec![]),
                name: String::new(),
                path: None,
                overwrite: false,
            })
            .is_err()
    );
}

fn http(addr: SocketAddr, request: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream.write_all(request.as_bytes()).unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let status = response[9..12].parse().unwrap();
    let body = response
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_string())
        .unwrap_or_default();
    (status, body)
}

#[test]
fn the_routes_serve_the_page_and_the_api_on_loopback() {
    let w = workbench(scratch("http"));
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        turnspec_serve::serve(w, "127.0.0.1:0".parse().unwrap(), |addr| {
            tx.send(addr).unwrap()
        })
        .unwrap();
    });
    let addr = rx.recv().unwrap();
    assert!(addr.ip().is_loopback());
    let (status, page) = http(
        addr,
        "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    );
    assert_eq!(status, 200);
    assert!(page.contains("turnspec workbench"));
    let (status, js) = http(
        addr,
        "GET /app.js HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    );
    assert_eq!(status, 200);
    assert!(js.contains("/api/play"));
    let body = json!({ "spec": 1, "players": 2, "moves": [{ "kind": "pass_all" }] }).to_string();
    let (status, answer) = http(
        addr,
        &format!(
            "POST /api/play HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        ),
    );
    assert_eq!(status, 200, "{answer}");
    let v: Value = serde_json::from_str(&answer).unwrap();
    assert!(
        v["sides"][0]["title"]
            .as_str()
            .unwrap()
            .starts_with("Grand Archive")
    );
    let body = json!({ "spec": 7, "moves": [] }).to_string();
    let (status, answer) = http(
        addr,
        &format!(
            "POST /api/play HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        ),
    );
    assert_eq!(status, 400);
    assert!(answer.contains("no spec #7"));
    // JSON only: a form post from another page is not accepted.
    let (status, _) = http(
        addr,
        &format!(
            "POST /api/scenario HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        ),
    );
    assert_eq!(status, 415);
}
