//! How long the studio's `POST /api/check` takes for each spec given, as a
//! keystroke in the editor asks for it (docs/performance.md, "The studio").
//! Wall clock, so a figure to read, not to test: the median of `RUNS`.
//!
//! ```sh
//! cargo run --release -p turnspec-workbench --example check_timing -- games/*.toml
//! ```

use std::path::PathBuf;
use std::time::Instant;

use turnspec_workbench::Workbench;

const RUNS: usize = 31;

fn main() {
    let root = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let workbench = Workbench::new(Vec::new(), root);
    for path in std::env::args().skip(1) {
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) => {
                eprintln!("{path}: {e}");
                continue;
            }
        };
        let body = serde_json::json!({ "text": text, "path": path }).to_string();
        let mut micros: Vec<u128> = (0..RUNS)
            .map(|_| {
                let start = Instant::now();
                let answer = workbench.handle("POST", "/api/check", body.as_bytes(), 0);
                let took = start.elapsed().as_micros();
                if answer.is_err() {
                    eprintln!("{path}: the check was refused");
                }
                took
            })
            .collect();
        micros.sort_unstable();
        println!(
            "{path}: {} bytes, median {:.2} ms, slowest {:.2} ms",
            text.len(),
            micros[RUNS / 2] as f64 / 1000.0,
            micros[RUNS - 1] as f64 / 1000.0
        );
    }
}
