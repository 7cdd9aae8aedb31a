//! `explore --against` distributed: the differences and unmatched
//! elements, gathered to worker 0 and fed through [`Collect`].

use std::sync::Arc;

use turnspec_model::Spec;

use super::net::{Cluster, execute, fingerprint};
use super::{Observe, replay_obs, rounds, unpack_all};
use crate::Options;
use crate::against::{Collect, DiffReport, Obs, Pair, prepare};
use crate::moves::Move;
use crate::search::{Successors, World};

/// What the observation of a successor counts as, for keeping the first of
/// each: the collector keeps the first difference of each signature, the
/// first clean one, and the first mention of each unmatched element.
struct Kinds;

impl Observe<Obs> for Kinds {
    fn kinds(&mut self, obs: &Obs, out: &mut Vec<String>) {
        if let Some(d) = &obs.found {
            out.push(format!("{}:{}", u8::from(d.clean), d.signature));
        }
        if let Some(u) = &obs.unmatched {
            out.push(format!("u:{u}"));
        }
    }
}

/// Explores `a` and `b` in lockstep within `options`' bounds, as
/// [`crate::explore_against`] does, on `cluster.workers` timely workers in
/// this process and as many in each process of `cluster.hosts`. The report
/// is the same, byte for byte; process 0 gets it (`Some`), the others
/// `None`. Errors: specs that cannot be set up, a bad cluster, peers that
/// do not connect within the timeout. A connection that fails once the
/// search runs ends this process, as [`crate::explore_distributed`] says.
pub fn explore_against_distributed(
    a: &Spec,
    b: &Spec,
    options: &Options,
    cluster: &Cluster,
) -> Result<Option<DiffReport>, String> {
    // Spec errors are reported before any connection is made.
    prepare(a, b, options)?;
    let fingerprint = fingerprint(&[a.title(), b.title()], options, cluster.workers);
    let shared = Arc::new((a.clone(), b.clone(), options.clone()));
    execute(cluster, fingerprint, move |worker| {
        let (a, b, options) = &*shared;
        let (table, root, first) = prepare(a, b, options)?;
        let (world, root_key) = Pair::new([a, b], &table, options, &root);
        let Some(gathered) = rounds(
            worker,
            &world,
            &mut Kinds,
            (&table, &root, root_key),
            options,
        )?
        else {
            return Ok(None);
        };
        // Worker 0: the observations in the single-process search's order.
        let mut collect: Collect<Vec<Move>> = Collect::new(first);
        let mut scratch = world.scratch();
        let mut out = Successors::new(true);
        for rec in &gathered.recs {
            let at = replay_obs(&world, (&table, &root), rec, &mut scratch, &mut out)?;
            if let Some(succ) = out.list.get(at) {
                collect.visit(&succ.obs, || unpack_all(&rec.moves).unwrap_or_default());
            }
        }
        Ok(Some(collect.report(
            [a, b],
            options,
            (
                table.clone(),
                gathered.states,
                gathered.stop,
                gathered.deepest,
            ),
            Vec::clone,
        )))
    })
}
