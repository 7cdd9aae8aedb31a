//! How the processes of a distributed search find each other: the host
//! list, the greetings that check they run the same search, and the timely
//! workers started on the connections.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};

use timely::communication::allocator::zero_copy::initialize::initialize_networking_from_sockets;
use timely::communication::allocator::{AllocatorBuilder, ProcessBuilder};

use super::watch::Watch;
use crate::Options;
use crate::search::key_of;

/// Where the workers of a distributed search run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cluster {
    /// Worker threads in each process (at least 1; the same in every
    /// process).
    pub workers: usize,
    /// `host:port` of every process, in order; empty or one: this process
    /// alone.
    pub hosts: Vec<String>,
    /// This process's index in `hosts`.
    pub process: usize,
    /// How long to wait for the other processes to connect.
    pub connect_timeout: Duration,
}

impl Default for Cluster {
    fn default() -> Self {
        Cluster {
            workers: 1,
            hosts: Vec::new(),
            process: 0,
            connect_timeout: Duration::from_secs(60),
        }
    }
}

/// Reads a host list: one `host:port` a line; blank lines and `#`
/// comments are skipped. An empty list, a line that is not `host:port` or
/// the same address twice is an error naming the line.
pub fn parse_hosts(text: &str) -> Result<Vec<String>, String> {
    let mut hosts: Vec<String> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let ok = line.rsplit_once(':').is_some_and(|(host, port)| {
            !host.is_empty() && !host.contains(char::is_whitespace) && port.parse::<u16>().is_ok()
        });
        if !ok {
            return Err(format!(
                "host list, line {}: `{line}` is not host:port (for example 127.0.0.1:4100)",
                n + 1
            ));
        }
        if hosts.iter().any(|h| h == line) {
            return Err(format!(
                "host list, line {}: `{line}` is listed twice",
                n + 1
            ));
        }
        hosts.push(line.to_string());
    }
    if hosts.is_empty() {
        return Err("host list: no hosts (one host:port a line)".into());
    }
    Ok(hosts)
}

/// What every process must agree on: the specs (by their titles), the
/// options and the workers per process.
pub(super) fn fingerprint(titles: &[String], options: &Options, workers: usize) -> u128 {
    key_of(&(
        titles,
        format!("{:?}", options.start),
        options.summary(),
        workers as u64,
    ))
}

/// Runs `work` on `cluster.workers` timely workers in this process, and as
/// many in each process of `cluster.hosts` (connected first, each checked
/// to run the search `fingerprint` names). The answer of the worker that
/// returns `Some` (worker 0), or the first error.
pub(super) fn execute<R: Send + 'static>(
    cluster: &Cluster,
    fingerprint: u128,
    work: impl Fn(&mut timely::worker::Worker) -> Result<Option<R>, String> + Send + Sync + 'static,
) -> Result<Option<R>, String> {
    if cluster.workers == 0 {
        return Err("--workers must be at least 1".into());
    }
    let (builders, guard): (Vec<AllocatorBuilder>, Box<dyn std::any::Any + Send>) =
        if cluster.hosts.len() <= 1 {
            if cluster.process != 0 {
                return Err(format!(
                    "process {} of a host list of {}",
                    cluster.process,
                    cluster.hosts.len().max(1)
                ));
            }
            timely::CommunicationConfig::Process(cluster.workers).try_build()?
        } else {
            let sockets = connect(cluster, fingerprint)?;
            let hooks = timely::communication::Hooks::default();
            let process =
                ProcessBuilder::new_typed_vector(cluster.workers, hooks.refill.clone(), None);
            let (tcp, guard) = initialize_networking_from_sockets(
                process,
                sockets,
                cluster.process,
                cluster.workers,
                hooks,
            )
            .map_err(|e| format!("starting the network threads: {e}"))?;
            (
                tcp.into_iter().map(AllocatorBuilder::Tcp).collect(),
                Box::new(guard),
            )
        };
    // A failed connection stops this process (watch.rs): the cascade of
    // timely's panics it would start cannot be caught.
    let _watch = (cluster.hosts.len() > 1).then(Watch::start);
    run_workers(builders, guard, work)
}

/// Starts the workers on their allocators and waits for them: the answer
/// of the one that returns `Some`, or the first error.
fn run_workers<R: Send + 'static>(
    builders: Vec<AllocatorBuilder>,
    guard: Box<dyn std::any::Any + Send>,
    work: impl Fn(&mut timely::worker::Worker) -> Result<Option<R>, String> + Send + Sync + 'static,
) -> Result<Option<R>, String> {
    let guards =
        timely::execute::execute_from(builders, guard, timely::WorkerConfig::default(), work)?;
    let mut answer = None;
    for result in guards.join() {
        match result {
            Ok(Ok(Some(r))) => answer = Some(r),
            Ok(Ok(None)) => {}
            Ok(Err(e)) | Err(e) => return Err(e),
        }
    }
    Ok(answer)
}

/// TCP keepalive on every connection: a process whose machine vanishes
/// (no reset, no close) is noticed within about a minute of silence, and
/// the search stops with an error instead of waiting for it. The probes
/// are answered by the other machine's system, so a process busy with a
/// long level is not taken for gone.
fn keep_alive(stream: &TcpStream) -> std::io::Result<()> {
    let keepalive = socket2::TcpKeepalive::new().with_time(Duration::from_secs(30));
    #[cfg(any(target_os = "linux", target_os = "macos", target_os = "windows"))]
    let keepalive = keepalive
        .with_interval(Duration::from_secs(10))
        .with_retries(3);
    socket2::SockRef::from(stream).set_tcp_keepalive(&keepalive)
}

const MAGIC: &[u8; 8] = b"turnspec";

