//! A connection to another process that fails during a search ends this
//! process too, with one error naming the process whose connection
//! failed, and exit status 2.
//!
//! timely's network threads panic when a read or write fails ("timely
//! communication error: ..."), on purpose: the panic poisons the queues,
//! the workers panic on them, and the computation comes down. That
//! cascade cannot be caught and turned into an error in-process: a worker
//! may panic again while unwinding (a queue pushed to as a dataflow
//! drops), which aborts the process, and otherwise joining the network
//! threads panics in turn. So a panic hook, installed while a distributed
//! search runs, stops the process at the first network error, before the
//! cascade: it prints the error on stderr and exits, holding a lock that
//! any other panicking thread waits on meanwhile.
//!
//! Panic hooks belong to the whole program: the hook is installed once,
//! by the first distributed search, and hands every other panic (and every
//! panic while no distributed search runs) to the hook that was there
//! before.

use std::panic::PanicHookInfo;
use std::sync::{Mutex, MutexGuard, Once};

/// Distributed searches running in this process.
static SEARCHES: Mutex<usize> = Mutex::new(0);

static INSTALL: Once = Once::new();

/// The exit status of a search stopped by a failed connection: the CLI's
/// status for an error.
const LOST_CONNECTION_EXIT: i32 = 2;

fn searches() -> MutexGuard<'static, usize> {
    // A panic while the lock is held leaves nothing half-written here.
    SEARCHES.lock().unwrap_or_else(|e| e.into_inner())
}

/// One distributed search running, from `start` until dropped (however
/// the search ends).
pub(super) struct Watch(());

impl Watch {
    pub(super) fn start() -> Watch {
        INSTALL.call_once(|| {
            let previous = std::panic::take_hook();
            std::panic::set_hook(Box::new(move |info| {
                stop_if_lost(info);
                previous(info);
            }));
        });
        *searches() += 1;
        Watch(())
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        *searches() -= 1;
    }
}

/// A timely thread's network error during a search: prints it and exits
/// (never returns). Any other panic returns, to be reported as usual.
fn stop_if_lost(info: &PanicHookInfo<'_>) {
    let thread = std::thread::current();
    let name = thread.name().unwrap_or("");
    if !name.starts_with("timely:") {
        return;
    }
    let Some(cause) = message(info).and_then(|m| m.strip_prefix("timely communication error: "))
    else {
        return;
    };
    // Held until the process is gone: a second network thread that fails
    // meanwhile waits here rather than going on to the cascade.
    let running = searches();
    if *running == 0 {
        return;
    }
    // "timely:recv-N" and "timely:send-N" talk to process N.
    let who = match name
        .rsplit('-')
        .next()
        .and_then(|n| n.parse::<usize>().ok())
    {
        Some(n) => format!("the connection to process {n}"),
        None => "a connection to another process".to_string(),
    };
    eprintln!(
        "error: {who} failed ({cause}): the search stopped (the other processes stop the same way)"
    );
    std::process::exit(LOST_CONNECTION_EXIT);
}

fn message<'a>(info: &'a PanicHookInfo<'_>) -> Option<&'a str> {
    let payload = info.payload();
    payload
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| payload.downcast_ref::<&str>().copied())
}
