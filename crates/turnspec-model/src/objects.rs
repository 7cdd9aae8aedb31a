//! Objects in play: what a spec says about the cards the host reports
//! (`[objects]`, `[objects.facts.ID]`, `by = "object"`, per-object limits).
//!
//! The engine never learns what an object is. The host reports objects
//! entering and leaving play and changing control; the engine stamps each
//! with the turn it happened in, and answers the turn-relative questions
//! a rulebook asks of them ("controlled continuously since the start of its
//! controller's most recent turn", 302.6).

use crate::ids::RuleRef;

/// `[objects]`: whether the spec tracks objects, and the rules it cites.
#[derive(Debug, Clone, Copy, Default)]
pub struct ObjectRules {
    /// The spec has an `[objects]` table: games keep the objects the host
    /// reports. Without it, reporting an object is refused.
    pub tracked: bool,
    /// `rule`: what an object in play is (cited by the events).
    pub rule: RuleRef,
    /// `control_rule`: a player can play only by objects they control
    /// (cited when a play names someone else's object, 602.2).
    pub control_rule: RuleRef,
}

/// `[objects.facts.ID]`: a yes/no the host sets on one object (haste,
/// Rush, "evolved this turn").
#[derive(Debug, Clone)]
pub struct ObjectFact {
    /// The table key; conditions read it as `object.ID`.
    pub id: String,
    /// `name`: shown in traces (the id when not given).
    pub name: String,
    /// `description`: what it means, for people.
    pub description: String,
    /// `rule`: where it comes from; its changes cite it.
    pub rule: RuleRef,
    /// `reset = "turn"`: it reads as unset once a new turn begins (a
    /// Pokémon that evolved this turn); otherwise it lasts while the object
    /// is in play.
    pub each_turn: bool,
}

/// `limit = { per = "object", max, reset, rule }`: at most `max` plays at a
/// class by each object (602.5b "only once each turn"; Lorcana 6.1.13.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ObjectLimit {
    /// Which of an object's use counts this class keeps (below
    /// [`crate::MAX_OBJECT_LIMITS`]).
    pub slot: u8,
    /// `max`: plays are refused once the object has made this many.
    pub max: u16,
    /// `reset = "turn"`: the count starts afresh each turn; otherwise it
    /// lasts while the object is in play.
    pub each_turn: bool,
    /// `rule`: cited on refusal.
    pub rule: RuleRef,
}

/// The built-in names a condition of a play by an object may read, after
/// `object.`.
pub const OBJECT_ATOMS: &[(&str, crate::Atom)] = &[
    ("entered_this_turn", crate::Atom::ObjectEnteredThisTurn),
    ("since_turn_start", crate::Atom::ObjectSinceTurnStart),
];
