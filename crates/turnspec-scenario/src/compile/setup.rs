//! The scenario's header and `[setup]`: the game options and where it starts.

use std::sync::Arc;

use toml::Spanned;
use turnspec_engine::{GameOptions, StartAt};
use turnspec_spec::{Diagnostic, Spec, VariantId};

use super::{Entry, Resolver, Scenario};
use crate::raw::RawScenario;

impl Resolver<'_> {
    pub(super) fn scenario(
        &mut self,
        path: &str,
        source: &str,
        raw: &RawScenario,
        (spec, spec_path): (Arc<Spec>, String),
    ) -> Scenario {
        let header = raw.scenario.get_ref();
        let setup = raw.setup.get_ref();
        let players = match &setup.players {
            Some(p) => {
                let n = *p.get_ref();
                if n < spec.game().min_players as i64 || n > spec.game().max_players as i64 {
                    self.diags.push(
                        Diagnostic::error(
                            "scenario::players",
                            p.span(),
                            format!(
                                "{n} players: the spec allows {} to {}",
                                spec.game().min_players,
                                spec.game().max_players
                            ),
                        )
                        .label("here"),
                    );
                }
                n.clamp(1, 8) as u8
            }
            None => spec.game().min_players,
        };
        let mut options = GameOptions::players(players);
        if let Some(p) = &setup.starting_player {
            options.starting_player = self.player(p, players).unwrap_or_default();
        }
        for v in &setup.variants {
            let spec = self.spec;
            let id: Option<VariantId> = self.element(v, "variant", spec.variants());
            options.variants.extend(id);
        }
        for f in &setup.facts {
            options.facts.extend(self.fact(f));
        }
        if setup.turn.is_some()
            || setup.active.is_some()
            || setup.phase.is_some()
            || setup.step.is_some()
        {
            let turn = setup
                .turn
                .as_ref()
                .and_then(|t| self.number(t, 1_000_000, "turn"))
                .unwrap_or(1)
                .max(1) as u32;
            let active = match &setup.active {
                Some(a) => self.player(a, players).unwrap_or_default(),
                None => options.starting_player,
            };
            let step = setup.step.as_ref().and_then(|s| self.step_id(s));
            let phase = match (&setup.phase, step) {
                (Some(p), _) => self.phase_id(p),
                (None, Some(s)) => spec.step(s).map(|s| s.phase),
                (None, None) => spec.turn().first().copied(),
            };
            if let Some(phase) = phase {
                if spec.phase(phase).is_some_and(|p| p.on_demand) {
                    let span = setup
                        .phase
                        .as_ref()
                        .map(|p| p.span())
                        .unwrap_or(raw.setup.span());
                    self.diags.push(
                        Diagnostic::error(
                            "scenario::start",
                            span,
                            "a scenario cannot start inside an on-demand phase",
                        )
                        .help("start in the phase whose action starts it, and play that action"),
                    );
                }
                options.start_at = Some(StartAt::new(turn, active, phase).at_step(step));
            }
        }
        for (name, v) in &setup.counters {
            let text = Spanned::new(v.span(), name.clone());
            let spec = self.spec;
            let id = self.element(&text, "counter", spec.counters());
            if let (Some(id), Some(n)) = (id, self.number(v, u16::MAX as i64, "counter value")) {
                options.counters.push((id, n as u16));
            }
        }
        for (name, by) in &setup.in_play {
            if let Some(controller) = self.player(by, players) {
                let label = self.label(Some(&Spanned::new(by.span(), name.clone())));
                options.in_play.push((label, controller));
            }
        }
        if !spec.objects().tracked
            && let Some(by) = setup.in_play.values().next()
        {
            self.diags.push(
                Diagnostic::error(
                    "scenario::setup",
                    by.span(),
                    "the spec keeps no objects: it has no `[objects]` table",
                )
                .help("remove `in_play`, or add `[objects]` to the spec"),
            );
        }
        if !setup.teams.is_empty() {
            if setup.teams.len() != players as usize {
                self.diags.push(
                    Diagnostic::error("scenario::teams", setup.teams[0].span(), format!("{} team numbers for {players} players", setup.teams.len()))
                        .help("give one team number per player, in seat order, e.g. `teams = [1, 1, 2, 2]`"),
                );
            }
            options.teams = setup
                .teams
                .iter()
                .filter_map(|t| self.number(t, 7, "team"))
                .map(|t| t as u8)
                .collect();
        }
        let mut answers = Vec::new();
        for (name, v) in &setup.answers {
            let text = Spanned::new(v.span(), name.clone());
            if let (Some(a), Some(n)) = (
                self.action(&text),
                self.number(v, u16::MAX as i64, "answer"),
            ) {
                answers.push((a, n as u16));
            }
        }
        let mut script = Vec::new();
        for e in &raw.script {
            if let Some(step) = self.entry(e, players) {
                script.push(Entry {
                    span: e.span(),
                    step,
                });
            }
        }
        Scenario {
            path: path.to_string(),
            source: Arc::from(source),
            name: header.name.get_ref().clone(),
            rules: header.rules.iter().map(|r| r.get_ref().clone()).collect(),
            description: header
                .description
                .as_ref()
                .map(|d| d.get_ref().clone())
                .unwrap_or_default(),
            origin: header
                .source
                .as_ref()
                .map(|d| d.get_ref().clone())
                .unwrap_or_default(),
            spec_path,
            spec,
            options,
            answers,
            show_ends: setup
                .show_ends
                .as_ref()
                .map(|b| *b.get_ref())
                .unwrap_or(false),
            labels: std::mem::take(&mut self.labels),
            stops: Vec::new(),
            script,
        }
    }
}
