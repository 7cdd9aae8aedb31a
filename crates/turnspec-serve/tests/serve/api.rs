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
    let text = std::fs::read_to_string(&path).unwrap();
    SpecEntry::new(file, Some(path), Arc::new(spec)).with_source(text)
}

/// MTG (0), Grand Archive (1), MTG 2011 (2); scenarios saved under `root`.
pub(crate) fn workbench(root: PathBuf) -> Workbench {
    Workbench::new(
        vec![
            entry("mtg.toml"),
            entry("grand-archive.toml"),
            entry("mtg-2011.toml"),
        ],
        root,
    )
}

pub(crate) fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("turnspec-serve-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

pub(crate) fn request(spec: usize, compare: Option<usize>, moves: Vec<Move>) -> PlayRequest {
    PlayRequest {
        setup: Setup {
            spec,
            players: Some(2),
            variants: vec![],
            compare,
            ..Setup::default()
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
    assert_eq!(r["written"], "nested/mtg-session.toml");
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
    built_in.specs_mut()[0].path = None;
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
        turnspec_serve::serve(w, "127.0.0.1:0".parse().unwrap(), None, |addr| {
            tx.send(addr).unwrap()
        })
        .unwrap();
    });
    let addr = rx.recv().unwrap();
    assert!(addr.ip().is_loopback());
    let (status, page) = http(
        addr,
        "GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
    );
    assert_eq!(status, 200);
    assert!(page.contains("turnspec workbench"));
    let (status, js) = http(
        addr,
        "GET /app.js HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
    );
    assert_eq!(status, 200);
    assert!(js.contains("/api/session"));
    let body = json!({ "spec": 1, "players": 2, "moves": [{ "kind": "pass_all" }] }).to_string();
    let (status, answer) = http(
        addr,
        &format!(
            "POST /api/play HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
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
            "POST /api/play HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        ),
    );
    assert_eq!(status, 400);
    assert!(answer.contains("no spec #7"));
    // JSON only: a form post from another page is not accepted.
    let (status, _) = http(
        addr,
        &format!(
            "POST /api/scenario HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        ),
    );
    assert_eq!(status, 415);
    // DNS rebinding: a foreign name for this address reaches nothing.
    let (status, _) = http(
        addr,
        "GET /api/specs HTTP/1.1\r\nHost: rebind.attacker.example\r\nConnection: close\r\n\r\n",
    );
    assert_eq!(status, 421);
    // A post from another origin is refused before it is read.
    let body = json!({ "spec": 0, "moves": [], "path": "evil.toml" }).to_string();
    let (status, _) = http(
        addr,
        &format!(
            "POST /api/scenario HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://evil.example\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        ),
    );
    assert_eq!(status, 403);
    // A game kept open: one move per request.
    let body = json!({ "spec": 0, "players": 2 }).to_string();
    let (status, answer) = http(
        addr,
        &format!(
            "POST /api/session HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        ),
    );
    assert_eq!(status, 200, "{answer}");
    let v: Value = serde_json::from_str(&answer).unwrap();
    let id = v["session"].as_str().unwrap();
    let body = json!({ "kind": "pass_all" }).to_string();
    let (status, answer) = http(
        addr,
        &format!(
            "POST /api/session/{id}/move HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        ),
    );
    assert_eq!(status, 200, "{answer}");
    let v: Value = serde_json::from_str(&answer).unwrap();
    assert_eq!(v["sides"][0]["state"]["phase"], "precombat_main");
    // Over the body limit: 413 without reading it all.
    let big = format!(
        "{{\"spec\":0,\"moves\":[{}]}}",
        "{\"kind\":\"pass_all\"},".repeat(150_000)
    );
    let (status, _) = http(
        addr,
        &format!(
            "POST /api/play HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{big}",
            big.len()
        ),
    );
    assert_eq!(status, 413);
}

fn open(w: &Workbench, spec: usize, compare: Option<usize>) -> String {
    let v = w
        .open(
            &turnspec_serve::OpenRequest {
                setup: request(spec, compare, vec![]).setup,
                moves: vec![],
            },
            0,
        )
        .unwrap();
    v["session"].as_str().unwrap().to_string()
}

#[test]
fn an_open_game_gives_what_a_replay_gives_move_by_move_and_back() {
    let w = workbench(scratch("sessions"));
    let mut moves = vec![pass_all(), play("instant", "P1", "Shock")];
    for i in 0..40 {
        moves.push(if i % 7 == 3 {
            play("sorcery", "P1", "Bears")
        } else {
            pass_all()
        });
    }
    let id = open(&w, 0, Some(2));
    let mut accepted = Vec::new();
    let mut trace: Vec<Vec<String>> = vec![Vec::new(), Vec::new()];
    let start = w.back(&id, 0, 0).unwrap();
    for (n, t) in trace.iter_mut().enumerate() {
        *t = lines(&start["sides"][n]);
    }
    for m in &moves {
        let step = w.play_move(&id, m, 0).unwrap();
        if step["refused"].is_object() {
            continue;
        }
        accepted.push(m.clone());
        for (n, t) in trace.iter_mut().enumerate() {
            let side = &step["sides"][n];
            t.extend(
                side["events"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|e| e["line"].as_str().unwrap().to_string()),
            );
            assert_eq!(side["trace_len"].as_u64().unwrap() as usize, t.len());
        }
        let replay = w.play(&request(0, Some(2), accepted.clone())).unwrap();
        for (n, t) in trace.iter().enumerate() {
            assert_eq!(&lines(&replay["sides"][n]), t);
            assert_eq!(replay["sides"][n]["state"], step["sides"][n]["state"]);
        }
        assert_eq!(replay["divergence"], step["divergence"]);
    }
    assert!(accepted.len() > 30);
    // Back to every earlier point: the same as replaying fewer moves.
    for k in [accepted.len() - 1, 33, 32, 17, 16, 5, 0] {
        let back = w.back(&id, k, 0).unwrap();
        let replay = w
            .play(&request(0, Some(2), accepted[..k].to_vec()))
            .unwrap();
        assert_eq!(back["moves"], k);
        for n in 0..2 {
            assert_eq!(
                lines(&back["sides"][n]),
                lines(&replay["sides"][n]),
                "back to {k}"
            );
            assert_eq!(back["sides"][n]["state"], replay["sides"][n]["state"]);
        }
        assert_eq!(back["divergence"], replay["divergence"]);
    }
    assert!(w.back(&id, 99, 0).is_err());
    assert_eq!(
        w.play_move("no-such-game", &pass_all(), 0)
            .unwrap_err()
            .status,
        404
    );
}

#[test]
fn limits_answer_with_a_4xx_and_a_sentence() {
    let w = workbench(scratch("limits"));
    let many = vec![pass_all(); turnspec_serve::limits::MAX_MOVES + 1];
    let e = w.play(&request(0, None, many.clone())).unwrap_err();
    assert_eq!(e.status, 413);
    assert!(e.message.contains("moves"), "{e}");
    let e = w
        .open(
            &turnspec_serve::OpenRequest {
                setup: request(0, None, vec![]).setup,
                moves: many,
            },
            0,
        )
        .unwrap_err();
    assert_eq!(e.status, 413);
    let mut setup = request(0, None, vec![]).setup;
    setup.players = Some(200);
    let e = w
        .play(&PlayRequest {
            setup,
            moves: vec![],
        })
        .unwrap_err();
    assert_eq!(e.status, 400);
}

#[test]
fn labels_a_scenario_cannot_carry_are_refused_and_the_rest_saved() {
    let root = scratch("labels");
    let w = workbench(root.clone());
    for bad in [
        "\t",
        " Bears",
        "Bears ",
        "Bears\nof",
        "\u{7f}",
        "\u{85}x",
        "a  b",
        "\u{a0}x",
    ] {
        let r = w
            .play(&request(
                0,
                None,
                vec![pass_all(), play("sorcery", "P1", bad)],
            ))
            .unwrap();
        assert_eq!(
            r["sides"][0]["refused"][0]["refusal"]["reason"], "bad_label",
            "{bad:?}"
        );
        let r = w
            .play(&request(
                0,
                None,
                vec![Move::Trigger {
                    label: bad.into(),
                    by: "P1".into(),
                }],
            ))
            .unwrap();
        assert_eq!(
            r["sides"][0]["refused"][0]["refusal"]["reason"],
            "bad_label"
        );
    }
    let r = w
        .play(&request(
            0,
            None,
            vec![Move::Trigger {
                label: String::new(),
                by: "P1".into(),
            }],
        ))
        .unwrap();
    assert_eq!(
        r["sides"][0]["refused"][0]["refusal"]["reason"],
        "bad_label"
    );
    for (i, good) in [
        "Grizzly Bears",
        "Æther Vial",
        "Bears, 2/2 (green)",
        "x",
        "«Ω»",
        "#3",
    ]
    .into_iter()
    .enumerate()
    {
        let moves = vec![
            pass_all(),
            play("sorcery", "P1", good),
            Move::Trigger {
                label: good.into(),
                by: "P2".into(),
            },
            pass_all(),
        ];
        let path = format!("labels/{i}.toml");
        let r = save(&w, 0, moves, Some(&path));
        assert_eq!(r["passes"], true, "{good:?}: {}", r["failure"]);
        let mut cache = turnspec_scenario::SpecCache::default();
        let file = root.join(&path);
        let result = turnspec_scenario::run_file(&file, &mut cache);
        assert!(result.passed(), "{}", result.to_text(&file));
    }
}

fn try_save(w: &Workbench, path: &str, overwrite: bool) -> Result<Value, turnspec_serve::ApiError> {
    w.save(&SaveRequest {
        session: request(0, None, vec![pass_all()]),
        name: String::new(),
        path: Some(path.into()),
        overwrite,
    })
}

#[test]
fn saving_never_leaves_the_folder_nor_follows_links() {
    let root = scratch("links");
    let outside = scratch("links-outside");
    std::fs::create_dir_all(outside.join("dir")).unwrap();
    std::fs::write(outside.join("victim.toml"), "[scenario]\nname = \"x\"\n").unwrap();
    let spec_copy = root.join("spec.toml");
    std::fs::copy(Path::new(GAMES).join("mtg.toml"), &spec_copy).unwrap();
    let mut w = workbench(root.clone());
    w.specs_mut()[0].path = Some(spec_copy.clone());
    std::os::unix::fs::symlink(outside.join("dir"), root.join("linked")).unwrap();
    std::os::unix::fs::symlink(outside.join("created.toml"), root.join("dangling.toml")).unwrap();
    std::os::unix::fs::symlink(outside.join("victim.toml"), root.join("victim.toml")).unwrap();
    let before = std::fs::read_dir(&outside).unwrap().count();
    for (path, overwrite) in [
        ("linked/x.toml", false),
        ("linked/new/x.toml", false),
        ("dangling.toml", false),
        ("dangling.toml", true),
        ("victim.toml", true),
        ("spec.toml", true),
        ("spec.toml", false),
    ] {
        let e = try_save(&w, path, overwrite).unwrap_err();
        assert_eq!(e.status, 400, "{path}");
        assert!(
            !e.message.contains(&*root.to_string_lossy()),
            "{}",
            e.message
        );
    }
    assert_eq!(std::fs::read_dir(&outside).unwrap().count(), before);
    assert!(!outside.join("created.toml").exists());
    assert!(!outside.join("dir/x.toml").exists());
    assert_eq!(
        std::fs::read_to_string(outside.join("victim.toml")).unwrap(),
        "[scenario]\nname = \"x\"\n"
    );
    let spec_text = std::fs::read_to_string(Path::new(GAMES).join("mtg.toml")).unwrap();
    assert_eq!(std::fs::read_to_string(&spec_copy).unwrap(), spec_text);
    // A refused save creates no folder: too deep, or failing otherwise.
    let deep = format!("{}x.toml", "d/".repeat(1000));
    assert!(try_save(&w, &deep, false).is_err());
    assert!(try_save(&w, "a/b/c/d/e/f/g/h/i/x.toml", false).is_err());
    assert!(!root.join("d").exists() && !root.join("a").exists());
    // A save into new folders, then an overwrite of that scenario.
    let r = try_save(&w, "new/folder/s.toml", false).unwrap();
    assert_eq!(r["written"], "new/folder/s.toml");
    assert!(try_save(&w, "new/folder/s.toml", false).is_err());
    assert!(try_save(&w, "new/folder/s.toml", true).is_ok());
    // A file that is not a scenario is not replaced.
    std::fs::write(root.join("notes.toml"), "[notes]\n").unwrap();
    assert!(try_save(&w, "notes.toml", true).is_err());
    assert_eq!(
        std::fs::read_to_string(root.join("notes.toml")).unwrap(),
        "[notes]\n"
    );
}

#[test]
fn the_host_declares_an_ending_and_sets_a_counter() {
    let w = workbench(scratch("endings"));
    let details = w.spec_details(0).unwrap();
    let endings: Vec<&str> = details["endings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["id"].as_str().unwrap())
        .collect();
    assert!(endings.contains(&"no_life"), "{endings:?}");
    // P2 at 0 life loses (704.5a): P1 is the last player left and wins.
    let declare = |ending: &str, by: &str| Move::DeclareEnding {
        ending: ending.into(),
        by: by.into(),
    };
    let r = w
        .play(&request(
            0,
            None,
            vec![pass_all(), declare("no_life", "P2"), pass_all()],
        ))
        .unwrap();
    let side = &r["sides"][0];
    assert_eq!(side["state"]["status"], "over");
    assert_eq!(side["state"]["outcome"]["winners"], json!(["P1"]));
    assert_eq!(side["state"]["outcome"]["draw"], false);
    let trace = lines(side);
    assert!(trace.iter().any(|l| l.contains("no_life")), "{trace:?}");
    // Nothing moves once the game is over.
    assert_eq!(side["refused"][0]["move"], 2);
    assert_eq!(side["refused"][0]["refusal"]["reason"], "not_running");
    // A draw; an ending or player the game does not have.
    let r = w
        .play(&request(0, None, vec![declare("draw", "P1")]))
        .unwrap();
    assert_eq!(r["sides"][0]["state"]["outcome"]["draw"], true);
    let r = w
        .play(&request(
            0,
            None,
            vec![declare("teleported", "P1"), declare("no_life", "P3")],
        ))
        .unwrap();
    let refused = r["sides"][0]["refused"].as_array().unwrap();
    assert_eq!(refused.len(), 2);
    assert!(refused.iter().all(|x| x["refusal"]["reason"] == "unknown"));
    assert_eq!(r["sides"][0]["state"]["status"], "running");

    // Lorcana: 20 lore wins, checked whenever the host sets lore.
    let w = Workbench::new(vec![entry("lorcana.toml")], scratch("lore"));
    let lore = |by: &str, value: u16| Move::SetCounter {
        counter: "lore".into(),
        by: by.into(),
        value,
    };
    let r = w.play(&request(0, None, vec![lore("P2", 7)])).unwrap();
    let counter = r["sides"][0]["state"]["counters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == "lore")
        .cloned()
        .unwrap();
    assert_eq!(counter["per_player"], json!([0, 7]));
    assert_eq!(r["sides"][0]["state"]["status"], "running");
    let moves = vec![lore("P2", 7), lore("P1", 20)];
    let r = w.play(&request(0, None, moves.clone())).unwrap();
    assert_eq!(r["sides"][0]["state"]["outcome"]["winners"], json!(["P1"]));
    assert!(
        lines(&r["sides"][0])
            .iter()
            .any(|l| l.contains("twenty_lore"))
    );
    // Saved, both are host commands of the scenario format, and it passes.
    let saved = w
        .save(&SaveRequest {
            session: request(0, None, moves),
            name: "lore".into(),
            path: Some("lore.toml".into()),
            overwrite: false,
        })
        .unwrap();
    assert_eq!(saved["passes"], true, "{}", saved["failure"]);
}

#[test]
fn objects_enter_leave_change_control_and_name_the_plays_they_make() {
    let root = scratch("objects");
    let w = workbench(root.clone());
    let details = w.spec_details(0).unwrap();
    assert_eq!(details["objects"], true);
    let facts: Vec<&str> = details["object_facts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["id"].as_str().unwrap())
        .collect();
    assert!(facts.contains(&"creature"), "{facts:?}");
    let tap = details["timing"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"] == "tap_ability")
        .cloned()
        .unwrap();
    assert_eq!(tap["by_object"], true);
    let elves = "Llanowar Elves";
    let enter = |object: &str, by: &str| Move::Enter {
        object: object.into(),
        by: by.into(),
    };
    let creature = Move::SetObjectFact {
        fact: "creature".into(),
        object: elves.into(),
    };
    // Summoning sickness: the elves entered this turn.
    let r = w
        .play(&request(
            0,
            None,
            vec![enter(elves, "P1"), creature.clone()],
        ))
        .unwrap();
    let side = &r["sides"][0];
    assert!(side["refused"].as_array().unwrap().is_empty(), "{side}");
    let objects = side["state"]["objects"].as_array().unwrap();
    assert_eq!(objects.len(), 1);
    assert_eq!(objects[0]["name"], elves);
    assert_eq!(objects[0]["controller"], "P1");
    assert_eq!(objects[0]["entered_turn"], 1);
    assert_eq!(objects[0]["controlled_since_turn"], 1);
    assert_eq!(objects[0]["facts"], json!(["creature"]));
    let legal_tap = side["legal"]["players"][0]["timing"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"] == "tap_ability")
        .cloned()
        .unwrap();
    assert_eq!(legal_tap["by_object"], true);
    assert_eq!(legal_tap["legal"], false);
    assert_eq!(legal_tap["objects"][0]["object"], elves);
    assert_eq!(legal_tap["objects"][0]["refusal"]["rule"], "302.6");
    assert_eq!(legal_tap["refusal"]["rule"], "302.6");
    let trace = lines(side);
    assert!(trace.contains(&format!("enter {elves} P1")), "{trace:?}");
    // The whole session: a refused play by the elves, a land tapped, the
    // elves stolen and their fact cleared, the land leaving.
    let moves = vec![
        enter(elves, "P1"),
        creature,
        play("tap_ability", "P1", elves),
        enter("Forest", "P1"),
        play("tap_ability", "P1", "Forest"),
        pass_all(),
        Move::GainControl {
            object: elves.into(),
            by: "P2".into(),
        },
        Move::ClearObjectFact {
            fact: "creature".into(),
            object: elves.into(),
        },
        Move::LeavePlay {
            object: "Forest".into(),
        },
        // Refused: no such object, and a name a scenario cannot carry.
        Move::LeavePlay {
            object: "Forest".into(),
        },
        enter(" bad  name", "P1"),
    ];
    let r = w.play(&request(0, None, moves.clone())).unwrap();
    let side = &r["sides"][0];
    let refused: Vec<(u64, String)> = side["refused"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| {
            (
                x["move"].as_u64().unwrap(),
                x["refusal"]["reason"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(refused.len(), 3, "{refused:?}");
    assert_eq!(refused[0].0, 2);
    assert_eq!(refused[1], (9, "no_such_object".to_string()));
    assert_eq!(refused[2], (10, "bad_label".to_string()));
    let objects = side["state"]["objects"].as_array().unwrap();
    assert_eq!(objects.len(), 1, "{objects:?}");
    assert_eq!(objects[0]["controller"], "P2");
    assert_eq!(objects[0]["facts"], json!([]));
    let trace = lines(side);
    assert!(trace.contains(&format!("control {elves} P2")), "{trace:?}");
    assert!(
        trace.contains(&"leave_play Forest".to_string()),
        "{trace:?}"
    );
    // Saved with the scenario format's verbs, and it passes.
    let r = save(&w, 0, moves, Some("objects.toml"));
    assert_eq!(r["passes"], true, "{}\n{}", r["failure"], r["toml"]);
    let text = r["toml"].as_str().unwrap();
    for verb in [
        "enter = \"Llanowar Elves\"\nby = \"P1\"",
        "set_fact = \"creature\"\nlabel = \"Llanowar Elves\"",
        "play = \"tap_ability\"\nby = \"P1\"\nlabel = \"Forest\"",
        "gain_control = \"Llanowar Elves\"\nby = \"P2\"",
        "clear_fact = \"creature\"\nlabel = \"Llanowar Elves\"",
        "leave_play = \"Forest\"",
    ] {
        assert!(text.contains(verb), "{verb}\n{text}");
    }
    let mut cache = turnspec_scenario::SpecCache::default();
    let file = root.join("objects.toml");
    let result = turnspec_scenario::run_file(&file, &mut cache);
    assert!(result.passed(), "{}", result.to_text(&file));
    // A spec without `[objects]` refuses them.
    let r = w.play(&request(1, None, vec![enter(elves, "P1")])).unwrap();
    assert_eq!(
        r["sides"][0]["refused"][0]["refusal"]["reason"],
        "no_objects"
    );
}

#[test]
fn objects_in_play_are_capped() {
    let w = workbench(scratch("objects-cap"));
    let max = turnspec_serve::limits::MAX_OBJECTS;
    let moves: Vec<Move> = (0..=max)
        .map(|i| Move::Enter {
            object: format!("Token {i}"),
            by: "P1".into(),
        })
        .collect();
    let r = w.play(&request(0, None, moves)).unwrap();
    let side = &r["sides"][0];
    assert_eq!(side["state"]["objects"].as_array().unwrap().len(), max);
    assert_eq!(side["refused"][0]["move"], max);
    assert_eq!(side["refused"][0]["refusal"]["reason"], "too_many_objects");
}

/// The studio's routes over HTTP answer what `Workbench::handle` answers:
/// the server only forwards.
#[test]
fn every_api_route_is_the_workbench_dispatch() {
    let root = scratch("dispatch");
    let direct = workbench(root.clone());
    let w = workbench(root);
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        turnspec_serve::serve(w, "127.0.0.1:0".parse().unwrap(), None, |addr| {
            tx.send(addr).unwrap()
        })
        .unwrap();
    });
    let addr = rx.recv().unwrap();
    let post = |path: &str, body: &str| {
        http(
            addr,
            &format!(
                "POST {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
                body.len()
            ),
        )
    };
    let text = std::fs::read_to_string(Path::new(GAMES).join("grand-archive.toml")).unwrap();
    for body in [
        json!({ "text": text, "path": "games/grand-archive.toml" }),
        json!({ "text": "[game]\nname = 3\n" }),
    ] {
        let body = body.to_string();
        let (status, answer) = post("/api/check", &body);
        assert_eq!(status, 200, "{answer}");
        let over_http: Value = serde_json::from_str(&answer).unwrap();
        let called = direct
            .handle("POST", "/api/check", body.as_bytes(), 0)
            .unwrap();
        assert_eq!(over_http, called);
    }
    // A text that does not load: 422, with its diagnostics in the body.
    let (status, answer) = post("/api/draft", &json!({ "text": "[[phase]]" }).to_string());
    assert_eq!(status, 422, "{answer}");
    let v: Value = serde_json::from_str(&answer).unwrap();
    assert!(v["error"].is_string());
    assert!(v["diagnostics"].is_array());
    // Unknown routes and methods.
    let (status, _) = post("/api/nothing", "{}");
    assert_eq!(status, 404);
    let (status, _) = http(
        addr,
        "GET /api/check HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
    );
    assert_eq!(status, 405);
    let (status, answer) = http(
        addr,
        "GET /api/specs/1/source HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
    );
    assert_eq!(status, 200, "{answer}");
    let v: Value = serde_json::from_str(&answer).unwrap();
    assert_eq!(v["text"], text);
}
