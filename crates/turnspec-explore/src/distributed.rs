//! `explore --against` on timely dataflow: several worker threads, in one
//! process or in several that find each other by a host list.
//!
//! Levels are rounds (timestamps). Each state travels with its order key,
//! the path of successor indices from the start: in the single-process
//! search a level's states come in the lexicographic order of these paths
//! (a state's first finder is the smallest (parent, successor index)). A
//! state's owner (its 128-bit key modulo the workers) keeps, among the
//! candidates of a round it has not seen before, the one with the smallest
//! path, and expands it in the next round after replaying its moves from
//! the start (game states are not sent: only keys, paths and moves).
//! Observations are reduced per kind to the smallest path and gathered to
//! worker 0, which feeds them, sorted by (depth, path), through the same
//! collector as the single-process search: the report is byte-identical.

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream, ToSocketAddrs};
use std::rc::Rc;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use timely::communication::allocator::zero_copy::initialize::initialize_networking_from_sockets;
use timely::communication::allocator::{AllocatorBuilder, ProcessBuilder};
use timely::container::CapacityContainerBuilder;
use timely::dataflow::channels::pact::Exchange;
use timely::dataflow::operators::core::Exchange as _;
use timely::dataflow::operators::generic::Operator;
use timely::dataflow::operators::vec::Broadcast;
use timely::dataflow::operators::{Capability, Input, Inspect, Probe};
use timely::dataflow::{InputHandle, ProbeHandle};
use turnspec_engine::PlayerId;
use turnspec_model::Spec;

use crate::against::{Collect, DiffReport, Obs, Pair, prepare};
use crate::moves::Move;
use crate::search::{Next, StateRef, Stop, Successors, World, key_of};
use crate::{Node, Options};

/// The hasher of a set of keys: its keys are already XXH3-128 hashes,
/// uniformly spread, so their low 64 bits serve as they are.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        // Only keys go through `write_u128`; anything else is folded in.
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    #[inline]
    fn write_u128(&mut self, key: u128) {
        self.0 = key as u64;
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

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

/// A state on its way to its owner.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Cand {
    key: u128,
    /// Successor indices from the start: the order key.
    order: Vec<u16>,
    /// The moves from the start, packed.
    moves: Vec<u64>,
    /// The game goes on there (it is expanded if new).
    running: bool,
    host_moves: u8,
    diverged: bool,
}

/// A successor whose observation may make the report, on its way to
/// worker 0: its path, and what its parent's replay needs.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Rec {
    order: Vec<u16>,
    moves: Vec<u64>,
    parent_host_moves: u8,
    parent_diverged: bool,
}

/// A move as one number (moves are only named by table indices).
fn pack(m: Move) -> u64 {
    let (tag, a, b, c): (u64, u64, u64, u64) = match m {
        Move::Pass(p) => (0, p.0.into(), 0, 0),
        Move::Play(p, class, object) => (1, p.0.into(), class.into(), object.into()),
        Move::Answer(action, value) => (2, action.into(), value.into(), 0),
        Move::Trigger(p) => (3, p.0.into(), 0, 0),
        Move::TriggerAt(action) => (4, action.into(), 0, 0),
        Move::Effect(effect, p) => (5, effect.into(), p.0.into(), 0),
        Move::Fact(fact, on) => (6, fact.into(), on.into(), 0),
        Move::Mana(p) => (7, p.0.into(), 0, 0),
        Move::Leave(p) => (8, p.0.into(), 0, 0),
        Move::Ending(ending, p) => (9, ending.into(), p.0.into(), 0),
        Move::Enter(object, p) => (10, object.into(), p.0.into(), 0),
        Move::LeavePlay(object) => (11, object.into(), 0, 0),
        Move::ObjectFact(object, fact, on) => (12, object.into(), fact.into(), on.into()),
    };
    tag << 48 | a << 32 | b << 16 | c
}

