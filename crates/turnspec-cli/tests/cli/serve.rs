//! `turnspec serve`: the workbench starts on loopback and says where; bad
//! paths and specs with errors stop it before it listens. The pages and
//! the API are tested in crates/turnspec-serve and tests/browser.

use crate::common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};

use common::{assert_exit, assert_exit_saying, root, turnspec};

#[test]
fn a_missing_spec_is_exit_2() {
    let o = turnspec(&["serve", "no/such/spec.toml", "--port", "0"]);
    assert_exit_saying(&o, 2, "no such file");
}

#[test]
fn a_spec_with_errors_is_exit_1() {
    let dir = std::env::temp_dir().join(format!("turnspec-serve-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.toml");
    std::fs::write(&bad, "[game]\nname = 3\n").unwrap();
    let o = turnspec(&["serve", bad.to_str().unwrap(), "--port", "0"]);
    assert_exit(&o, 1);
}

#[test]
fn it_listens_on_loopback_and_prints_its_address() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_turnspec"))
        .args(["serve", "games/grand-archive.toml", "--port", "0"])
        .current_dir(root())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_string();
    assert!(addr.starts_with("127.0.0.1:"), "{line}");
    assert!(line.contains("1 spec(s)"), "{line}");
    let get = |host: &str| {
        let mut stream = TcpStream::connect(&addr).unwrap();
        stream
            .write_all(
                format!("GET /api/specs HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n")
                    .as_bytes(),
            )
            .unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        response
    };
    let response = get(&addr);
    let foreign = get("rebind.attacker.example");
    child.kill().unwrap();
    let _ = child.wait();
    assert!(response.starts_with("HTTP/1.1 200"), "{response}");
    assert!(response.contains("Grand Archive"), "{response}");
    // The spec is named as given, not by where it is on the machine.
    assert!(
        response.contains("\"games/grand-archive.toml\""),
        "{response}"
    );
    assert!(!response.contains(&*root().to_string_lossy()), "{response}");
    // DNS rebinding: a foreign name for this address reaches nothing.
    assert!(foreign.starts_with("HTTP/1.1 421"), "{foreign}");
}
