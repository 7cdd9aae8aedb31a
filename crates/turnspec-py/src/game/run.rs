//! Running a game: the event sink, the Python host around engine calls, built-in policies.

use pyo3::prelude::*;
use turnspec_engine::policy::{Policy, decide_and_apply};
use turnspec_engine::{Event, EventSink, Game, RuleError, Status};
use turnspec_spec::Spec;

use super::PyGame;
use crate::errors::error_of;
use crate::host::PyHost;

/// Where events go: the buffer, or nowhere when recording is off.
pub(super) enum Sink<'a> {
    Keep(&'a mut Vec<Event>),
    Drop,
}

impl EventSink for Sink<'_> {
    #[inline]
    fn event(&mut self, event: Event) {
        if let Sink::Keep(v) = self {
            v.push(event);
        }
    }
}

fn rule_text(spec: &Spec, e: &RuleError) -> Option<String> {
    spec.rule(e.rule()).map(str::to_string)
}

fn illegal(py: Python<'_>, spec: &Spec, e: &RuleError) -> PyErr {
    error_of(
        py,
        "IllegalMove",
        (e.describe(spec), rule_text(spec, e), e.reason()),
    )
}

impl PyGame {
    /// Runs `f` with the Python host and the event sink; raises the host's
    /// exception if one was raised, else maps a refusal to `IllegalMove`.
    pub(super) fn with_host<T>(
        &mut self,
        py: Python<'_>,
        f: impl FnOnce(&mut Game, &mut PyHost<'_, '_>, &mut Sink<'_>) -> Result<T, RuleError>,
    ) -> PyResult<T> {
        let mut host = PyHost {
            py,
            spec: &self.spec,
            hooks: &self.hooks,
            error: None,
        };
        let mut sink = if self.record {
            Sink::Keep(&mut self.events)
        } else {
            Sink::Drop
        };
        let result = f(&mut self.game, &mut host, &mut sink);
        if let Some(e) = host.error.take() {
            return Err(e);
        }
        result.map_err(|e| illegal(py, &self.spec, &e))
    }

    pub(super) fn ensure_started(&mut self, py: Python<'_>) -> PyResult<()> {
        if !self.started {
            self.started = true;
            self.with_host(py, |g, h, s| {
                g.start(h, s);
                Ok(())
            })?;
        }
        Ok(())
    }

    pub(super) fn drive<P: Policy>(&mut self, policy: &mut P, end: u32) -> u64 {
        let mut sink = if self.record {
            Sink::Keep(&mut self.events)
        } else {
            Sink::Drop
        };
        let mut decisions = 0;
        while self.game.status() == Status::Running && self.game.turn() < end {
            if decide_and_apply(&mut self.game, policy, &mut sink).is_err() {
                break;
            }
            decisions += 1;
        }
        // Stops at the first decision of turn `end` (or when the game stops).
        decisions
    }
}
