//! `explore` distributed. Coverage, dead ends and the deepest stack are
//! observations like `--against`'s: the first of each kind is gathered to
//! worker 0 and fed through the single-process search's [`Collect`]. Cycles
//! need the within-turn graph: every worker sends worker 0 the states it
//! expanded that have within-turn player moves, with those moves (their
//! targets by key). Worker 0 numbers the sources in (depth, path) order,
//! the order a single process numbers states in, and runs the same cycle
//! search on that graph. Only a state with an edge can be on a cycle, so
//! the targets that are no source (numbered after them) change nothing.
//! Worker 0 holds the whole within-turn graph, as a single process does,
//! keyed by 128-bit keys rather than state numbers.

use std::collections::HashMap;
use std::sync::Arc;

use turnspec_model::Spec;

use super::net::{Cluster, execute, fingerprint};
use super::{Gathered, Observe, replay_obs, rounds, unpack, unpack_all};
use crate::Options;
use crate::explore::{Collect, Graph, Obs, Report, Single, Unseen, prepare};
use crate::moves::{Move, Table};
use crate::search::{Edge, Edges, Successors, World};

/// What the observation of a successor counts as: each element reached,
/// each timing class usable, each kind of dead end, a stack deeper than
/// this worker has seen. Once counted, the world stops reporting the
/// element and trying the class (as a single process does once it has
/// recorded them).
struct Kinds<'w, 'a, 's> {
    world: &'w Single<'a, 's>,
    /// The deepest stack this worker has seen.
    stack: usize,
}

impl Observe<Obs> for Kinds<'_, '_, '_> {
    fn kinds(&mut self, obs: &Obs, out: &mut Vec<String>) {
        for r in &obs.reach {
            out.push(format!("r{r:?}"));
        }
        for i in 0..32 {
            if obs.usable >> i & 1 != 0 {
                out.push(format!("t{i}"));
            }
        }
        if obs.stack > self.stack {
            self.stack = obs.stack;
            out.push(format!("s{}", obs.stack));
        }
        if let Some(d) = &obs.dead {
            out.push(format!(
                "d{}:{}:{}",
                d.status.name(),
                d.step.index(),
                d.beyond_limit
            ));
        }
        self.world.seen(obs);
    }

    fn cycle_edge(&self, obs: &Obs) -> bool {
        obs.cycle_edge
    }
}

/// Explores `spec` within `options`' bounds, as [`crate::explore`] does,
/// on `cluster.workers` timely workers in this process and as many in
/// each process of `cluster.hosts`. The report is the same, byte for
/// byte; process 0 gets it (`Some`), the others `None`. Errors: a spec
/// that cannot be set up, a bad cluster, peers that do not connect within
/// the timeout. A connection that fails once the search runs ends this
/// process: one line on stderr naming the lost process, exit status 2
/// (timely's panics on a lost connection cannot be caught).
pub fn explore_distributed(
    spec: &Spec,
    options: &Options,
    cluster: &Cluster,
) -> Result<Option<Report>, String> {
    // Spec errors are reported before any connection is made.
    prepare(spec, options)?;
    let fingerprint = fingerprint(&[spec.title()], options, cluster.workers);
    let shared = Arc::new((spec.clone(), options.clone()));
    execute(cluster, fingerprint, move |worker| {
        let (spec, options) = &*shared;
        let (table, root, start_events) = prepare(spec, options)?;
        let collect: Collect<'_, Vec<Move>> = Collect::new(spec, &start_events, &root);
        let reach_unseen = Unseen::new(spec);
        let (world, root_key) = Single::new(
            &table,
            options,
            &root,
            collect.timing_unseen(),
            &reach_unseen,
        );
        let mut kinds = Kinds {
            world: &world,
            stack: root.sides[0].game.stack().len(),
        };
        let Some(gathered) = rounds(
            worker,
            &world,
            &mut kinds,
            (&table, &root, root_key),
            options,
        )?
        else {
            return Ok(None);
        };
        report(options, (&table, &root), collect, gathered).map(Some)
    })
}

/// Worker 0: the report from what was gathered.
fn report(
    options: &Options,
    (table, root): (&Table, &crate::Node),
    mut collect: Collect<'_, Vec<Move>>,
    gathered: Gathered,
) -> Result<Report, String> {
    let spec = collect.spec();
    // The observations in the single-process search's order, replayed by
    // a world that reports everything.
    let reach_all = Unseen::new(spec);
    let (replayer, _) = Single::new(table, options, root, u32::MAX, &reach_all);
    let mut scratch = replayer.scratch();
    let mut out = Successors::new(true);
    for rec in &gathered.recs {
        let at = replay_obs(&replayer, (table, root), rec, &mut scratch, &mut out)?;
        if let Some(succ) = out.list.get(at) {
            collect.visit(
                &succ.obs,
                || rec.order.len(),
                || unpack_all(&rec.moves).unwrap_or_default(),
            );
        }
    }
    // The within-turn graph: sources numbered in the search's order, then
    // the targets that are no source.
    let sources = &gathered.sources;
    let number = |n: usize| u32::try_from(n).map_err(|_| "more than 2^32 states with edges");
    let mut ids: HashMap<u128, u32> = HashMap::with_capacity(sources.len());
    for (n, s) in sources.iter().enumerate() {
        ids.insert(s.key, number(n)?);
    }
    let mut targets: Vec<u128> = sources
        .iter()
        .flat_map(|s| s.edges.iter().map(|&(_, to, _)| to))
        .filter(|to| !ids.contains_key(to))
        .collect();
    targets.sort_unstable();
    targets.dedup();
    for to in targets {
        let id = number(ids.len())?;
        ids.insert(to, id);
    }
    let mut edges = Edges::default();
    for (n, s) in sources.iter().enumerate() {
        for &(_, to, mv) in &s.edges {
            let mv = unpack(mv).ok_or_else(|| format!("a move that cannot be read ({mv:#x})"))?;
            let to = ids.get(&to).copied().unwrap_or_default();
            edges.push(Edge {
                from: number(n)?,
                to,
                mv,
            });
        }
    }
    Ok(collect.report(
        options,
        (
            table.clone(),
            gathered.states,
            gathered.stop,
            gathered.deepest,
        ),
        Graph {
            nodes: ids.len(),
            edges: &edges,
            path_to: |entry: u32| {
                sources
                    .get(entry as usize)
                    .and_then(|s| unpack_all(&s.moves).ok())
                    .unwrap_or_default()
            },
        },
        Vec::clone,
    ))
}
