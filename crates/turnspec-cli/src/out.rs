//! Printing that treats a closed pipe (`turnspec test ... | head`) as the
//! end of the conversation rather than an error, as command-line users expect.

use std::io::Write;

/// Writes `text` to standard output; a closed pipe ends the process quietly.
pub fn print(text: &str) {
    let stdout = std::io::stdout();
    let mut lock = stdout.lock();
    if let Err(e) = lock.write_all(text.as_bytes()).and_then(|_| lock.flush()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
    }
}

/// [`print`] with a newline.
pub fn println(text: &str) {
    print(&format!("{text}\n"));
}
