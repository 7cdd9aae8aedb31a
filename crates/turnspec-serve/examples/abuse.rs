//! The load and abuse test of `turnspec serve` (docs/reliability.md,
//! docs/performance.md): hostile requests, each of which must get a 4xx
//! and touch no file outside the served folder, then many clients each
//! playing a game one move per request. It talks to a server already
//! running on loopback; tests/load/run.sh starts one in a scratch folder
//! and runs this.
//!
//! ```text
//! abuse --url http://127.0.0.1:PORT --folder SERVED --outside DIR --pid PID
//!       [--clients 100] [--moves 200]
//! ```
//!
//! `SERVED` is the folder the server runs in, with the specs under
//! `SERVED/games`; `DIR` a scratch folder outside it that the links made
//! here point into; `PID` the server's, for its memory. Prints each case
//! and the figures; exits 1 if a case fails or a request errs. Timing is
//! reported, never asserted.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

struct Args {
    addr: SocketAddr,
    folder: PathBuf,
    outside: PathBuf,
    pid: Option<u32>,
    clients: usize,
    moves: usize,
}

fn args() -> Result<Args, String> {
    let mut url = None;
    let mut folder = None;
    let mut outside = None;
    let mut pid = None;
    let mut clients = 100;
    let mut moves = 200;
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} wants a value"));
        match flag.as_str() {
            "--url" => url = Some(value()?),
            "--folder" => folder = Some(PathBuf::from(value()?)),
            "--outside" => outside = Some(PathBuf::from(value()?)),
            "--pid" => pid = Some(value()?.parse().map_err(|e| format!("--pid: {e}"))?),
            "--clients" => clients = value()?.parse().map_err(|e| format!("--clients: {e}"))?,
            "--moves" => moves = value()?.parse().map_err(|e| format!("--moves: {e}"))?,
            other => return Err(format!("unknown argument {other}")),
        }
    }
    let url = url.ok_or("--url is required")?;
    let addr: SocketAddr = url
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .parse()
        .map_err(|e| format!("--url {url}: {e} (give http://127.0.0.1:PORT)"))?;
    if !addr.ip().is_loopback() {
        return Err(format!(
            "{addr} is not loopback: this test only runs on loopback"
        ));
    }
    Ok(Args {
        addr,
        folder: folder.ok_or("--folder is required")?,
        outside: outside.ok_or("--outside is required")?,
        pid,
        clients,
        moves,
    })
}

/// A keep-alive HTTP/1.1 connection.
struct Conn {
    addr: SocketAddr,
    reader: BufReader<TcpStream>,
}

struct Answer {
    status: u16,
    body: String,
}

impl Conn {
    fn open(addr: SocketAddr) -> std::io::Result<Conn> {
        let stream = TcpStream::connect(addr)?;
        stream.set_nodelay(true)?;
        stream.set_read_timeout(Some(Duration::from_secs(60)))?;
        Ok(Conn {
            addr,
            reader: BufReader::new(stream),
        })
    }

    /// Sends one request with `headers` (each `Name: value`) and reads
    /// the answer.
    fn send(
        &mut self,
        method: &str,
        path: &str,
        headers: &[&str],
        body: &[u8],
    ) -> std::io::Result<Answer> {
        let mut head = format!("{method} {path} HTTP/1.1\r\n");
        if !headers
            .iter()
            .any(|h| h.to_ascii_lowercase().starts_with("host:"))
        {
            head.push_str(&format!("Host: {}\r\n", self.addr));
        }
        for h in headers {
            head.push_str(h);
            head.push_str("\r\n");
        }
        if method == "POST" {
            head.push_str("Content-Type: application/json\r\n");
            head.push_str(&format!("Content-Length: {}\r\n", body.len()));
        }
        head.push_str("\r\n");
        let stream = self.reader.get_mut();
        stream.write_all(head.as_bytes())?;
        // The server may answer (413) before it has read a large body, and
        // close: a failed write of the rest is not an error here.
        let _ = stream.write_all(body);
        let mut status_line = String::new();
        self.reader.read_line(&mut status_line)?;
        let status = status_line
            .get(9..12)
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| std::io::Error::other(format!("bad status line {status_line:?}")))?;
        let mut length = 0usize;
        loop {
            let mut line = String::new();
            if self.reader.read_line(&mut line)? == 0 {
                break;
            }
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some((k, v)) = line.split_once(':')
                && k.eq_ignore_ascii_case("content-length")
            {
                length = v.trim().parse().unwrap_or(0);
            }
        }
        let mut body = vec![0; length];
        self.reader.read_exact(&mut body)?;
        Ok(Answer {
            status,
            body: String::from_utf8_lossy(&body).into_owned(),
        })
    }
}

