//! Which of the less common mechanisms a spec uses, worked out once when a
//! game is set up, so a spec that uses none of them pays one branch on a
//! `bool` where they hook in, and nothing else.

use turnspec_model::{Effect, EndPoints, Holder, Spec, StackRequirement, TriggerOrder, Who};

/// The mechanisms beyond Magic's priority loop that a spec uses.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Features {
    /// `[priority] triggers = "bag"` (bag.rs).
    pub bag: bool,
    /// Some window has `acts = "active_player"`.
    pub solo: bool,
    /// Some phase is `optional` (elections, shape.rs).
    pub elections: bool,
    /// Counters with a `start` value (resources.rs).
    pub starts: u16,
    /// Some window closes as soon as its stack empties (GA's combat
    /// windows): otherwise a resolution need not look the window up.
    pub closes_when_stack_empty: bool,
    /// `bag || solo`: passing takes the shaped path.
    pub shaped_pass: bool,
    /// Timing classes (one bit each, the first 32) whose plays are plain:
    /// anyone may play them, onto the stack, with no requirement, cost,
    /// limit, phase entered or turn ended, in a spec with no bag (and, set
    /// by `Game::new`, a game with no teams). Checking such a play is the
    /// holder, the step's table and the stack; playing it is a push.
    pub plain_timings: u32,
    /// Resolutions may take the inline path in `Game::pass`: no window
    /// closes when its stack empties, and the fast paths are on (off with
    /// `GameOptions::turn_program` off, so the general path is checked
    /// against it; the same holds for `plain_timings`).
    pub fast_resolve: bool,
    /// A pass that moves priority on in a game with no modifiers may take
    /// the plain way (`Cached::plain_passes_below`); off with the other fast
    /// paths, so the general way is checked against it.
    pub plain_passes: bool,
    /// `[priority] after_action = "actor"` and `after_resolve = "actor"`.
    pub actor_after_action: bool,
    pub actor_after_resolve: bool,
    /// `[priority] after_action` and `after_resolve` themselves, for the
    /// general paths (`Game::holder_for`).
    pub after_action: Holder,
    pub after_resolve: Holder,
    /// Some window has `acts = ROLE` (roles.rs).
    pub role_windows: bool,
    /// Some role goes back to its first holder as each turn begins.
    pub roles_each_turn: bool,
    /// Some role's holder takes the next turn.
    pub next_turn_role: bool,
    /// `[priority] resolve = "whole_stack"`.
    pub whole_stack: bool,
    /// Some class runs steps (play_steps.rs).
    pub steps: bool,
    /// Some step is `on_demand`: a phase's next step is looked up past
    /// them (`Spec::step_after`).
    pub on_demand_steps: bool,
    /// Something may follow a resolution before priority is given: steps
    /// a play runs, or the rest of a chain that resolves whole.
    pub after_resolution: bool,
    /// Timing classes (one bit each, the first 32) whose plays do more
    /// than the common work: claim a role, pass for the rest of the
    /// window, or run steps.
    pub rare_timings: u32,
    /// Where the spec's endings are checked (ending.rs).
    pub end_checks: EndPoints,
}

impl Features {
    pub(crate) fn of(spec: &Spec) -> Features {
        let starts = spec
            .counters()
            .iter()
            .enumerate()
            .take(16)
            .filter(|(_, c)| c.start != 0)
            .fold(0u16, |acc, (i, _)| acc | 1 << i);
        let plain_timings = spec
            .timing()
            .iter()
            .enumerate()
            .take(32)
            .filter(|(_, t)| {
                t.who == Who::Any
                    && t.stack == StackRequirement::Any
                    && t.effect == Effect::Stack
                    && t.require.is_empty()
                    && t.cost.is_none()
                    && t.limit.is_none()
                    && !t.by_object
                    && t.enters.is_none()
                    && t.ends.is_none()
                    && t.after.is_none()
                    && t.claims.is_none()
                    && !t.passes_rest
                    && !t.response_round
                    && t.steps.is_none()
            })
            .fold(0u32, |acc, (i, _)| acc | 1 << i);
        let bag = spec.priority().triggers == TriggerOrder::Bag;
        let closes_when_stack_empty = spec.windows().iter().any(|w| w.close_when_stack_empty);
        let solo = spec.windows().iter().any(|w| w.solo);
        // A window with `refuse_pass` asks first (Program::refusals_possible).
        let refused_passes = spec.windows().iter().any(|w| !w.refuse_pass.is_empty());
        // A player who passed for the rest of a window is passed over on
        // the shaped path (`Game::hand_on`).
        let passes_rest = spec.timing().iter().any(|t| t.passes_rest);
        // A round of responses ends in `Game::round_complete`, which the
        // closing pass reaches while one is going on (`Game::pass`).
        let responses = spec.timing().iter().any(|t| t.response_round);
        let shaped_pass = bag || solo || refused_passes || passes_rest;
        let p = spec.priority();
        let whole_stack = p.resolve == turnspec_model::Resolve::WholeStack;
        let steps = spec.timing().iter().any(|t| t.steps.is_some());
        // After a play the next player may hold priority: plays take the
        // general path.
        let next_after_play = p.after_action == Holder::NextPlayer;
        let role_windows = spec.windows().iter().any(|w| w.acts_role.is_some());
        Features {
            bag,
            solo,
            shaped_pass,
            fast_resolve: !closes_when_stack_empty && !whole_stack && !steps,
            plain_passes: !shaped_pass,
            // With a bag, priority after a play goes to whoever resolves
            // next (bag.rs): no play is plain.
            // A player who passed for the rest of a window is passed over
            // after a play (`Game::hand_on`): no play is plain either.
            // In a window a role acts in, the first holder after a play is
            // the role's holder (`Game::first_holder_here`), which the plain
            // way does not ask.
            // Nor where a play may end a round of responses (`responding`).
            plain_timings: if bag || next_after_play || passes_rest || role_windows || responses {
                0
            } else {
                plain_timings
            },
            after_action: p.after_action,
            after_resolve: p.after_resolve,
            role_windows,
            roles_each_turn: spec.roles().iter().any(|r| r.each_turn),
            next_turn_role: spec.roles().iter().any(|r| r.next_turn),
            whole_stack,
            steps,
            on_demand_steps: spec.steps().iter().any(|s| s.on_demand),
            after_resolution: steps || whole_stack,
            rare_timings: spec
                .timing()
                .iter()
                .enumerate()
                .take(32)
                .filter(|(_, t)| {
                    t.claims.is_some() || t.passes_rest || t.steps.is_some() || t.response_round
                })
                .fold(0u32, |acc, (i, _)| acc | 1 << i),
            actor_after_action: spec.priority().after_action == Holder::Actor,
            actor_after_resolve: spec.priority().after_resolve == Holder::Actor,
            elections: spec.phases().iter().any(|p| p.optional),
            starts,
            closes_when_stack_empty,
            end_checks: spec.end_check_points(),
        }
    }

    /// The same mechanisms with the fast paths for plain plays, passes and
    /// resolutions off: every play, pass and resolution takes the general
    /// path.
    pub(crate) fn without_fast_paths(self) -> Features {
        Features {
            plain_timings: 0,
            fast_resolve: false,
            plain_passes: false,
            ..self
        }
    }
}
