//! Differential fuzzing on generated specs: each run writes a random valid
//! spec (generate.rs), loads it through `turnspec_spec::load_str`, sets up
//! a random game of it (players, starting player, teams, variants, facts,
//! counter values) and plays one seeded action sequence on the compiled
//! turn program and on the interpreter (actions.rs: results, events, states
//! and hook calls compared after every action).

use std::panic::{AssertUnwindSafe, catch_unwind};

use turnspec_engine::policy::SplitMix64;
use turnspec_engine::{GameOptions, HookContext, Host, PlayerId, Status, Triggers};
use turnspec_engine::{PlayedHook, ResolvedHook, StepBeganHook, TurnActionHook};
use turnspec_spec::Spec;

use crate::actions::{Duel, DuelStats, TwinHost};
use crate::generate::{Feature, Features, generate};

/// A known difference: where it is minimised, and whether a failed run
/// (its spec, and the first line of its failure) shows it.
pub struct Known {
    pub case: &'static str,
    pub shows: fn(&Spec, Features, &str) -> bool,
}

/// Known differences between the tiers, counted apart from failures
/// (the first few saved as `known-SEED.toml`) unless `--include-known` is
/// given. Each case is minimised and described in docs/reliability.md
/// (fixed ones move to `tests/specs/differential/`, which
/// `tests/differential.rs` replays on both tiers). The first one the
/// fuzzer found (a play that ends the turn under the program) was fixed
/// in the engine.
pub const KNOWN: &[Known] = &[];

/// The first event that differs between the program's list and the
/// interpreter's in a failure message, each as its Debug text: what a
/// known case's `shows` reads (none is open now).
#[allow(dead_code)]
fn first_different_events(message: &str) -> Option<(&str, &str)> {
    let list = |keys: [&str; 2]| {
        message.lines().find_map(|l| {
            let l = l.trim_start();
            let rest = keys.iter().find_map(|k| l.strip_prefix(k))?;
            let rest = rest.trim_start();
            // `Ok(()) [...]` in a replay's message.
            let rest = rest.strip_prefix("Ok(()) ").unwrap_or(rest);
            rest.strip_prefix('[')
        })
    };
    let program = events(list(["program ", "left: "])?);
    let interpreter = events(list(["interpreter ", "right: "])?);
    program
        .iter()
        .zip(interpreter.iter())
        .find(|(a, b)| a != b)
        .map(|(a, b)| (*a, *b))
        .or_else(|| {
            let n = program.len().min(interpreter.len());
            Some((
                program.get(n).copied().unwrap_or(""),
                interpreter.get(n).copied().unwrap_or(""),
            ))
        })
}

