//! Looking up the names a scenario writes (players, steps, facts, labels...) in its spec.

use std::ops::Range;

use toml::Spanned;
use turnspec_engine::PlayerId;
use turnspec_spec::suggest;
use turnspec_spec::{
    Arena, Diagnostic, FactId, Id, Named, PhaseId, StepId, TimingId, TurnActionId,
};

use super::{Place, Resolver, ScriptedTriggers};
use crate::raw::Text;

impl Resolver<'_> {
    fn err(&mut self, span: Range<usize>, message: String, help: String) {
        self.diags.push(
            Diagnostic::error("scenario::unknown-reference", span, message)
                .label("here")
                .help(help),
        );
    }

    fn lookup<T>(
        &mut self,
        name: &Text,
        what: &str,
        known: Vec<&str>,
        find: impl Fn(&str) -> Option<T>,
    ) -> Option<T> {
        if let Some(v) = find(name.get_ref()) {
            return Some(v);
        }
        let help = match suggest(name.get_ref(), &known) {
            Some(s) => format!("did you mean `{s}`?"),
            None => format!("the spec's {what}s are: {}", known.join(", ")),
        };
        self.err(
            name.span(),
            format!("the spec has no {what} `{}`", name.get_ref()),
            help,
        );
        None
    }

    /// An element of the spec by its id, or an error with a hint.
    pub(super) fn element<I: Id, T: Named>(
        &mut self,
        name: &Text,
        what: &str,
        arena: &Arena<I, T>,
    ) -> Option<I> {
        let known = arena.iter().map(|t| t.name_id()).collect();
        self.lookup(name, what, known, |n| arena.by_id(n))
    }

    pub(super) fn player(&mut self, name: &Text, players: u8) -> Option<PlayerId> {
        let text = name.get_ref();
        let n = text
            .strip_prefix('P')
            .or_else(|| text.strip_prefix('p'))
            .and_then(|n| n.parse::<u8>().ok());
        match n {
            Some(n) if n >= 1 && n <= players => Some(PlayerId(n - 1)),
            _ => {
                self.diags.push(
                    Diagnostic::error(
                        "scenario::player",
                        name.span(),
                        format!("`{text}` is not a player of this {players}-player game"),
                    )
                    .label("here")
                    .help(format!("players are written P1 to P{players}")),
                );
                None
            }
        }
    }

    pub(super) fn timing(&mut self, name: &Text) -> Option<TimingId> {
        let spec = self.spec;
        self.element(name, "timing class", spec.timing())
    }

    pub(super) fn place(&mut self, name: &Text) -> Option<Place> {
        let spec = self.spec;
        let mut known: Vec<&str> = spec.phases().iter().map(|p| p.id.as_str()).collect();
        known.extend(
            spec.steps()
                .iter()
                .filter(|s| !s.implicit)
                .map(|s| s.id.as_str()),
        );
        self.lookup(name, "phase or step", known, |n| {
            // A step-less phase's id names both; prefer the phase.
            spec.phase_by_id(n)
                .map(Place::Phase)
                .or_else(|| spec.step_by_id(n).map(Place::Step))
        })
    }

    pub(super) fn step_id(&mut self, name: &Text) -> Option<StepId> {
        let spec = self.spec;
        self.element(name, "step", spec.steps())
    }

    pub(super) fn phase_id(&mut self, name: &Text) -> Option<PhaseId> {
        let spec = self.spec;
        self.element(name, "phase", spec.phases())
    }

    pub(super) fn fact(&mut self, name: &Text) -> Option<FactId> {
        let spec = self.spec;
        self.element(name, "fact", spec.facts())
    }

    pub(super) fn action(&mut self, name: &Text) -> Option<TurnActionId> {
        let spec = self.spec;
        self.element(name, "turn-based action", spec.turn_actions())
    }

    pub(super) fn label(&mut self, name: Option<&Text>) -> u32 {
        let Some(name) = name else { return 0 };
        let text = name.get_ref();
        if let Some(&i) = self.label_numbers.get(text) {
            return i;
        }
        self.labels.push(text.clone());
        let i = (self.labels.len() - 1) as u32;
        self.label_numbers.insert(text.clone(), i);
        i
    }

    pub(super) fn number(&mut self, v: &Spanned<i64>, max: i64, what: &str) -> Option<i64> {
        let n = *v.get_ref();
        if n < 0 || n > max {
            self.diags.push(
                Diagnostic::error(
                    "scenario::bad-value",
                    v.span(),
                    format!("{what} {n} is out of range"),
                )
                .help(format!("use 0 to {max}")),
            );
            return None;
        }
        Some(n)
    }

    /// Trigger labels; `"P2: label"` names the controller, otherwise `by`
    /// (or, when that is absent too, the active player when it triggers).
    pub(super) fn triggers(&mut self, list: &[Text], by: Option<PlayerId>) -> ScriptedTriggers {
        list.iter()
            .map(|t| {
                let text = t.get_ref();
                let parsed = text.split_once(':').and_then(|(who, rest)| {
                    let who = who.trim();
                    let n = who.strip_prefix('P')?.parse::<u8>().ok()?;
                    Some((n, rest.trim().to_string()))
                });
                match parsed {
                    Some((n, rest)) if (1..=8).contains(&n) => {
                        let label = self.label(Some(&Spanned::new(t.span(), rest)));
                        (Some(PlayerId(n - 1)), label)
                    }
                    _ => (by, self.label(Some(t))),
                }
            })
            .collect()
    }
}
