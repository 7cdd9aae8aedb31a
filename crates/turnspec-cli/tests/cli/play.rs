//! `turnspec play SPEC --protocol jsonl`: requests on stdin, one response
//! line each on stdout, in order; the protocol itself is tested in
//! crates/turnspec-protocol, and from Node and Python in tests/protocol.

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::Value;

use crate::common::root;

fn play(spec: &str, input: &str) -> (Vec<Value>, std::process::ExitStatus) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_turnspec"))
        .args(["play", spec, "--protocol", "jsonl"])
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the turnspec binary runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let o = child.wait_with_output().unwrap();
    let lines = String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (lines, o.status)
}

#[test]
fn a_session_over_stdin_and_stdout() {
    let input = concat!(
        "{\"v\":1,\"id\":1,\"op\":\"hello\"}\n",
        "\n",
        "{\"v\":1,\"id\":2,\"op\":\"new_game\",\"players\":2}\n",
        "not json\r\n",
        "{\"v\":1,\"id\":3,\"op\":\"apply\",\"move\":{\"kind\":\"pass\",\"by\":\"P1\"}}\n",
        "{\"v\":1,\"id\":4,\"op\":\"state\"}",
    );
    let (lines, status) = play("games/mtg.toml", input);
    assert!(status.success());
    assert_eq!(lines.len(), 5, "a blank line is not answered: {lines:?}");
    assert_eq!(lines[0]["ok"]["protocol"], 1);
    assert_eq!(lines[1]["ok"]["holder"], "P1");
    assert_eq!(lines[2]["error"]["code"], "protocol::malformed_json");
    assert_eq!(lines[3]["id"], 3);
    assert_eq!(lines[4]["ok"]["holder"], "P2");
}

#[test]
fn a_line_too_long_is_answered_and_the_session_goes_on() {
    let long = format!("{{\"pad\":\"{}\"}}\n", "x".repeat((1 << 20) + 10));
    let input = format!("{long}{{\"v\":1,\"id\":7,\"op\":\"hello\"}}\n");
    let (lines, status) = play("games/lorcana.toml", &input);
    assert!(status.success());
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["error"]["code"], "protocol::line_too_long");
    assert_eq!(lines[1]["ok"]["spec"], "Disney Lorcana");
}
