//! Why an action was refused. Every refusal names the rule it enforces and
//! leaves the game exactly as it was.
//!
//! `Display` has no spec at hand, so it names timing classes and rules by
//! index ("timing class #2", "rule #5") and uses the generic terms
//! (priority, active player, stack). [`RuleError::describe`] is the rich
//! form, with the spec's names, terms and rule citations.

use std::fmt;

use turnspec_model::{RoleId, RuleRef, Spec, TimingId};

use crate::state::{Place, PlayerId, Status};

/// Why the engine refused an action. A refused action changes nothing, so
/// a caller can report the refusal and carry on with the same game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RuleError {
    /// The game has stopped (turn limit, stall, no players left, a turn
    /// that never ends), so no action can be taken.
    #[error("{}", status_text(*.0))]
    NotRunning(Status),
    /// The action named a player who never sat down or has left (800.4).
    #[error("{player} is not in the game")]
    NoSuchPlayer {
        /// The player the action named.
        player: PlayerId,
    },
    /// Only the player with priority may pass or play (117.1, 117.3d).
    #[error("{player} does not hold priority ({}){}", HolderText(*.holder), RuleText(*.rule))]
    NotHolder {
        /// The player who tried to act.
        player: PlayerId,
        /// Who holds priority instead, if anyone.
        holder: Option<PlayerId>,
        /// The spec's rule for who may act.
        rule: RuleRef,
    },
    /// The action named a timing class the spec does not have.
    #[error("timing class #{} does not exist", .timing.index())]
    NoSuchTiming {
        /// The index the action used.
        timing: TimingId,
    },
    /// The player holds priority but the timing class does not allow the
    /// play now (sorcery speed, 307.1; land plays, 305.2).
    #[error(
        "{player} cannot play timing class #{} now: {failure}{}",
        .timing.index(),
        RuleText(*.rule)
    )]
    Timing {
        /// The player who tried to play.
        player: PlayerId,
        /// The timing class they tried to play at.
        timing: TimingId,
        /// Which of the class's requirements failed.
        failure: TimingFailure,
        /// The timing class's rule.
        rule: RuleRef,
    },
    /// The action named a fact or variant the spec does not have.
    #[error("unknown fact or variant index")]
    NoSuchFact,
    /// The action named an effect the spec does not have.
    #[error("unknown effect index")]
    NoSuchEffect,
    /// The window refuses the pass while a `refuse_pass` condition holds
    /// (Lorcana's Reckless, 8.7.3).
    #[error("{player} may not pass now")]
    PassRefused {
        /// Who tried to pass.
        player: PlayerId,
        /// The rule of the condition that holds.
        rule: RuleRef,
    },
    /// The host set a counter the spec does not have.
    #[error("unknown counter index")]
    NoSuchCounter,
    /// The host reported an object, but the spec keeps none (it has no
    /// `[objects]` table).
    #[error("the spec keeps no objects")]
    NoObjects,
    /// The action named an object that is not in play.
    #[error("object {object} is not in play")]
    NoSuchObject {
        /// The host's id of the object.
        object: u32,
    },
    /// The host reported an object entering play that already is.
    #[error("object {object} is already in play")]
    ObjectInPlay {
        /// The host's id of the object.
        object: u32,
    },
    /// The host ended an effect with a label no going-on effect has.
    #[error("no effect with label {label} is going on")]
    NoSuchDuration {
        /// The label the host gave.
        label: u32,
    },
    /// The host set an object fact the spec does not have.
    #[error("unknown object fact index")]
    NoSuchObjectFact,
    /// The host reported more objects in play than the engine keeps
    /// ([`crate::MAX_OBJECTS`]).
    #[error("too many objects in play")]
    TooManyObjects,
    /// The host declared an ending the spec does not have.
    #[error("unknown ending index")]
    NoSuchEnding,
    /// The action named a phase or step the spec does not have (one of
    /// another spec), as where a delayed trigger triggers or a duration
    /// ends.
    #[error("{} does not exist", PlaceText(*.place))]
    NoSuchPlace {
        /// The place the action named.
        place: Place,
    },
    /// A choice from the bag that is not the player's to make now: they do
    /// not hold priority, or have no trigger with that label in the bag
    /// (`[priority] triggers = "bag"`).
    #[error("{player} has no trigger #{label} to resolve from the bag now{}", RuleText(*.rule))]
    NotInBag {
        /// The player who chose.
        player: PlayerId,
        /// The label they chose.
        label: u32,
        /// The spec's `triggers_rule`.
        rule: RuleRef,
    },
}