/// The move [`pack`] made `x` from; `None` for a number it never makes.
fn unpack(x: u64) -> Option<Move> {
    let (tag, a, b, c) = (x >> 48, (x >> 32) as u16, (x >> 16) as u16, x as u16);
    let p = |v: u16| u8::try_from(v).ok().map(PlayerId);
    let byte = |v: u16| u8::try_from(v).ok();
    let flag = |v: u16| match v {
        0 => Some(false),
        1 => Some(true),
        _ => None,
    };
    Some(match tag {
        0 => Move::Pass(p(a)?),
        1 => Move::Play(p(a)?, b, byte(c)?),
        2 => Move::Answer(a, b),
        3 => Move::Trigger(p(a)?),
        4 => Move::TriggerAt(a),
        5 => Move::Effect(a, p(b)?),
        6 => Move::Fact(a, flag(b)?),
        7 => Move::Mana(p(a)?),
        8 => Move::Leave(p(a)?),
        9 => Move::Ending(a, p(b)?),
        10 => Move::Enter(byte(a)?, p(b)?),
        11 => Move::LeavePlay(byte(a)?),
        12 => Move::ObjectFact(byte(a)?, b, flag(c)?),
        _ => return None,
    })
}

fn unpack_all(moves: &[u64]) -> Result<Vec<Move>, String> {
    moves
        .iter()
        .map(|&x| unpack(x).ok_or_else(|| format!("a move that cannot be read ({x:#x})")))
        .collect()
}

/// The state reached from `root` by `moves` (which the search made), with
/// the host-move count and divergence it had.
fn replay(
    world: &Pair<'_, '_>,
    root: &Node,
    moves: &[u64],
    host_moves: u8,
    diverged: bool,
) -> Result<Node, String> {
    let mut node = root.clone();
    let mut events = Vec::new();
    for m in unpack_all(moves)? {
        for (ix, side) in node.sides.iter_mut().enumerate() {
            events.clear();
            side.apply(world.table, ix, m, &mut events).map_err(|_| {
                format!(
                    "replaying the search's moves: `{}` refused",
                    world.table.describe(m)
                )
            })?;
        }
    }
    node.host_moves = host_moves;
    node.diverged = diverged;
    Ok(node)
}

/// What the observation of a successor counts as, for keeping the first of
/// each: the collector keeps the first difference of each signature, the
/// first clean one, and the first mention of each unmatched element.
fn kinds(obs: &Obs) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(d) = &obs.found {
        out.push(format!("{}:{}", u8::from(d.clean), d.signature));
    }
    if let Some(u) = &obs.unmatched {
        out.push(format!("u:{u}"));
    }
    out
}

/// One round's totals over all workers: new states, and those among them
/// where the game goes on.
type Counts = Rc<RefCell<HashMap<u64, (u64, u64)>>>;

/// Explores `a` and `b` in lockstep within `options`' bounds, as
/// [`crate::explore_against`] does, on `cluster.workers` timely workers in
/// this process and as many in each process of `cluster.hosts`. The report
/// is the same, byte for byte; process 0 gets it (`Some`), the others
/// `None`. Errors: specs that cannot be set up, a bad cluster, peers that
/// do not connect within the timeout.
pub fn explore_against_distributed(
    a: &Spec,
    b: &Spec,
    options: &Options,
    cluster: &Cluster,
) -> Result<Option<DiffReport>, String> {
    if cluster.workers == 0 {
        return Err("--workers must be at least 1".into());
    }
    // Spec errors are reported before any connection is made.
    prepare(a, b, options)?;
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
            let fingerprint = fingerprint(a, b, options, cluster.workers);
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
    let shared = Arc::new((a.clone(), b.clone(), options.clone()));
    let guards = timely::execute::execute_from(
        builders,
        guard,
        timely::WorkerConfig::default(),
        move |worker| {
            let (a, b, options) = &*shared;
            run_worker(worker, a, b, options)
        },
    )?;
    let mut report = None;
    for result in guards.join() {
        match result {
            Ok(Ok(Some(r))) => report = Some(r),
            Ok(Ok(None)) => {}
            Ok(Err(e)) | Err(e) => return Err(e),
        }
    }
    Ok(report)
}