/// Connects to every other process: to those before this one in the list,
/// and waits for those after it, each greeting with the list index and the
/// run's fingerprint. Gives up after `cluster.connect_timeout`.
fn connect(cluster: &Cluster, fingerprint: u128) -> Result<Vec<Option<TcpStream>>, String> {
    let (hosts, me) = (&cluster.hosts, cluster.process);
    if me >= hosts.len() {
        return Err(format!(
            "--process {me}: the host list has {} hosts (0 to {})",
            hosts.len(),
            hosts.len() - 1
        ));
    }
    let deadline = Instant::now() + cluster.connect_timeout;
    let late = |what: &str| {
        format!(
            "{what} did not connect within {} s (--connect-timeout)",
            cluster.connect_timeout.as_secs()
        )
    };
    // Listen first, so the processes after this one can connect while it
    // connects to those before it.
    let listener = TcpListener::bind(&hosts[me])
        .map_err(|e| format!("cannot listen on {} (host {me}): {e}", hosts[me]))?;
    listener
        .set_nonblocking(true)
        .map_err(|e| format!("listening on {}: {e}", hosts[me]))?;
    let mut sockets: Vec<Option<TcpStream>> = (0..hosts.len()).map(|_| None).collect();
    for (j, host) in hosts.iter().enumerate().take(me) {
        let stream = loop {
            let addrs: Vec<_> = host
                .to_socket_addrs()
                .map_err(|e| format!("host {j} ({host}): {e}"))?
                .collect();
            if let Some(s) = addrs
                .iter()
                .find_map(|addr| TcpStream::connect_timeout(addr, Duration::from_secs(1)).ok())
            {
                break s;
            }
            if Instant::now() >= deadline {
                return Err(late(&format!("process {j} ({host})")));
            }
            std::thread::sleep(Duration::from_millis(100));
        };
        let mut stream = stream;
        greet(&mut stream, me, fingerprint, deadline)
            .and_then(|()| check(&mut stream, j, fingerprint, deadline))
            .map_err(|e| format!("process {j} ({host}): {e}"))?;
        sockets[j] = Some(stream);
    }
    while sockets.iter().skip(me + 1).any(Option::is_none) {
        match listener.accept() {
            Ok((mut stream, from)) => {
                stream
                    .set_nonblocking(false)
                    .map_err(|e| format!("connection from {from}: {e}"))?;
                let j = read_greeting(&mut stream, fingerprint, deadline)
                    .map_err(|e| format!("connection from {from}: {e}"))?;
                if j <= me || j >= hosts.len() || sockets[j].is_some() {
                    return Err(format!(
                        "connection from {from} says it is process {j}, which is not expected here"
                    ));
                }
                greet(&mut stream, me, fingerprint, deadline)
                    .map_err(|e| format!("process {j} ({from}): {e}"))?;
                sockets[j] = Some(stream);
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                if Instant::now() >= deadline {
                    let missing: Vec<String> = (me + 1..hosts.len())
                        .filter(|&j| sockets[j].is_none())
                        .map(|j| format!("process {j} ({})", hosts[j]))
                        .collect();
                    return Err(late(&missing.join(", ")));
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            Err(e) => return Err(format!("accepting on {}: {e}", hosts[me])),
        }
    }
    for s in sockets.iter().flatten() {
        s.set_read_timeout(None)
            .and_then(|()| s.set_write_timeout(None))
            .and_then(|()| s.set_nodelay(true))
            .and_then(|()| keep_alive(s))
            .map_err(|e| format!("setting up a connection: {e}"))?;
    }
    Ok(sockets)
}

fn timeout_left(deadline: Instant) -> Duration {
    deadline
        .saturating_duration_since(Instant::now())
        .max(Duration::from_millis(100))
}

fn greet(
    stream: &mut TcpStream,
    me: usize,
    fingerprint: u128,
    deadline: Instant,
) -> Result<(), String> {
    stream
        .set_write_timeout(Some(timeout_left(deadline)))
        .map_err(|e| e.to_string())?;
    let mut msg = Vec::with_capacity(32);
    msg.extend_from_slice(MAGIC);
    msg.extend_from_slice(&(me as u64).to_le_bytes());
    msg.extend_from_slice(&fingerprint.to_le_bytes());
    stream.write_all(&msg).map_err(|e| e.to_string())
}

/// Reads a greeting: the sender's index, once its magic and fingerprint
/// are checked.
fn read_greeting(
    stream: &mut TcpStream,
    fingerprint: u128,
    deadline: Instant,
) -> Result<usize, String> {
    stream
        .set_read_timeout(Some(timeout_left(deadline)))
        .map_err(|e| e.to_string())?;
    let mut msg = [0u8; 32];
    stream
        .read_exact(&mut msg)
        .map_err(|e| format!("no greeting ({e}): is it a turnspec explore process?"))?;
    if &msg[..8] != MAGIC {
        return Err("not a turnspec explore process".into());
    }
    let mut index = [0u8; 8];
    index.copy_from_slice(&msg[8..16]);
    let mut theirs = [0u8; 16];
    theirs.copy_from_slice(&msg[16..32]);
    if u128::from_le_bytes(theirs) != fingerprint {
        return Err(
            "it runs another search (other specs, options or --workers): every process needs the same"
                .into(),
        );
    }
    usize::try_from(u64::from_le_bytes(index)).map_err(|e| e.to_string())
}

fn check(
    stream: &mut TcpStream,
    j: usize,
    fingerprint: u128,
    deadline: Instant,
) -> Result<(), String> {
    let got = read_greeting(stream, fingerprint, deadline)?;
    if got != j {
        return Err(format!(
            "it says it is process {got}, not {j}: do the host lists differ?"
        ));
    }
    Ok(())
}
