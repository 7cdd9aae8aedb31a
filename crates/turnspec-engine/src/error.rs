//! Why an action was refused. Every refusal names the rule it enforces and
//! leaves the game exactly as it was.

use turnspec_spec::{RuleRef, Spec, TimingId};

use crate::state::{PlayerId, Status};

#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    #[error("the game is not waiting for a player ({0:?})")]
    NotRunning(Status),
    #[error("{player} is not in the game")]
    NoSuchPlayer { player: PlayerId },
    #[error("{player} does not hold priority")]
    NotHolder {
        player: PlayerId,
        holder: Option<PlayerId>,
        rule: RuleRef,
    },
    #[error("no timing class {timing:?} in this spec")]
    NoSuchTiming { timing: TimingId },
    #[error("{player} cannot play at timing class {timing:?} now: {failure:?}")]
    Timing {
        player: PlayerId,
        timing: TimingId,
        failure: TimingFailure,
        rule: RuleRef,
    },
    #[error("unknown fact or variant index")]
    NoSuchFact,
    #[error("unknown effect index")]
    NoSuchEffect,
}

/// Which requirement of a timing class failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimingFailure {
    /// Only the active player may (sorcery speed, land play, GA slow).
    NotActivePlayer,
    /// Only a non-active player may.
    ActivePlayer,
    /// No player may; only turn-based actions use this class.
    Nobody,
    /// The stack must be empty.
    StackNotEmpty,
    /// Not allowed in this phase or step.
    WrongStep,
    /// The per-turn (or per-phase) limit is used up (305.2).
    LimitReached { max: u16 },
    /// The timing class's `require` entry with this index is false.
    Requirement(u8),
}

impl RuleError {
    /// The rule the refusal enforces, if the spec cites one.
    pub fn rule(&self) -> RuleRef {
        match *self {
            RuleError::NotHolder { rule, .. } | RuleError::Timing { rule, .. } => rule,
            _ => RuleRef::NONE,
        }
    }

    /// A sentence for people, with names and the rule from the spec.
    pub fn describe(&self, spec: &Spec) -> String {
        let text = match *self {
            RuleError::NotRunning(status) => match status {
                Status::TurnLimit => "the game stopped at its turn limit".to_string(),
                Status::Stalled => "the game stalled: no window can open".to_string(),
                Status::NoPlayers => "no players are left in the game".to_string(),
                Status::NeverEnds => format!(
                    "the turn never ends: steps began again {} times with no player receiving {}",
                    crate::MAX_REPEATS_WITHOUT_PRIORITY,
                    spec.terms.priority
                ),
                Status::Running => "the game is running".to_string(),
            },
            RuleError::NoSuchPlayer { player } => format!("{player} is not in the game"),
            RuleError::NotHolder { player, holder, .. } => match holder {
                Some(h) => format!("{player} does not hold {} ({h} does)", spec.terms.priority),
                None => format!(
                    "{player} does not hold {} (nobody does)",
                    spec.terms.priority
                ),
            },
            RuleError::NoSuchTiming { timing } => {
                format!("timing class #{} does not exist", timing.0)
            }
            RuleError::NoSuchFact => "unknown fact or variant".to_string(),
            RuleError::NoSuchEffect => "unknown effect".to_string(),
            RuleError::Timing {
                player,
                timing,
                failure,
                ..
            } => {
                let tc = spec.timing_class(timing);
                let why = match failure {
                    TimingFailure::NotActivePlayer => {
                        format!("only the {} may", spec.terms.active_player)
                    }
                    TimingFailure::ActivePlayer => {
                        format!("the {} may not", spec.terms.active_player)
                    }
                    TimingFailure::Nobody => "no player may; the game itself does this".to_string(),
                    TimingFailure::StackNotEmpty => {
                        format!("the {} must be empty", spec.terms.stack)
                    }
                    TimingFailure::WrongStep => {
                        format!("not allowed now (only during {})", tc.during.join(", "))
                    }
                    TimingFailure::LimitReached { max } => format!("limit of {max} reached"),
                    TimingFailure::Requirement(i) => tc.require[i as usize].explain.clone(),
                };
                format!("{player} cannot play {}: {why}", tc.name)
            }
        };
        match spec.rule(self.rule()) {
            Some(rule) => format!("{text} (rule {rule})"),
            None => text,
        }
    }
}