/// What every process must agree on: the specs, the options and the
/// workers per process.
fn fingerprint(a: &Spec, b: &Spec, options: &Options, workers: usize) -> u128 {
    key_of(&(
        a.title(),
        b.title(),
        format!("{:?}", options.start),
        options.summary(),
        workers as u64,
    ))
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

/// One worker: the dataflow, then the rounds. Worker 0 returns the report.
fn run_worker(
    worker: &mut timely::worker::Worker,
    a: &Spec,
    b: &Spec,
    options: &Options,
) -> Result<Option<DiffReport>, String> {
    let index = worker.index();
    let (table, root, first) = prepare(a, b, options)?;
    let (world, root_key) = Pair::new([a, b], &table, options, &root);
    let mut cands: InputHandle<u64, CapacityContainerBuilder<Vec<Cand>>> = InputHandle::new();
    let mut recs: InputHandle<u64, CapacityContainerBuilder<Vec<Rec>>> = InputHandle::new();
    // Only in the round that passes --max-states: the paths of its new
    // states, to worker 0, which finds where a single process stopped.
    let mut cut: InputHandle<u64, CapacityContainerBuilder<Vec<Vec<u16>>>> = InputHandle::new();
    let probe = ProbeHandle::new();
    // This worker's new states of the last round (those where the game
    // goes on are expanded next).
    let won: Rc<RefCell<Vec<Cand>>> = Rc::default();
    let counts: Counts = Rc::default();
    // Worker 0: every observation record gathered.
    let gathered: Rc<RefCell<Vec<Rec>>> = Rc::default();
    let cut_paths: Rc<RefCell<Vec<Vec<u16>>>> = Rc::default();
    worker.dataflow::<u64, _, _>(|scope| {
        let cut_paths = Rc::clone(&cut_paths);
        let won = Rc::clone(&won);
        let counts = Rc::clone(&counts);
        let gathered = Rc::clone(&gathered);
        scope
            .input_from(&mut cands)
            .unary_frontier::<CapacityContainerBuilder<Vec<(u64, u64, u64)>>, _, _, _>(
                Exchange::new(|c: &Cand| c.key as u64),
                "Dedup",
                move |_cap, _info| {
                    let mut seen: HashSet<u128, BuildHasherDefault<KeyHasher>> = HashSet::default();
                    seen.insert(root_key);
                    let mut pending: BTreeMap<u64, Capability<u64>> = BTreeMap::new();
                    let mut stash: HashMap<u64, HashMap<u128, Cand>> = HashMap::new();
                    move |(input, frontier), output| {
                        input.for_each_stamp(|cap, data| {
                            if let Some(cap) = cap.retain_least(0) {
                                let time = *cap.time();
                                pending.entry(time).or_insert(cap);
                                let best = stash.entry(time).or_default();
                                for c in data.flat_map(|d| d.drain(..)) {
                                    if seen.contains(&c.key) {
                                        continue;
                                    }
                                    match best.get(&c.key) {
                                        Some(old) if old.order <= c.order => {}
                                        _ => {
                                            best.insert(c.key, c);
                                        }
                                    }
                                }
                            }
                        });
                        while let Some(time) = pending.keys().next().copied() {
                            if frontier.frontier().less_equal(&time) {
                                break;
                            }
                            let Some(cap) = pending.remove(&time) else {
                                break;
                            };
                            let (mut new, mut running) = (0u64, 0u64);
                            let mut won = won.borrow_mut();
                            for (key, c) in stash.remove(&time).unwrap_or_default() {
                                seen.insert(key);
                                new += 1;
                                running += u64::from(c.running);
                                won.push(c);
                            }
                            output.session(&cap).give((time, new, running));
                        }
                    }
                },
            )
            .broadcast()
            .inspect(move |&(time, new, running): &(u64, u64, u64)| {
                let mut counts = counts.borrow_mut();
                let sum = counts.entry(time).or_default();
                sum.0 += new;
                sum.1 += running;
            })
            .probe_with(&probe);
        scope
            .input_from(&mut recs)
            .exchange(|_| 0)
            .inspect(move |r: &Rec| gathered.borrow_mut().push(r.clone()))
            .probe_with(&probe);
        scope
            .input_from(&mut cut)
            .exchange(|_| 0)
            .inspect(move |p: &Vec<u16>| cut_paths.borrow_mut().push(p.clone()))
            .probe_with(&probe);
    });

    let depth_bound = options.depth;
    let max_states = options.max_states.max(1);
    let mut states = 1usize;
    let mut frontier: Vec<Cand> = Vec::new();
    if index == 0 {
        frontier.push(Cand {
            key: root_key,
            order: Vec::new(),
            moves: Vec::new(),
            running: true,
            host_moves: 0,
            diverged: root.diverged,
        });
    }
    // Kinds of observation this worker already sent, in an earlier round.
    let mut sent: HashSet<String> = HashSet::new();
    // An error here is kept until the end: this worker still takes part
    // in every round, so the others do not wait for it forever.
    let mut failed: Option<String> = None;
    let mut out: Successors<Node, Obs> = Successors::new(true);
    let mut scratch = world.scratch();
    let mut level = 0usize;
    // Worker 0, when --max-states is reached: the path of the first new
    // state a single process did not take.
    let mut stop_at: Option<Vec<u16>> = None;
    let (stop, deepest) = if depth_bound == 0 {
        (Stop::Depth { frontier: 1 }, 0)
    } else {
        loop {
            let mut best: HashMap<String, Rec> = HashMap::new();
            for c in std::mem::take(&mut frontier) {
                let node = match replay(&world, &root, &c.moves, c.host_moves, c.diverged) {
                    Ok(n) => n,
                    Err(e) => {
                        failed.get_or_insert(e);
                        continue;
                    }
                };
                out.list.clear();
                out.packed.clear();
                world.expand(StateRef::Whole(&node), &mut scratch, &mut out);
                for (i, succ) in out.list.drain(..).enumerate() {
                    let Ok(i) = u16::try_from(i) else {
                        failed.get_or_insert_with(|| {
                            "a state with more than 65536 successors".into()
                        });
                        break;
                    };
                    let mut order = c.order.clone();
                    order.push(i);
                    let mut moves = c.moves.clone();
                    moves.push(pack(succ.mv));
                    for kind in kinds(&succ.obs) {
                        if sent.contains(&kind) || best.get(&kind).is_some_and(|r| r.order <= order)
                        {
                            continue;
                        }
                        best.insert(
                            kind,
                            Rec {
                                order: order.clone(),
                                moves: moves.clone(),
                                parent_host_moves: node.host_moves,
                                parent_diverged: node.diverged,
                            },
                        );
                    }
                    let (running, host_moves, diverged) = match &succ.next {
                        Next::Packed(r) => {
                            let (h, d) = out
                                .packed
                                .get(r.clone())
                                .and_then(crate::Packer::host_moves_and_divergence)
                                .unwrap_or_default();
                            (true, h, d)
                        }
                        Next::Whole(n) => (true, n.host_moves, n.diverged),
                        Next::Stopped => (false, 0, false),
                    };
                    cands.send(Cand {
                        key: succ.key,
                        order,
                        moves,
                        running,
                        host_moves,
                        diverged,
                    });
                }
            }
            for (kind, rec) in best {
                sent.insert(kind);
                recs.send(rec);
            }
            let next = level as u64 + 1;
            cands.advance_to(next);
            recs.advance_to(next);
            cut.advance_to(next);
            while probe.less_than(&next) {
                worker.step();
            }
            let (new, running) = counts
                .borrow_mut()
                .remove(&(level as u64))
                .unwrap_or_default();
            let won_now = std::mem::take(&mut *won.borrow_mut());
            let new = usize::try_from(new).unwrap_or(usize::MAX);
            if states.saturating_add(new) > max_states {
                // A single process stops at the first new state past the
                // limit, in path order: worker 0 finds its path among all
                // of this round's, and keeps only what was seen before it.
                for c in &won_now {
                    cut.send(c.order.clone());
                }
                let after = next + 1;
                cands.advance_to(after);
                recs.advance_to(after);
                cut.advance_to(after);
                while probe.less_than(&after) {
                    worker.step();
                }
                let mut paths = std::mem::take(&mut *cut_paths.borrow_mut());
                paths.sort_unstable();
                stop_at = paths.into_iter().nth(max_states - states);
                states = max_states;
                break (Stop::MaxStates { depth: level }, level);
            }
            frontier = won_now.into_iter().filter(|c| c.running).collect();
            states += new;
            if running == 0 {
                break (Stop::Exhausted, level);
            }
            if level + 1 >= depth_bound {
                break (
                    Stop::Depth {
                        frontier: usize::try_from(running).unwrap_or(usize::MAX),
                    },
                    level,
                );
            }
            level += 1;
        }
    };
    // Closing the inputs lets the dataflow finish once this returns.
    drop(cands);
    drop(recs);
    drop(cut);
    if let Some(e) = failed {
        return Err(e);
    }
    if index != 0 {
        return Ok(None);
    }
    // Worker 0: the observations in the single-process search's order.
    let mut gathered = std::mem::take(&mut *gathered.borrow_mut());
    gathered.sort_by(|x, y| (x.order.len(), &x.order).cmp(&(y.order.len(), &y.order)));
    let mut collect: Collect<Vec<Move>> = Collect::new(first);
    if let Some(q) = &stop_at {
        gathered.retain(|r| (r.order.len(), &r.order) < (q.len(), q));
    }
    for rec in &gathered {
        let Some((_, before)) = rec.moves.split_last() else {
            continue;
        };
        let parent = replay(
            &world,
            &root,
            before,
            rec.parent_host_moves,
            rec.parent_diverged,
        )?;
        out.list.clear();
        out.packed.clear();
        world.expand(StateRef::Whole(&parent), &mut scratch, &mut out);
        let at = rec.order.last().map_or(0, |&i| usize::from(i));
        let Some(succ) = out.list.get(at) else {
            return Err("replaying an observation: the successor is missing".into());
        };
        collect.visit(&succ.obs, || unpack_all(&rec.moves).unwrap_or_default());
    }
    Ok(Some(collect.report(
        [a, b],
        options,
        (table.clone(), states, stop, deepest),
        Vec::clone,
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_pack_and_unpack() {
        let p = PlayerId(3);
        let all = [
            Move::Pass(p),
            Move::Play(p, 7, 2),
            Move::Answer(4, 65535),
            Move::Trigger(p),
            Move::TriggerAt(9),
            Move::Effect(5, p),
            Move::Fact(6, true),
            Move::Mana(p),
            Move::Leave(p),
            Move::Ending(1, p),
            Move::Enter(2, p),
            Move::LeavePlay(1),
            Move::ObjectFact(2, 3, false),
        ];
        for m in all {
            assert_eq!(unpack(pack(m)), Some(m));
        }
        assert_eq!(unpack(99 << 48), None);
    }

    #[test]
    fn host_lists() {
        assert_eq!(
            parse_hosts("# two\n127.0.0.1:4100\n\n[::1]:4101 # second\n").unwrap(),
            vec!["127.0.0.1:4100", "[::1]:4101"]
        );
        assert!(parse_hosts("").unwrap_err().contains("no hosts"));
        assert!(parse_hosts("localhost").unwrap_err().contains("line 1"));
        assert!(parse_hosts("a:1\na:99999").unwrap_err().contains("line 2"));
        assert!(parse_hosts("a:1\na:1").unwrap_err().contains("twice"));
    }
}