/// Which requirement of a timing class failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
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
    LimitReached {
        /// How many such plays the class allows.
        max: u16,
    },
    /// The timing class's `require` entry with this index is false.
    Requirement(u8),
    /// The play names an object in play that another player controls
    /// (`by = "object"`).
    NotController {
        /// Who controls the object.
        controller: PlayerId,
    },
    /// Only the holder of a role may (`who = ROLE`: defense reactions).
    NotRoleHolder {
        /// The role.
        role: RoleId,
    },
    /// The play costs more of a resource (`cost`) than the player has.
    CannotPay {
        /// What one play costs.
        need: u16,
        /// What the player has.
        have: u16,
    },
}

/// Without the spec's terms; [`RuleError::describe`] uses the spec's.
impl fmt::Display for TimingFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TimingFailure::NotActivePlayer => f.write_str("only the active player may"),
            TimingFailure::ActivePlayer => f.write_str("the active player may not"),
            TimingFailure::Nobody => f.write_str("no player may; the game itself does this"),
            TimingFailure::StackNotEmpty => f.write_str("the stack must be empty"),
            TimingFailure::WrongStep => f.write_str("not allowed in this phase or step"),
            TimingFailure::LimitReached { max } => write!(f, "limit of {max} reached"),
            TimingFailure::Requirement(i) => write!(f, "requirement #{i} is not met"),
            TimingFailure::NotController { controller } => {
                write!(f, "the object is {controller}'s")
            }
            TimingFailure::CannotPay { need, have } => {
                write!(f, "it costs {need} and only {have} is left")
            }
            TimingFailure::NotRoleHolder { .. } => f.write_str("only the holder of a role may"),
        }
    }
}

fn status_text(status: Status) -> &'static str {
    match status {
        Status::TurnLimit => "the game stopped at its turn limit",
        Status::Stalled => "the game stalled: no window can open",
        Status::NoPlayers => "no players are left in the game",
        Status::NeverEnds => {
            "the turn never ends: steps kept beginning again with no player receiving priority"
        }
        Status::Over => "the game is over",
        Status::Running => "the game is running",
    }
}

/// Who holds priority instead, for `Display`.
struct HolderText(Option<PlayerId>);

impl fmt::Display for HolderText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(h) => write!(f, "{h} does"),
            None => f.write_str("nobody does"),
        }
    }
}

/// "phase #n" or "step #n", for `Display`.
struct PlaceText(Place);

impl fmt::Display for PlaceText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Place::Phase(p) => write!(f, "phase #{}", p.index()),
            Place::Step(s) => write!(f, "step #{}", s.index()),
        }
    }
}

/// " (rule #n)", or nothing when no rule is cited, for `Display`.
struct RuleText(RuleRef);

impl fmt::Display for RuleText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_none() {
            Ok(())
        } else {
            write!(f, " (rule #{})", self.0.index())
        }
    }
}

