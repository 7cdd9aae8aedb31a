//! `turnspec stops check`: every window where a player could act but their
//! stop profile passes through without asking (docs/stops.md, "The safety
//! check").
//!
//! The search is `explore`'s breadth-first search with P1 driven by an
//! [`AutoPasser`] holding the profile: where the profile passes for P1,
//! the only move is that pass, made by the auto-passer itself; where it
//! asks, P1 may do anything, as the other players (who have no profile)
//! always may. A state is the game, the host's queued answers and the
//! auto-passer (what P1 last saw of the stack counts for `stack_grew`), so
//! the profile is judged exactly as it would run.
//!
//! A window the profile passes through while P1 could play is *passed
//! through*. It is *hidden* (an error) when one of the timing classes P1
//! could use there is usable at none of the windows the profile stops in:
//! the profile takes that decision away from the player altogether. A
//! `[[pass]]` place of the profile makes it *chosen*.

use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};

use turnspec_engine::{AutoPasser, DEFAULT_PASS_LIMIT, Game, PlayerId, Status, Stopped};
use turnspec_model::{Spec, StepId, StopProfile};

use crate::moves::{Move, QueuedHost, Side, Table, enumerate, may_play};
use crate::search::{Next, Search, StateRef, Stop, Succ, Successors, World, bfs, key_of};
use crate::{Node, Options, Sides, start, with_threads};

/// The player whose profile is checked. Seats are symmetric in every spec
/// turnspec has, and both turns (own and others') are searched.
const PLAYER: PlayerId = PlayerId(0);

/// How the check judges a window the profile passes through.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verdict {
    /// The player could use a timing class here that they can use at no
    /// window the profile stops in: the profile hides the decision.
    Hidden,
    /// The player could play here, and can play the same classes where the
    /// profile stops.
    PassedThrough,
    /// The profile marks passing through here as a choice (`[[pass]]`).
    Chosen,
}

impl Verdict {
    /// `hidden`, `passed through`, `chosen`.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Hidden => "hidden",
            Verdict::PassedThrough => "passed through",
            Verdict::Chosen => "chosen",
        }
    }
}

/// One kind of window the profile passes through while the player could
/// act: a step, whose turn, and whether the stack was empty.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PassedWindow {
    /// The step's id.
    pub step: String,
    /// In the player's own turn (else another player's).
    pub own_turn: bool,
    /// The stack was not empty.
    pub stack: bool,
    /// The timing classes the player could use there.
    pub classes: Vec<String>,
    /// Of them, those usable at no window the profile stops in.
    pub hides: Vec<String>,
    /// What the check makes of it.
    pub verdict: Verdict,
    /// The step's rule and the hidden classes' rules, as the spec cites them.
    pub rules: Vec<String>,
    /// The shortest sequence of moves from the start that reaches it.
    pub moves: Vec<Move>,
}

/// What `turnspec stops check` found.
#[derive(Debug, Clone)]
pub struct StopsReport {
    /// The spec's title.
    pub title: String,
    /// The bounds of the search.
    pub options: Options,
    /// The names moves refer to.
    pub table: Table,
    /// Distinct states found.
    pub states: usize,
    /// Why the search stopped.
    pub stop: Stop,
    /// The timing classes the player could use at some window the profile
    /// stops in.
    pub asked_classes: Vec<String>,
    /// Windows passed through, hidden ones first, then by step.
    pub windows: Vec<PassedWindow>,
}

impl StopsReport {
    /// Whether the profile hides a decision.
    pub fn has_hidden(&self) -> bool {
        self.windows.iter().any(|w| w.verdict == Verdict::Hidden)
    }

    /// A move in words.
    pub fn describe_move(&self, m: Move) -> String {
        self.table.describe(m)
    }

