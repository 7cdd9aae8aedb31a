//! What `explore` found, and the report as text.

use turnspec_engine::Status;
use turnspec_model::Spec;

use crate::Options;
use crate::moves::{Move, Table};
use crate::scenario::{Header, Writer};
use crate::search::Stop;

/// What kind of thing a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FindingKind {
    /// The game cannot go on: nobody may act and nothing advances. The
    /// status says how it stopped (`Stalled`, `NeverEnds`; `Running` with
    /// nobody holding priority); `beyond_limit` when it happens as the
    /// next turn after the search's turn limit begins.
    DeadEnd {
        /// How the game stopped.
        status: Status,
        /// It stopped in the turn after the search's last turn.
        beyond_limit: bool,
    },
    /// Moves that bring the game back to a state it was in, within one
    /// turn: players can go round for ever without the turn moving on.
    Cycle {
        /// The cycle is made of plays that change nothing the engine
        /// keeps: a play that goes on the stack and resolves, or one
        /// player's special actions in a row (Pokémon's benching, Lorcana's
        /// playing a card). Expected in any spec whose plays have no limit:
        /// the cards bound them, and cards are the host's business.
        /// Otherwise the turn structure itself lets players go round
        /// (priority passed back and forth around a special action).
        of_plays: bool,
    },
    /// The deepest stack seen.
    DeepestStack {
        /// Objects on the stack.
        depth: usize,
    },
}

/// A finding with the shortest sequence of moves that shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// What was found.
    pub kind: FindingKind,
    /// One sentence, with the spec's ids.
    pub summary: String,
    /// The rules it concerns, as the spec cites them.
    pub rules: Vec<String>,
    /// The moves from the start of the game.
    pub moves: Vec<Move>,
    /// For a cycle, where in `moves` the cycle begins (the moves from there
    /// on bring the game back to the state it was in there).
    pub cycle_from: Option<usize>,
}

/// A phase, step, window, timing class or turn-based action, and whether
/// the search reached it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CoverageItem {
    /// `phase`, `step`, `window`, `timing class` or `turn-based action`.
    pub kind: &'static str,
    /// Its id in the spec (a window: its step's id and its number there).
    pub id: String,
    /// The rule it cites.
    pub rule: Option<String>,
    /// The fewest moves after which it was reached (a phase or step begun,
    /// a window opened, a timing class usable by some player, an action
    /// performed); `None`: never, within the bounds.
    pub reached: Option<usize>,
}

/// What `explore` found.
#[derive(Debug, Clone)]
pub struct Report {
    /// The spec's title.
    pub title: String,
    /// The bounds and switches used.
    pub options: Options,
    /// The names moves refer to.
    pub table: Table,
    /// Distinct states found.
    pub states: usize,
    /// Why the search stopped; anything but [`Stop::Exhausted`] means some
    /// states within the turn limit were not expanded.
    pub stop: Stop,
    /// The deepest level expanded, in moves.
    pub deepest: usize,
    /// Edges of the within-turn graph kept to look for cycles.
    pub edges: usize,
    /// Every phase, step, window, timing class and turn-based action.
    pub coverage: Vec<CoverageItem>,
    /// Dead ends, then cycles, then the deepest stack.
    pub findings: Vec<Finding>,
    /// Cycles found beyond the most that are reported.
    pub more_cycles: usize,
    /// Distinct cycles made of plays (see [`FindingKind::Cycle`]); only the
    /// first is among the findings.
    pub play_cycles: usize,
}

impl Report {
    /// Whether every state within the bounds was expanded.
    pub fn complete(&self) -> bool {
        self.stop == Stop::Exhausted
    }

    /// A move in words.
    pub fn describe_move(&self, m: Move) -> String {
        self.table.describe(m)
    }

    /// Finding `index` as a scenario file that `turnspec test` runs and
    /// passes. `spec_ref` is the spec's path as the scenario should name it
    /// (relative to where the scenario is written).
    pub fn scenario(&self, spec: &Spec, index: usize, spec_ref: &str) -> Result<String, String> {
        let f = self
            .findings
            .get(index)
            .ok_or_else(|| format!("no finding {index}"))?;
        let name = match f.rules.first() {
            Some(rule) => format!("{rule}: explore: {}", f.summary),
            None => format!("explore: {}", f.summary),
        };
        let description = format!(
            "Found by `turnspec explore` ({}): the shortest sequence, {} moves: {}.",
            self.options.summary(),
            f.moves.len(),
            f.moves
                .iter()
                .map(|m| self.table.describe(*m))
                .collect::<Vec<_>>()
                .join(", ")
        );
        let header = Header {
            name: &name,
            rules: &f.rules,
            description: &description,
        };
        let mut w = Writer::new(spec, &self.table, &self.options, &header, spec_ref)?;
        match f.kind {
            FindingKind::DeadEnd { .. } => {
                // Stuck as it starts: the first `expect` already says how.
                let Some((last, before)) = f.moves.split_last() else {
                    return Ok(w.finish());
                };
                for m in before {
                    w.play(*m)?;
                }
                w.expect_events();
                w.play_unchecked(*last)?;
                // The status it stopped with (or, running with nobody
                // holding priority, where it stands).
                w.expect_state();
            }
            FindingKind::Cycle { .. } => {
                let from = f.cycle_from.unwrap_or(0);
                for m in &f.moves[..from] {
                    w.play(*m)?;
                }
                w.expect_events();
                w.expect_state();
                for m in &f.moves[from..] {
                    w.play(*m)?;
                }
                w.expect_state();
                w.expect_events();
            }
            FindingKind::DeepestStack { .. } => {
                for m in &f.moves {
                    w.play(*m)?;
                }
                w.expect_events();
                w.expect_state();
            }
        }
        Ok(w.finish())
    }