/// One request on a fresh connection.
fn once(addr: SocketAddr, method: &str, path: &str, headers: &[&str], body: &str) -> Answer {
    match Conn::open(addr).and_then(|mut c| c.send(method, path, headers, body.as_bytes())) {
        Ok(a) => a,
        Err(e) => Answer {
            status: 0,
            body: format!("connection failed: {e}"),
        },
    }
}

/// Peak and current resident memory of a process, in MB (Linux).
fn memory(pid: Option<u32>) -> Option<(f64, f64)> {
    let status = std::fs::read_to_string(format!("/proc/{}/status", pid?)).ok()?;
    let kb = |key: &str| -> Option<f64> {
        let line = status.lines().find(|l| l.starts_with(key))?;
        line.split_whitespace().nth(1)?.parse::<f64>().ok()
    };
    Some((kb("VmHWM:")? / 1024.0, kb("VmRSS:")? / 1024.0))
}

struct Cases {
    failed: usize,
    folder_text: String,
}

impl Cases {
    fn check(&mut self, name: &str, answer: &Answer, ok: impl Fn(u16) -> bool, extra: bool) {
        let leaks = answer.body.contains(&self.folder_text);
        let pass = ok(answer.status) && extra && !leaks;
        if !pass {
            self.failed += 1;
        }
        let body: String = answer.body.chars().take(140).collect();
        println!(
            "{} {name}: {}{} {body}",
            if pass { "ok  " } else { "FAIL" },
            answer.status,
            if leaks {
                " (names the served folder)"
            } else {
                ""
            }
        );
    }
}

fn client_error(s: u16) -> bool {
    (400..500).contains(&s)
}

fn save_body(path: &str, overwrite: bool, label: &str) -> String {
    serde_json::json!({
        "spec": 0, "players": 2, "path": path, "overwrite": overwrite,
        "moves": [{ "kind": "pass_all" }, { "kind": "play", "timing": "sorcery", "by": "P1", "label": label }],
    })
    .to_string()
}

/// Every file and folder under `dir`, with its size.
fn listing(dir: &Path) -> Vec<(PathBuf, u64)> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            let meta = std::fs::symlink_metadata(&p);
            if meta.as_ref().is_ok_and(|m| m.is_dir()) {
                todo.push(p.clone());
            }
            out.push((p, meta.map(|m| m.len()).unwrap_or(0)));
        }
    }
    out.sort();
    out
}