impl RuleError {
    /// A stable snake_case name for the refusal (`wrong_step`,
    /// `not_holder`...), for tools and scenario files.
    pub fn reason(&self) -> &'static str {
        match self {
            RuleError::NotHolder { .. } => "not_holder",
            RuleError::NotRunning(_) => "not_running",
            RuleError::Timing { failure, .. } => match failure {
                TimingFailure::NotActivePlayer => "not_active_player",
                TimingFailure::ActivePlayer => "active_player",
                TimingFailure::Nobody => "nobody",
                TimingFailure::StackNotEmpty => "stack_not_empty",
                TimingFailure::WrongStep => "wrong_step",
                TimingFailure::LimitReached { .. } => "limit_reached",
                TimingFailure::Requirement(_) => "requirement",
                TimingFailure::CannotPay { .. } => "cannot_pay",
                TimingFailure::NotController { .. } => "not_controller",
                TimingFailure::NotRoleHolder { .. } => "not_role_holder",
            },
            RuleError::NotInBag { .. } => "not_in_bag",
            RuleError::NoSuchPlayer { .. } => "no_such_player",
            RuleError::NoSuchTiming { .. } => "no_such_timing",
            RuleError::NoSuchFact => "no_such_fact",
            RuleError::NoSuchEffect => "no_such_effect",
            RuleError::NoSuchEnding => "no_such_ending",
            RuleError::NoSuchCounter => "no_such_counter",
            RuleError::NoObjects => "no_objects",
            RuleError::NoSuchDuration { .. } => "no_such_duration",
            RuleError::NoSuchObject { .. } => "no_such_object",
            RuleError::ObjectInPlay { .. } => "object_in_play",
            RuleError::NoSuchObjectFact => "no_such_object_fact",
            RuleError::TooManyObjects => "too_many_objects",
            RuleError::PassRefused { .. } => "pass_refused",
            RuleError::NoSuchPlace { .. } => "no_such_place",
        }
    }

    /// The rule the refusal enforces, if the spec cites one.
    pub fn rule(&self) -> RuleRef {
        match *self {
            RuleError::NotHolder { rule, .. }
            | RuleError::Timing { rule, .. }
            | RuleError::NotInBag { rule, .. }
            | RuleError::PassRefused { rule, .. } => rule,
            _ => RuleRef::NONE,
        }
    }

    /// A sentence for people, with names and the rule from the spec. With
    /// a spec that is not the game's (a timing class it does not have),
    /// the sentence of `Display`.
    pub fn describe(&self, spec: &Spec) -> String {
        let text = match *self {
            RuleError::NotRunning(Status::NeverEnds) => format!(
                "the turn never ends: steps began again {} times with no player receiving {}",
                crate::MAX_REPEATS_WITHOUT_PRIORITY,
                spec.terms().priority
            ),
            RuleError::NotRunning(status) => status_text(status).to_string(),
            RuleError::NoSuchPlayer { player } => format!("{player} is not in the game"),
            RuleError::NotHolder { player, holder, .. } => match holder {
                Some(h) => format!(
                    "{player} does not hold {} ({h} does)",
                    spec.terms().priority
                ),
                None => format!(
                    "{player} does not hold {} (nobody does)",
                    spec.terms().priority
                ),
            },
            RuleError::NoSuchTiming { timing } => {
                format!("timing class #{} does not exist", timing.index())
            }
            RuleError::NoSuchFact => "unknown fact or variant".to_string(),
            RuleError::NoSuchEffect => "unknown effect".to_string(),
            RuleError::NoSuchEnding => "unknown ending".to_string(),
            RuleError::NoSuchCounter => "unknown counter".to_string(),
            RuleError::NoObjects => {
                "the spec keeps no objects (it has no `[objects]` table)".to_string()
            }
            RuleError::NoSuchObject { object } => format!("object {object} is not in play"),
            RuleError::ObjectInPlay { object } => format!("object {object} is already in play"),
            RuleError::NoSuchObjectFact => "unknown object fact".to_string(),
            RuleError::NoSuchDuration { label } => {
                format!("no effect with label {label} is going on")
            }
            RuleError::TooManyObjects => format!(
                "too many objects in play (the engine keeps {})",
                crate::MAX_OBJECTS
            ),
            RuleError::PassRefused { player, .. } => format!(
                "{player} may not pass now: the window refuses it while its condition holds"
            ),
            RuleError::NoSuchPlace { place } => format!("{} does not exist", PlaceText(place)),
            RuleError::NotInBag { player, .. } => format!(
                "{player} has no such trigger to resolve from the {} now",
                spec.terms().stack
            ),
            RuleError::Timing {
                player,
                timing,
                failure,
                ..
            } => {
                let Some(tc) = spec.timing_class(timing) else {
                    return self.to_string();
                };
                let why = match failure {
                    TimingFailure::NotActivePlayer => {
                        format!("only the {} may", spec.terms().active_player)
                    }
                    TimingFailure::ActivePlayer => {
                        format!("the {} may not", spec.terms().active_player)
                    }
                    TimingFailure::Nobody => "no player may; the game itself does this".to_string(),
                    TimingFailure::StackNotEmpty => {
                        format!("the {} must be empty", spec.terms().stack)
                    }
                    TimingFailure::WrongStep => {
                        format!("not allowed now (only during {})", tc.during.join(", "))
                    }
                    TimingFailure::LimitReached { max } => format!("limit of {max} reached"),
                    TimingFailure::NotController { controller } => {
                        format!("the object is {controller}'s")
                    }
                    TimingFailure::NotRoleHolder { role } => match spec.role(role) {
                        Some(r) => format!("only the {} may", r.name),
                        None => failure.to_string(),
                    },
                    TimingFailure::Requirement(i) => match tc.require.get(i as usize) {
                        Some(r) => r.explain.clone(),
                        None => failure.to_string(),
                    },
                    TimingFailure::CannotPay { need, have } => match tc.cost {
                        Some(c) => format!(
                            "it costs {need} {} and only {have} is left",
                            spec.id_of(c.counter)
                        ),
                        None => format!("it costs {need} and only {have} is left"),
                    },
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Ids can only come from a spec: timing classes `a`, `b`, `c` citing
    /// rules `r0`, `r1`, `r2`.
    fn ids() -> (TimingId, TimingId, RuleRef, RuleRef) {
        let text = "[game]\nname = \"t\"\nplayers = { min = 2, max = 2 }\n\
            [timing.a]\nrule = \"r0\"\n[timing.b]\nrule = \"r1\"\n[timing.c]\nrule = \"r2\"\n\
            [[phase]]\nid = \"main\"\npriority = \"always\"\n";
        let (spec, _) = turnspec_spec::load_str("t.toml", text).expect("loads");
        let t = |id| spec.timing_by_id(id).expect("declared");
        let (b, c) = (t("b"), t("c"));
        let rule = |id| spec.timing_class(id).expect("declared").rule;
        (b, c, rule(t("a")), rule(c))
    }

    #[test]
    fn display_is_for_people_without_the_spec() {
        let (b, c, r0, r2) = ids();
        let timing = RuleError::Timing {
            player: PlayerId(0),
            timing: c,
            failure: TimingFailure::WrongStep,
            rule: r2,
        };
        assert_eq!(
            timing.to_string(),
            format!(
                "P1 cannot play timing class #{} now: not allowed in this phase or step (rule #{})",
                c.index(),
                r2.index()
            )
        );

        let holder = RuleError::NotHolder {
            player: PlayerId(1),
            holder: Some(PlayerId(0)),
            rule: RuleRef::NONE,
        };
        assert_eq!(holder.to_string(), "P2 does not hold priority (P1 does)");
        let nobody = RuleError::NotHolder {
            player: PlayerId(1),
            holder: None,
            rule: r0,
        };
        assert_eq!(
            nobody.to_string(),
            format!(
                "P2 does not hold priority (nobody does) (rule #{})",
                r0.index()
            )
        );

        assert_eq!(
            RuleError::NotRunning(Status::TurnLimit).to_string(),
            "the game stopped at its turn limit"
        );
        assert_eq!(
            RuleError::NoSuchTiming { timing: b }.to_string(),
            format!("timing class #{} does not exist", b.index())
        );
        assert_eq!(
            TimingFailure::LimitReached { max: 1 }.to_string(),
            "limit of 1 reached"
        );
        assert_eq!(
            TimingFailure::Requirement(3).to_string(),
            "requirement #3 is not met"
        );
    }

    #[test]
    fn display_shows_no_debug_output() {
        let failures = [
            TimingFailure::NotActivePlayer,
            TimingFailure::ActivePlayer,
            TimingFailure::Nobody,
            TimingFailure::StackNotEmpty,
            TimingFailure::WrongStep,
            TimingFailure::LimitReached { max: 2 },
            TimingFailure::Requirement(0),
        ];
        let statuses = [
            Status::Running,
            Status::TurnLimit,
            Status::Stalled,
            Status::NoPlayers,
        ];
        let errors = failures
            .iter()
            .map(|&failure| RuleError::Timing {
                player: PlayerId(0),
                timing: ids().0,
                failure,
                rule: RuleRef::NONE,
            })
            .chain(statuses.iter().map(|&s| RuleError::NotRunning(s)))
            .chain([
                RuleError::NoSuchPlayer {
                    player: PlayerId(7),
                },
                RuleError::NoSuchFact,
                RuleError::NoSuchEffect,
                RuleError::NoSuchEnding,
                RuleError::NoSuchCounter,
            ]);
        for e in errors {
            let text = e.to_string();
            let debug = format!("{e:?}");
            // No type or variant name from the Debug form ("Timing",
            // "TimingId", "WrongStep", "TurnLimit"...) shows up.
            for name in debug
                .split(|c: char| !c.is_ascii_alphanumeric())
                .filter(|w| w.len() > 1 && w.starts_with(|c: char| c.is_ascii_uppercase()))
            {
                assert!(!text.contains(name), "{text:?} shows {name} from {debug}");
            }
        }
    }
}