    /// A short file name for finding `index` (no folder).
    pub fn file_name(&self, index: usize) -> String {
        let Some(f) = self.findings.get(index) else {
            return format!("finding-{index}.toml");
        };
        let what = match f.kind {
            FindingKind::DeadEnd { status, .. } => format!("dead-end-{}", status.name()),
            FindingKind::Cycle { of_plays: false } => "cycle".to_string(),
            FindingKind::Cycle { of_plays: true } => "cycle-of-plays".to_string(),
            FindingKind::DeepestStack { depth } => format!("deepest-stack-{depth}"),
        };
        format!("{:02}-{}.toml", index + 1, what.replace('_', "-"))
    }

    /// The report for people: bounds, coverage, findings with their moves.
    pub fn to_text(&self) -> String {
        let mut s = format!("explore {}\n  {}\n", self.title, self.options.summary());
        s.push_str(&format!(
            "  {} states, {} within-turn player moves between them kept for cycles, deepest level expanded: {} moves; {}\n",
            self.states,
            self.edges,
            self.deepest,
            stop_text(self.stop)
        ));
        for (kind, plural) in [
            ("phase", "phases"),
            ("step", "steps"),
            ("window", "windows"),
            ("timing class", "timing classes (usable by some player)"),
            ("turn-based action", "turn-based actions (performed)"),
            (
                "game end",
                "how the game ends (the endings the spec checks, those the host declares with `--with ending`, and the last side left)",
            ),
        ] {
            let items: Vec<&CoverageItem> =
                self.coverage.iter().filter(|c| c.kind == kind).collect();
            let reached = items.iter().filter(|c| c.reached.is_some()).count();
            s.push_str(&format!(
                "\n{plural}: {reached} of {} reached\n",
                items.len()
            ));
            for c in items {
                let rule = c
                    .rule
                    .as_deref()
                    .map(|r| format!(" [{r}]"))
                    .unwrap_or_default();
                match c.reached {
                    Some(n) => s.push_str(&format!("  reached   {}{rule} after {n} moves\n", c.id)),
                    None => s.push_str(&format!("  NEVER     {}{rule}\n", c.id)),
                }
            }
        }
        s.push_str(&format!("\nfindings: {}\n", self.findings.len()));
        for (i, f) in self.findings.iter().enumerate() {
            let rules = if f.rules.is_empty() {
                String::new()
            } else {
                format!(" [{}]", f.rules.join(", "))
            };
            s.push_str(&format!("  {}. {}{rules}\n", i + 1, f.summary));
            let moves: Vec<String> = f
                .moves
                .iter()
                .enumerate()
                .map(|(k, m)| {
                    let mark = if f.cycle_from == Some(k) { "| " } else { "" };
                    format!("{mark}{}", self.table.describe(*m))
                })
                .collect();
            s.push_str(&format!(
                "     {} moves: {}\n",
                f.moves.len(),
                moves.join(", ")
            ));
        }
        if self.play_cycles > 1 {
            s.push_str(&format!(
                "  ({} distinct cycles made of plays in all: plays that change nothing the engine keeps, as in any spec that leaves cards and resources to the host; the first is listed)\n",
                self.play_cycles
            ));
        }
        if self.more_cycles > 0 {
            s.push_str(&format!(
                "  ... and {} more cycles not looked at\n",
                self.more_cycles
            ));
        }
        s
    }
}

pub(crate) fn stop_text(stop: Stop) -> String {
    match stop {
        Stop::Exhausted => "complete: every state within the bounds was explored".into(),
        Stop::Depth { frontier } => {
            format!("incomplete: {frontier} states at the depth bound were not expanded")
        }
        Stop::MaxStates { depth } => format!(
            "incomplete: stopped at the state limit while expanding states {depth} moves deep"
        ),
        Stop::Unreadable { depth } => format!(
            "incomplete: states written to a temporary file could not be read back while expanding states {depth} moves deep"
        ),
        Stop::MaxMemory { depth, memory } => format!(
            "incomplete: stopped at the memory limit ({memory} bytes held) while expanding states {depth} moves deep"
        ),
    }
}