    /// The report for people.
    pub fn to_text(&self, profile_name: &str) -> String {
        let mut out = format!(
            "stops check: {profile_name} on {}\n  {}\n  {} states, {}\n",
            self.title,
            self.options.summary(),
            self.states,
            crate::explore::stop_text(self.stop)
        );
        if self.asked_classes.is_empty() {
            out.push_str("  P1 can play nothing where the profile stops\n");
        } else {
            out.push_str(&format!(
                "  where the profile stops, P1 can play: {}\n",
                self.asked_classes.join(", ")
            ));
        }
        if self.windows.is_empty() {
            out.push_str("\nno window passed through where P1 could act\n");
            return out;
        }
        for w in &self.windows {
            let level = match w.verdict {
                Verdict::Hidden => "error",
                Verdict::PassedThrough => "passed",
                Verdict::Chosen => "chosen",
            };
            out.push_str(&format!(
                "\n{level}: `{}` in {} turn, stack {}: P1 could play {}",
                w.step,
                if w.own_turn {
                    "P1's own"
                } else {
                    "another player's"
                },
                if w.stack { "not empty" } else { "empty" },
                w.classes.join(", ")
            ));
            if !w.rules.is_empty() {
                out.push_str(&format!(" (rule {})", w.rules.join(", ")));
            }
            out.push('\n');
            if w.verdict == Verdict::Hidden {
                out.push_str(&format!(
                    "  the profile never stops where P1 can play {}\n  help: add a [[stop]] at = \"{}\", or a [[pass]] there if passing is a choice\n",
                    w.hides.join(", "),
                    w.step
                ));
            }
            let moves: Vec<String> = w.moves.iter().map(|m| self.describe_move(*m)).collect();
            out.push_str(&format!(
                "  shortest sequence ({} moves): {}\n",
                moves.len(),
                if moves.is_empty() {
                    "the start".to_string()
                } else {
                    moves.join(", ")
                }
            ));
        }
        let hidden = self
            .windows
            .iter()
            .filter(|w| w.verdict == Verdict::Hidden)
            .count();
        out.push_str(&format!(
            "\n{} window kind(s) passed through, {hidden} hiding a decision\n",
            self.windows.len()
        ));
        out
    }
}

/// A state of the check: the game with its host, and P1's auto-passer.
#[derive(Clone)]
struct State {
    node: Node,
    passer: AutoPasser,
}

impl Hash for State {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.node.hash(h);
        self.passer.hash(h);
    }
}

/// Where P1 was passed through while able to play (at the expanded state).
struct Passed {
    step: StepId,
    own_turn: bool,
    stack: bool,
    classes: Vec<u16>,
}

#[derive(Default)]
struct Obs {
    /// The expanded state was passed through: reported with its first
    /// successor only.
    passed: Option<Passed>,
    /// Timing classes (table indices) P1 could use where P1 was asked.
    asked: Vec<u16>,
}

struct Check<'t> {
    table: &'t Table,
    options: &'t Options,
}

impl Check<'_> {
    /// The timing classes (table indices) P1 could use now.
    fn usable(&self, game: &Game) -> Vec<u16> {
        (0..self.table.timing.len())
            .filter(|t| self.table.timing[*t].ids[0].is_some_and(|id| may_play(game, PLAYER, id)))
            .map(|t| t as u16)
            .collect()
    }
}

impl World for Check<'_> {
    type State = State;
    type Obs = Obs;
    type Scratch = ();

    fn scratch(&self) {}

    fn expand(&self, state: StateRef<'_, State>, _: &mut (), out: &mut Successors<State, Obs>) {
        // This world does not pack: its states come whole.
        let StateRef::Whole(state) = state else {
            return;
        };
        let out = &mut out.list;
        let before = &state.node.sides[0];
        let mut passer = state.passer.clone();
        let mut obs = Obs::default();
        if before.game.holder() == Some(PLAYER) {
            // With no passes allowed, the auto-passer only decides: it
            // reports the pass limit exactly when the profile would pass.
            let mut side = before.clone();
            passer.set_pass_limit(0);
            let decided = {
                let mut host = QueuedHost {
                    pending: &mut side.pending,
                };
                passer.advance(&mut side.game, &mut host, &mut ())
            };
            if decided == Stopped::PassLimit {
                let classes = self.usable(&side.game);
                if !classes.is_empty() {
                    obs.passed = Some(Passed {
                        step: side.game.step(),
                        own_turn: side.game.active_player() == PLAYER,
                        stack: !side.game.stack().is_empty(),
                        classes,
                    });
                }
                // The auto-passer makes the one move there is.
                passer.set_pass_limit(1);
                let stopped = {
                    let mut host = QueuedHost {
                        pending: &mut side.pending,
                    };
                    passer.advance(&mut side.game, &mut host, &mut ())
                };
                passer.set_pass_limit(DEFAULT_PASS_LIMIT);
                if matches!(stopped, Stopped::Refused { .. }) {
                    return;
                }
                out.push(successor(
                    Move::Pass(PLAYER),
                    side,
                    passer,
                    state.node.host_moves,
                    obs,
                ));
                return;
            }
            passer.set_pass_limit(DEFAULT_PASS_LIMIT);
            obs.asked = self.usable(&before.game);
        }
        let mut moves = Vec::new();
        let host_left = state.node.host_moves < self.options.host_moves;
        enumerate(
            self.table,
            &self.options.families,
            &state.node.sides,
            host_left,
            &mut moves,
        );
        let mut first = true;
        for m in moves {
            let mut side = before.clone();
            if side.apply(self.table, 0, m, &mut ()).is_err() {
                continue;
            }
            let host = m.is_host_move();
            if host && side.game.state() == before.game.state() && side.pending == before.pending {
                continue;
            }
            let obs = if first {
                first = false;
                std::mem::take(&mut obs)
            } else {
                Obs::default()
            };
            out.push(successor(
                m,
                side,
                passer.clone(),
                state.node.host_moves + u8::from(host),
                obs,
            ));
        }
    }
}

