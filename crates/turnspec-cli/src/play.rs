//! `turnspec play SPEC --protocol jsonl`: a game of SPEC driven by another
//! program over stdin and stdout, one JSON request per line in, one JSON
//! response per line out (docs/protocol.md). The protocol itself is
//! `turnspec_protocol`; this reads lines, bounded, and writes and flushes
//! each answer.

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, ValueEnum};
use turnspec_protocol::{MAX_LINE_BYTES, Session};

use crate::SpecSource;

#[derive(Args)]
pub(crate) struct PlayArgs {
    /// Spec file (default: games/mtg.toml, or the built-in Magic spec).
    spec: Option<PathBuf>,
    /// How requests and responses are exchanged.
    #[arg(long, value_enum)]
    protocol: Protocol,
}

/// The protocols `play` speaks.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Protocol {
    /// JSON lines on stdin and stdout (docs/protocol.md).
    Jsonl,
}

/// One line of at most `limit` bytes (newline dropped), or `Err(n)` for a
/// longer one, which is read to its end and dropped (`n`: the bytes read
/// of it, at least `limit + 1`). `Ok(None)` at the end of input.
fn read_line(
    input: &mut impl BufRead,
    line: &mut Vec<u8>,
    limit: usize,
) -> std::io::Result<Option<Result<(), usize>>> {
    line.clear();
    let mut over = 0usize;
    let mut any = false;
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            return Ok(match (any, over) {
                (false, _) => None,
                (true, 0) => Some(Ok(())),
                (true, n) => Some(Err(n)),
            });
        }
        any = true;
        let (chunk, done) = match buf.iter().position(|b| *b == b'\n') {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        if over == 0 && line.len() + chunk.len() <= limit {
            line.extend_from_slice(chunk);
        } else {
            over = over.max(line.len()) + chunk.len();
            line.clear();
        }
        let used = done.unwrap_or(buf.len());
        input.consume(used);
        if done.is_some() {
            return Ok(Some(if over == 0 { Ok(()) } else { Err(over) }));
        }
    }
}

pub(crate) fn play(args: PlayArgs) -> Result<ExitCode, String> {
    let Protocol::Jsonl = args.protocol;
    let source = SpecSource::new(args.spec);
    let Some((spec, _warnings)) = source.load()? else {
        return Ok(ExitCode::from(1));
    };
    let mut session = Session::new(spec);
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let stdout = std::io::stdout();
    let mut output = std::io::BufWriter::new(stdout.lock());
    let mut line = Vec::new();
    loop {
        let read = read_line(&mut input, &mut line, MAX_LINE_BYTES)
            .map_err(|e| format!("cannot read standard input: {e}"))?;
        let response = match read {
            None => break,
            Some(Err(len)) => turnspec_protocol::line_too_long(len),
            Some(Ok(())) => {
                let text = String::from_utf8_lossy(&line);
                let text = text.strip_suffix('\r').unwrap_or(&text);
                if text.trim().is_empty() {
                    // Blank lines are ignored, not answered.
                    continue;
                }
                session.handle_line(text)
            }
        };
        let written = output
            .write_all(response.as_bytes())
            .and_then(|()| output.write_all(b"\n"))
            .and_then(|()| output.flush());
        if let Err(e) = written {
            // The client went away: stop quietly.
            if e.kind() == std::io::ErrorKind::BrokenPipe {
                break;
            }
            return Err(format!("cannot write standard output: {e}"));
        }
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::read_line;

    #[test]
    fn lines_are_read_bounded() {
        let text = b"ab\n0123456789\nxyz";
        let mut input = &text[..];
        let mut line = Vec::new();
        assert_eq!(read_line(&mut input, &mut line, 5).unwrap(), Some(Ok(())));
        assert_eq!(line, b"ab");
        assert!(matches!(read_line(&mut input, &mut line, 5).unwrap(), Some(Err(n)) if n >= 6));
        assert_eq!(read_line(&mut input, &mut line, 5).unwrap(), Some(Ok(())));
        assert_eq!(line, b"xyz");
        assert_eq!(read_line(&mut input, &mut line, 5).unwrap(), None);
    }
}