fn abuse(a: &Args) -> std::io::Result<usize> {
    let addr = a.addr;
    let folder = &a.folder;
    let outside = &a.outside;
    let mut cases = Cases {
        failed: 0,
        folder_text: std::fs::canonicalize(folder)?.display().to_string(),
    };
    // Links from the served folder to the outside one.
    std::fs::create_dir_all(outside.join("dir"))?;
    std::fs::write(
        outside.join("victim.toml"),
        "[scenario]\nname = \"outside\"\n",
    )?;
    std::os::unix::fs::symlink(outside.join("dir"), folder.join("linked"))?;
    std::os::unix::fs::symlink(outside.join("created.toml"), folder.join("dangling.toml"))?;
    std::os::unix::fs::symlink(outside.join("victim.toml"), folder.join("victim.toml"))?;
    let outside_before = listing(outside);
    let folder_before = listing(folder);
    let spec_before = std::fs::read(folder.join("games/mtg.toml"))?;

    println!("== abuse cases");
    let r = once(
        addr,
        "GET",
        "/api/specs",
        &["Host: rebind.attacker.example"],
        "",
    );
    cases.check("DNS rebinding: foreign Host", &r, |s| s == 421, true);
    let r = once(
        addr,
        "GET",
        "/",
        &["Host: rebind.attacker.example:7878"],
        "",
    );
    cases.check(
        "foreign Host with a port, for the page",
        &r,
        |s| s == 421,
        true,
    );
    let r = once(
        addr,
        "POST",
        "/api/scenario",
        &["Origin: http://evil.example"],
        &save_body("evil.toml", false, "x"),
    );
    cases.check("save from a foreign Origin", &r, |s| s == 403, true);
    let r = once(
        addr,
        "POST",
        "/api/play",
        &["Sec-Fetch-Site: cross-site"],
        r#"{"spec":0,"moves":[]}"#,
    );
    cases.check("cross-site fetch", &r, |s| s == 403, true);

    // A 2 MB body of 100,000 moves: refused at the body limit.
    let mut big = String::from(r#"{"spec":0,"players":2,"compare":1,"moves":["#);
    while big.len() < 2_000_000 {
        big.push_str(r#"{"kind":"pass_all"},"#);
    }
    big.pop();
    big.push_str("]}");
    let before = memory(a.pid);
    let t = Instant::now();
    let r = once(addr, "POST", "/api/play", &[], &big);
    let took = t.elapsed();
    cases.check("2 MB /api/play (100,000 moves)", &r, |s| s == 413, true);
    println!("     answered in {:.1} ms", took.as_secs_f64() * 1e3);
    // Just under the body limit: 2,001 moves is over the moves limit.
    let moves: Vec<String> = (0..2_001)
        .map(|_| r#"{"kind":"pass_all"}"#.to_string())
        .collect();
    let body = format!(
        r#"{{"spec":0,"players":2,"compare":1,"moves":[{}]}}"#,
        moves.join(",")
    );
    let t = Instant::now();
    let r = once(addr, "POST", "/api/play", &[], &body);
    cases.check("2,001 moves to replay", &r, |s| s == 413, true);
    println!("     answered in {:.1} ms", t.elapsed().as_secs_f64() * 1e3);
    // A large replay within the limits: 500 moves on two specs.
    let body = format!(
        r#"{{"spec":0,"players":2,"compare":1,"moves":[{}]}}"#,
        moves[..500].join(",")
    );
    let t = Instant::now();
    let r = once(addr, "POST", "/api/play", &[], &body);
    let took = t.elapsed();
    cases.check(
        "500 moves on two specs, replayed",
        &r,
        |s| s == 200 || s == 413,
        true,
    );
    println!(
        "     answered in {:.1} ms, {:.1} MB",
        took.as_secs_f64() * 1e3,
        r.body.len() as f64 / 1e6
    );
    // Saving is linear in the moves: 1,000 moves as a scenario, shown and
    // run, not written. On Grand Archive, whose passes make few events
    // (the served folder lists its specs by name: find it, not its place).
    let listed = once(addr, "GET", "/api/specs", &[], "");
    let ga = serde_json::from_str::<serde_json::Value>(&listed.body)
        .ok()
        .and_then(|v| {
            v["specs"].as_array()?.iter().position(|s| {
                s.as_object().is_some_and(|o| {
                    o.values().any(|f| {
                        f.as_str()
                            .is_some_and(|t| t.ends_with("grand-archive.toml"))
                    })
                })
            })
        })
        .unwrap_or(0);
    let body = format!(
        r#"{{"spec":{ga},"players":2,"moves":[{}]}}"#,
        moves[..1_000].join(",")
    );
    let t = Instant::now();
    let r = once(addr, "POST", "/api/scenario", &[], &body);
    let took = t.elapsed();
    let passes = r.body.contains(r#""passes":true"#);
    cases.check(
        "1,000 moves saved as a scenario (shown, not written)",
        &r,
        |s| s == 200,
        passes,
    );
    println!(
        "     answered in {:.1} ms, {:.1} MB",
        took.as_secs_f64() * 1e3,
        r.body.len() as f64 / 1e6
    );
    if let (Some((_, rss0)), Some((peak, rss))) = (before, memory(a.pid)) {
        println!("     server memory: {rss0:.1} MB before, {rss:.1} MB after, peak {peak:.1} MB");
    }
    let r = once(
        addr,
        "POST",
        "/api/play",
        &[],
        r#"{"spec":0,"players":200,"moves":[]}"#,
    );
    cases.check("200 players", &r, client_error, true);

    let save = |path: &str, overwrite: bool| {
        once(
            addr,
            "POST",
            "/api/scenario",
            &[],
            &save_body(path, overwrite, "Bears"),
        )
    };
    let r = save("linked/x.toml", false);
    cases.check("save through a folder link", &r, client_error, true);
    let r = save("dangling.toml", false);
    cases.check("save through a dangling link", &r, client_error, true);
    let r = save("dangling.toml", true);
    cases.check("overwrite through a dangling link", &r, client_error, true);
    let r = save("victim.toml", true);
    cases.check(
        "overwrite through a link to a file outside",
        &r,
        client_error,
        true,
    );
    let r = save("games/mtg.toml", true);
    cases.check("overwrite the served spec", &r, client_error, true);
    let r = save("../escape.toml", false);
    cases.check("save with ..", &r, client_error, true);
    let r = save(&outside.join("abs.toml").display().to_string(), false);
    cases.check("save to an absolute path", &r, client_error, true);
    let deep = format!("{}x.toml", "d/".repeat(1_000));
    let r = save(&deep, false);
    cases.check("save 1,000 folders deep", &r, client_error, true);
    for (label, name) in [
        ("\t", "a tab"),
        (" Bears", "a leading space"),
        ("Bears\nof the wood", "a line break"),
        ("\u{7f}", "DEL"),
        ("Grizzly  Bears", "two spaces in a row"),
    ] {
        let body = serde_json::json!({
            "spec": 0, "players": 2,
            "moves": [{ "kind": "trigger", "by": "P1", "label": label }],
        })
        .to_string();
        let r = once(addr, "POST", "/api/session", &[], &body);
        let refused = serde_json::from_str::<serde_json::Value>(&r.body)
            .map(|v| v["moves"] == 0)
            .unwrap_or(false);
        cases.check(
            &format!("a trigger labelled with {name}: refused, nothing played"),
            &r,
            |s| s == 200,
            refused,
        );
    }
    let r = once(
        addr,
        "POST",
        "/api/scenario",
        &[],
        &save_body("scenarios/labels.toml", false, "Bears of the wood"),
    );
    let passes = r.body.contains(r#""passes":true"#);
    cases.check(
        "a label with spaces saved, and it passes",
        &r,
        |s| s == 200,
        passes,
    );
    let r = once(
        addr,
        "POST",
        "/api/session/nope/move",
        &[],
        r#"{"kind":"pass_all"}"#,
    );
    cases.check("a move in a game that is not open", &r, |s| s == 404, true);

    let outside_after = listing(outside);
    let unchanged = outside_before == outside_after;
    println!(
        "{} nothing outside the served folder changed ({} entries)",
        if unchanged { "ok  " } else { "FAIL" },
        outside_after.len()
    );
    if !unchanged {
        cases.failed += 1;
        println!("     before: {outside_before:?}\n     after: {outside_after:?}");
    }
    let spec_same = std::fs::read(folder.join("games/mtg.toml"))? == spec_before;
    println!(
        "{} the served spec is unchanged",
        if spec_same { "ok  " } else { "FAIL" }
    );
    if !spec_same {
        cases.failed += 1;
    }
    let new: Vec<_> = listing(folder)
        .into_iter()
        .filter(|(p, _)| !folder_before.iter().any(|(q, _)| q == p))
        .map(|(p, _)| p.strip_prefix(folder).map(Path::to_path_buf).unwrap_or(p))
        .collect();
    let only_expected = new.iter().all(|p| p.starts_with("scenarios"));
    println!(
        "{} new entries in the served folder, only under scenarios/: {new:?}",
        if only_expected { "ok  " } else { "FAIL" }
    );
    if !only_expected {
        cases.failed += 1;
    }
    Ok(cases.failed)
}

/// One client: opens a game, plays `moves` moves one request each.
fn client(addr: SocketAddr, moves: usize, spec: usize) -> Result<Vec<Duration>, String> {
    let mut conn = Conn::open(addr).map_err(|e| e.to_string())?;
    let mut times = Vec::with_capacity(moves + 1);
    let t = Instant::now();
    let body = format!(r#"{{"spec":{spec},"players":2}}"#);
    let r = conn
        .send("POST", "/api/session", &[], body.as_bytes())
        .map_err(|e| e.to_string())?;
    times.push(t.elapsed());
    if r.status != 200 {
        return Err(format!("open: {} {}", r.status, r.body));
    }
    let v: serde_json::Value = serde_json::from_str(&r.body).map_err(|e| e.to_string())?;
    let id = v["session"].as_str().ok_or("no session id")?.to_string();
    let path = format!("/api/session/{id}/move");
    for i in 0..moves {
        // Mostly rounds of passes, with a play now and then.
        let m = if i % 10 == 5 {
            r#"{"kind":"play","timing":"instant","by":"P1","label":"Shock"}"#
        } else {
            r#"{"kind":"pass_all"}"#
        };
        let t = Instant::now();
        let r = conn
            .send("POST", &path, &[], m.as_bytes())
            .map_err(|e| e.to_string())?;
        times.push(t.elapsed());
        if r.status != 200 {
            return Err(format!("move {i}: {} {}", r.status, r.body));
        }
    }
    Ok(times)
}

fn load(a: &Args) -> usize {
    println!(
        "== load: {} clients, each opening a game and playing {} moves, one request each",
        a.clients, a.moves
    );
    let before = memory(a.pid);
    let t = Instant::now();
    let handles: Vec<_> = (0..a.clients)
        .map(|i| {
            let addr = a.addr;
            let moves = a.moves;
            std::thread::spawn(move || client(addr, moves, i % 2))
        })
        .collect();
    let mut times = Vec::new();
    let mut errors = 0;
    for h in handles {
        match h.join() {
            Ok(Ok(t)) => times.extend(t),
            Ok(Err(e)) => {
                errors += 1;
                println!("FAIL client: {e}");
            }
            Err(_) => errors += 1,
        }
    }
    let wall = t.elapsed();
    times.sort();
    let pct = |p: f64| {
        times
            .get(((times.len() as f64 * p) as usize).min(times.len().saturating_sub(1)))
            .map_or(0.0, |d| d.as_secs_f64() * 1e3)
    };
    println!(
        "requests {}, errors {errors}, wall {:.2} s, {:.0} requests/s",
        times.len(),
        wall.as_secs_f64(),
        times.len() as f64 / wall.as_secs_f64()
    );
    println!(
        "latency ms: p50 {:.2}, p90 {:.2}, p99 {:.2}, max {:.2}",
        pct(0.50),
        pct(0.90),
        pct(0.99),
        times.last().map_or(0.0, |d| d.as_secs_f64() * 1e3)
    );
    if let (Some((_, rss0)), Some((peak, rss))) = (before, memory(a.pid)) {
        println!("server memory: {rss0:.1} MB before, {rss:.1} MB after, peak {peak:.1} MB");
    }
    errors
}

fn main() -> ExitCode {
    let a = match args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("abuse: {e}");
            return ExitCode::from(2);
        }
    };
    let failed = match abuse(&a) {
        Ok(n) => n,
        Err(e) => {
            eprintln!("abuse: cannot set up the cases: {e}");
            return ExitCode::FAILURE;
        }
    };
    let errors = load(&a);
    println!("== {failed} abuse case(s) failed, {errors} client(s) failed");
    if failed + errors == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
