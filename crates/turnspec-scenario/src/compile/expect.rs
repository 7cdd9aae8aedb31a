//! An `expect` table: the state a script step checks.

use toml::Spanned;
use turnspec_spec::Diagnostic;

use super::{Expect, Resolver};
use crate::raw::RawExpect;

impl Resolver<'_> {
    pub(super) fn expect(&mut self, x: &RawExpect, players: u8) -> Expect {
        let mut out = Expect {
            turn: x
                .turn
                .as_ref()
                .and_then(|t| self.number(t, 1_000_000, "turn"))
                .map(|t| t as u32),
            active: x.active.as_ref().and_then(|a| self.player(a, players)),
            phase: x.phase.as_ref().and_then(|p| self.phase_id(p)),
            step: x.step.as_ref().and_then(|s| self.step_id(s)),
            phase_number: x
                .phase_number
                .as_ref()
                .and_then(|n| self.number(n, 255, "phase number"))
                .map(|n| n as u8),
            repeat: x
                .repeat
                .as_ref()
                .and_then(|n| self.number(n, 255, "repeat"))
                .map(|n| n as u8),
            holder: x.holder.as_ref().map(|h| {
                if h.get_ref() == "none" {
                    None
                } else {
                    self.player(h, players)
                }
            }),
            stack: x
                .stack
                .as_ref()
                .map(|s| s.get_ref().iter().map(|l| l.get_ref().clone()).collect()),
            ..Expect::default()
        };
        for (name, v) in &x.counters {
            let text = Spanned::new(v.span(), name.clone());
            let spec = self.spec;
            let id = self.element(&text, "counter", spec.counters());
            if let (Some(id), Some(n)) = (id, self.number(v, u16::MAX as i64, "counter value")) {
                out.counters.push((id, n as u16));
            }
        }
        for (name, v) in &x.facts {
            let text = Spanned::new(v.span(), name.clone());
            if let Some(id) = self.fact(&text) {
                out.facts.push((id, *v.get_ref()));
            }
        }
        if let Some(s) = &x.status {
            const STATUSES: &[&str] = &[
                "running",
                "over",
                "turn_limit",
                "stalled",
                "no_players",
                "never_ends",
            ];
            if !STATUSES.contains(&s.get_ref().as_str()) {
                self.diags.push(
                    Diagnostic::error(
                        "scenario::bad-value",
                        s.span(),
                        format!("unknown status `{}`", s.get_ref()),
                    )
                    .help(format!("statuses: {}", STATUSES.join(", "))),
                );
            }
            out.status = Some(s.get_ref().clone());
        }
        if let Some(w) = &x.winners {
            out.winners = Some(
                w.get_ref()
                    .iter()
                    .filter_map(|p| self.player(p, players))
                    .collect(),
            );
        }
        if let Some(s) = &x.stopped {
            out.stopped = Some(normalise(s.get_ref()));
        }
        out
    }
}

/// Collapses runs of spaces so `"push  P1 instant  Shock"` matches.
pub(super) fn normalise(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}