/// The top-level items of a Debug list's text (after its `[`).
#[allow(dead_code)]
fn events(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in text.char_indices() {
        match c {
            '{' | '(' | '[' => depth += 1,
            '}' | ')' => depth -= 1,
            ']' if depth == 0 => {
                out.push(text[start..i].trim());
                return out;
            }
            ']' => depth -= 1,
            ',' if depth == 0 => {
                out.push(text[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(text[start..].trim());
    out
}

/// What one run came to.
pub enum Outcome {
    /// The loader refused the generated spec: a generator bug.
    Rejected(Vec<String>),
    /// Both tiers refused the set-up.
    SetupRefused(Features),
    /// Played on both tiers without a difference.
    Played(Features, DuelStats, usize),
    /// The tiers differed as a known case does.
    Known(Features, &'static str),
}

/// One run: panics (caught by the caller) at the first difference.
pub fn run(seed: u64, minimise: bool, include_known: bool) -> (String, Outcome) {
    let g = generate(seed);
    let spec = match turnspec_spec::load_str("generated.toml", &g.text) {
        Ok((spec, report)) => (spec, report.diagnostics.len()),
        Err(report) => {
            let reasons = report
                .diagnostics
                .iter()
                .filter(|d| d.severity == turnspec_spec::Severity::Error)
                .map(|d| format!("{}: {}", d.code, d.message))
                .collect();
            return (g.text, Outcome::Rejected(reasons));
        }
    };
    let (spec, warnings) = spec;
    let mut features = g.features;
    let mut rng = SplitMix64(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0xac710);
    let info = spec.game();
    let span = (info.max_players - info.min_players) as u64 + 1;
    let players = info.min_players + rng.below(span) as u8;
    features.set(match players {
        1 => Feature::Players1,
        2 => Feature::Players2,
        3 | 4 => Feature::Players3To4,
        _ => Feature::Players5To8,
    });
    let mut options = GameOptions::players(players);
    if rng.below(3) == 0 {
        features.set(Feature::StartingPlayer);
        options = options.with_starting_player(PlayerId(rng.below(players as u64) as u8));
    }
    if players >= 2 && rng.below(5) == 0 {
        features.set(Feature::Teams);
        let sides = 1 + rng.below(players as u64 / 2 + 1);
        let teams = (0..players).map(|_| rng.below(sides) as u8).collect();
        options = options.with_teams(teams);
    }
    let variants: Vec<_> = spec
        .variants()
        .ids()
        .filter(|_| rng.below(2) == 0)
        .collect();
    if !variants.is_empty() {
        features.set(Feature::VariantsOn);
        options = options.with_variants(variants);
    }
    let facts: Vec<_> = spec.facts().ids().filter(|_| rng.below(3) == 0).collect();
    if !facts.is_empty() {
        features.set(Feature::FactsSet);
        options = options.with_facts(facts);
    }
    if rng.below(10) == 0 {
        let counters: Vec<_> = spec
            .counters()
            .ids()
            .map(|c| (c, rng.below(4) as u16))
            .collect();
        if !counters.is_empty() {
            features.set(Feature::StartCounters);
            options = options.with_counters(counters);
        }
    }
    let turn_limit = 1 + rng.below(6) as u32;
    let host_seed = rng.next_u64();
    let mut hosts = (
        FuzzHost::new(host_seed, &spec),
        FuzzHost::new(host_seed, &spec),
    );
    let duel = Duel {
        spec: &spec,
        other: &spec,
        options,
        turn_limit,
        legal_actions: if rng.below(2) == 0 { 14 } else { 6 },
    };
    let text = g.text;
    if minimise {
        let played = catch_unwind(AssertUnwindSafe(|| duel.play(&mut rng, &mut hosts)));
        if played.is_ok() {
            return (text, Outcome::SetupRefused(features));
        }
        let mut actions = crate::actions::LAST_ACTIONS.with(|l| l.borrow().clone());
        let fails = |list: &[crate::actions::Input]| {
            catch_unwind(AssertUnwindSafe(|| {
                duel.replay(list, || FuzzHost::new(host_seed, &spec))
            }))
            .map_or(true, |r| r.is_err())
        };
        // Drop actions one at a time, from the end, while it still fails.
        let mut changed = true;
        while changed {
            changed = false;
            let mut i = actions.len();
            while i > 0 {
                i -= 1;
                let mut fewer = actions.clone();
                fewer.remove(i);
                if fails(&fewer) {
                    actions = fewer;
                    changed = true;
                }
            }
        }
        let text = shrink_spec(&text, &duel, &actions, host_seed);
        let spec = turnspec_spec::load_str("generated.toml", &text)
            .map(|(s, _)| s)
            .unwrap_or(spec.clone());
        let duel = Duel {
            spec: &spec,
            other: &spec,
            ..duel
        };
        let why = catch_unwind(AssertUnwindSafe(|| {
            duel.replay(&actions, || FuzzHost::new(host_seed, &spec))
        }))
        .map_or_else(|_| "panicked".to_string(), |r| r.err().unwrap_or_default());
        let list: Vec<String> = actions.iter().map(|a| format!("{a:?}")).collect();
        let report = format!(
            "{text}\n# set-up: {:?}, turn limit {turn_limit}, host seed {host_seed}\n# {} actions:\n# {}\n# {}\n",
            duel.options,
            actions.len(),
            list.join("\n# "),
            why.replace('\n', "\n# ")
        );
        return (report, Outcome::SetupRefused(features));
    }
    match catch_unwind(AssertUnwindSafe(|| duel.play(&mut rng, &mut hosts))) {
        Ok(Some(stats)) => (text, Outcome::Played(features, stats, warnings)),
        Ok(None) => (text, Outcome::SetupRefused(features)),
        Err(payload) => {
            let message = panic_text(payload.as_ref());
            match KNOWN.iter().find(|k| (k.shows)(&spec, features, &message)) {
                Some(k) if !include_known => (text, Outcome::Known(features, k.case)),
                _ => std::panic::resume_unwind(payload),
            }
        }
    }
}

/// A panic's message.
pub fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default()
}

/// Whether a status is one a run counts separately.
pub fn status_name(s: Option<Status>) -> &'static str {
    match s {
        Some(Status::Running) => "still running after 200 actions",
        Some(Status::TurnLimit) => "turn limit reached",
        Some(Status::Stalled) => "stalled",
        Some(Status::NoPlayers) => "no players left",
        Some(Status::NeverEnds) => "never ends",
        Some(Status::Over) => "over",
        None => "-",
    }
}

/// A hook call, as the host saw it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Hook {
    kind: u8,
    turn: u32,
    active: u8,
    phase: usize,
    step: usize,
    repeat: u8,
    what: u64,
}

/// A host that answers turn-based actions at random (sometimes far past
/// their `max`), reports triggers from every hook now and then, and logs
/// every call so the two tiers' calls can be compared. An action whose
/// answer names a role's holder (`answer = { role = ... }`) gets a seat:
/// mostly one in the game, sometimes 0 (the role stays), a seat past the
/// players' count or far past any.
pub struct FuzzHost {
    rng: SplitMix64,
    label: u32,
    log: Vec<Hook>,
    /// By turn-based action index: its answer is a seat.
    seat_answers: Vec<bool>,
}

impl FuzzHost {
    pub fn new(seed: u64, spec: &Spec) -> Self {
        FuzzHost {
            rng: SplitMix64(seed),
            label: 1_000_000,
            log: Vec::new(),
            seat_answers: spec
                .turn_actions()
                .iter()
                .map(|a| a.answer_role.is_some())
                .collect(),
        }
    }

    fn note(&mut self, kind: u8, ctx: &HookContext, what: u64) {
        self.log.push(Hook {
            kind,
            turn: ctx.turn,
            active: ctx.active.0,
            phase: ctx.phase.index(),
            step: ctx.step.index(),
            repeat: ctx.repeat,
            what,
        });
    }

    /// One trigger in `chance` out of 64, for a random seat.
    fn maybe_trigger(&mut self, ctx: &HookContext, triggers: &mut Triggers<'_>, chance: u64) {
        if self.rng.below(64) < chance {
            self.label += 1;
            let seat = if self.rng.below(2) == 0 {
                ctx.active
            } else {
                PlayerId(self.rng.below(ctx.players as u64) as u8)
            };
            let _ = triggers.add(seat, self.label);
        }
    }
}

impl Host for FuzzHost {
    fn turn_action(&mut self, hook: TurnActionHook<'_>) -> u16 {
        let TurnActionHook {
            ctx,
            action,
            mut triggers,
            ..
        } = hook;
        self.maybe_trigger(&ctx, &mut triggers, 6);
        let answer = if self.seat_answers.get(action.index()) == Some(&true) {
            let seats = ctx.players.max(1) as u64;
            match self.rng.below(10) {
                0 => 0,
                1 => u16::MAX,
                // Past the last seat (the answer is cut to `max` first).
                2 | 3 => (seats + 1 + self.rng.below(8)) as u16,
                _ => 1 + self.rng.below(seats) as u16,
            }
        } else {
            match self.rng.below(16) {
                0 => u16::MAX,
                1 => 300,
                n => (n % 3) as u16,
            }
        };
        self.note(0, &ctx, action.index() as u64 | (answer as u64) << 32);
        answer
    }

    fn played(&mut self, hook: PlayedHook<'_>) {
        let PlayedHook {
            ctx,
            player,
            timing,
            label,
            mut triggers,
            ..
        } = hook;
        self.note(
            1,
            &ctx,
            player.0 as u64 | (timing.index() as u64) << 8 | (label as u64) << 24,
        );
        self.maybe_trigger(&ctx, &mut triggers, 6);
    }

    fn step_began(&mut self, hook: StepBeganHook<'_>) {
        let StepBeganHook {
            ctx, mut triggers, ..
        } = hook;
        self.note(2, &ctx, 0);
        self.maybe_trigger(&ctx, &mut triggers, 5);
    }

    fn resolved(&mut self, hook: ResolvedHook<'_>) {
        let ResolvedHook {
            ctx,
            object,
            mut triggers,
            ..
        } = hook;
        self.note(
            3,
            &ctx,
            object.controller.0 as u64 | (object.label as u64) << 8,
        );
        self.maybe_trigger(&ctx, &mut triggers, 4);
    }
}

impl TwinHost for FuzzHost {
    fn same(&mut self, other: &mut Self) -> Result<(), String> {
        let r = if self.log == other.log {
            Ok(())
        } else {
            Err(format!(
                "program's hooks {:?}, interpreter's {:?}",
                self.log, other.log
            ))
        };
        self.log.clear();
        other.log.clear();
        r
    }
}

/// The spec text without every table and then every line the difference
/// does not need: each removal is kept when the spec still loads and the
/// same actions still make the tiers differ (ids are indices, so the
/// actions may come to name other elements; the difference stays one).
fn shrink_spec(
    text: &str,
    duel: &Duel<'_>,
    actions: &[crate::actions::Input],
    host_seed: u64,
) -> String {
    let fails = |t: &str| {
        let Ok((spec, _)) = turnspec_spec::load_str("generated.toml", t) else {
            return false;
        };
        let d = Duel {
            spec: &spec,
            other: &spec,
            options: duel.options.clone(),
            turn_limit: duel.turn_limit,
            legal_actions: duel.legal_actions,
        };
        catch_unwind(AssertUnwindSafe(|| {
            d.replay(actions, || FuzzHost::new(host_seed, &spec))
        }))
        .map_or(true, |r| r.is_err())
    };
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    // Whole tables first (a header up to the next one), then single lines.
    for tables in [true, false] {
        let mut i = lines.len();
        while i > 0 {
            i -= 1;
            let end = if tables {
                if !lines[i].trim_start().starts_with('[') {
                    continue;
                }
                (i + 1..lines.len())
                    .find(|j| lines[*j].trim_start().starts_with('['))
                    .unwrap_or(lines.len())
            } else {
                i + 1
            };
            let mut fewer = lines.clone();
            fewer.drain(i..end);
            if fails(&fewer.join("\n")) {
                lines = fewer;
                i = i.min(lines.len());
            }
        }
    }
    lines.join("\n") + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_cases_read_the_first_event_that_differs() {
        let message = "program and interpreter differ after Move(Pass { player: PlayerId(0) }):\n  program     [Passed { player: PlayerId(0) }, TurnAction { action: TurnActionId(1), answer: 1 }, PriorityGiven { player: PlayerId(0), window: Some(WindowId(0)), because: WindowOpened }]\n  interpreter [Passed { player: PlayerId(0) }, TurnAction { action: TurnActionId(1), answer: 1 }, RoleTaken { role: RoleId(0), player: PlayerId(0) }, PriorityGiven { player: PlayerId(0), window: Some(WindowId(0)), because: WindowOpened }]\nactions from the start:\n";
        let (p, i) = first_different_events(message).expect("two lists");
        assert!(p.starts_with("PriorityGiven"), "{p}");
        assert!(i.starts_with("RoleTaken"), "{i}");
        let start = "assertion `left == right` failed: program and interpreter differ at the start\n  left: [TurnBegan { turn: 1, player: PlayerId(0) }]\n right: [TurnBegan { turn: 1, player: PlayerId(0) }, RoleTaken { role: RoleId(1), player: PlayerId(0) }]";
        let (p, i) = first_different_events(start).expect("two lists");
        assert_eq!(p, "");
        assert!(i.starts_with("RoleTaken"));
    }
}