/// A successor state, to expand later while the game runs.
fn successor(
    mv: Move,
    side: Side,
    passer: AutoPasser,
    host_moves: u8,
    obs: Obs,
) -> Succ<State, Obs> {
    let running = side.game.status() == Status::Running && side.game.holder().is_some();
    let state = State {
        node: Node {
            sides: Sides::One(side),
            host_moves,
            diverged: false,
        },
        passer,
    };
    Succ {
        mv,
        key: key_of(&state),
        next: match running {
            true => Next::Whole(Box::new(state)),
            false => Next::Stopped,
        },
        obs,
    }
}

/// Checks `profile` (P1's) against `spec` within `options`' bounds.
pub fn check_stops(
    spec: &Spec,
    profile: &StopProfile,
    options: &Options,
) -> Result<StopsReport, String> {
    let table = Table::new(&[spec], options.max_answer);
    let (side, _) = start(spec, options, true)?;
    let mut passer = AutoPasser::new();
    passer
        .set_profile(spec, PLAYER, profile.clone())
        .map_err(|e| format!("{}: {e}", spec.title()))?;
    let root = State {
        node: Node {
            sides: Sides::One(side),
            host_moves: 0,
            diverged: false,
        },
        passer,
    };
    let root_key = key_of(&root);
    let world = Check {
        table: &table,
        options,
    };
    // Per kind of window, the first (so shortest) time it was passed
    // through: the state, and the classes usable there.
    let mut passed: BTreeMap<(StepId, bool, bool), (u32, Vec<u16>)> = BTreeMap::new();
    let mut asked = vec![false; table.timing.len()];
    let mut quiet = |_| {};
    let mut search = Search {
        options,
        progress: &mut quiet,
        frontier_memory: crate::search::FRONTIER_MEMORY,
    };
    let searched = with_threads(options.threads, || {
        bfs(
            &world,
            root,
            root_key,
            &mut search,
            |_tree, parent, _mv, obs: &Obs, _target, _new| {
                for t in &obs.asked {
                    asked[*t as usize] = true;
                }
                if let Some(p) = &obs.passed {
                    let entry = passed
                        .entry((p.step, p.own_turn, p.stack))
                        .or_insert_with(|| (parent, Vec::new()));
                    for t in &p.classes {
                        if !entry.1.contains(t) {
                            entry.1.push(*t);
                        }
                    }
                }
                0
            },
        )
    });
    let tree = &searched.tree;
    let name = |t: u16| table.timing[t as usize].name.clone();
    let mut windows = Vec::new();
    for ((step, own_turn, stack), (at, mut classes)) in passed {
        classes.sort_unstable();
        let hides: Vec<u16> = classes
            .iter()
            .copied()
            .filter(|t| !asked[*t as usize])
            .collect();
        let verdict = if profile.chosen(step, own_turn) {
            Verdict::Chosen
        } else if hides.is_empty() {
            Verdict::PassedThrough
        } else {
            Verdict::Hidden
        };
        let mut rules = Vec::new();
        if let Some(r) = spec.step(step).and_then(|s| spec.rule(s.rule)) {
            rules.push(r.to_string());
        }
        for t in &hides {
            let rule = table.timing[*t as usize].ids[0]
                .and_then(|id| spec.timing_class(id))
                .and_then(|c| spec.rule(c.rule));
            if let Some(r) = rule
                && !rules.iter().any(|x| x == r)
            {
                rules.push(r.to_string());
            }
        }
        windows.push(PassedWindow {
            step: spec.id_of(step).to_string(),
            own_turn,
            stack,
            classes: classes.iter().map(|t| name(*t)).collect(),
            hides: hides.iter().map(|t| name(*t)).collect(),
            verdict,
            rules,
            moves: tree.path(at),
        });
    }
    // Hidden first; within a verdict, the order of the spec's steps.
    windows.sort_by_key(|w| w.verdict);
    let asked_classes = (0..table.timing.len())
        .filter(|t| asked[*t])
        .map(|t| name(t as u16))
        .collect();
    Ok(StopsReport {
        title: spec.title().to_string(),
        options: options.clone(),
        table,
        states: tree.len(),
        stop: searched.stop,
        asked_classes,
        windows,
    })
}
