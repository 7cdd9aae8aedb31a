//! The generic phase/step/priority machine.
//!
//! A [`Game`] always rests at a decision: some player holds priority in an
//! open window and must pass or play. [`Game::apply`] checks the action
//! against the spec first (so a refusal changes nothing), then performs it and
//! runs the turn forward — turn-based actions, skips, repeats, windows that
//! open only when something is pending — until the next decision.

use turnspec_spec::{
    Atom, AtomSource, Effect, FactId, Holder, MAX_COUNTERS, MAX_PHASE_KINDS, MAX_PLAYERS, PhaseId,
    Reset, RuleRef, Spec, StackRequirement, Stage, StepId, TimingId, TurnOrder, VariantId, Who,
    WindowId, WindowMode,
};

use crate::error::{RuleError, TimingFailure};
use crate::event::{Because, Event, EventSink, Skipped};
use crate::host::{HookContext, Host, Triggers};
use crate::state::{
    GameState, MAX_NESTING, ObjectKind, PlayerId, Point, ReturnPoint, StackObject, Status,
};

/// How a game starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameOptions {
    pub players: u8,
    /// Who takes the first turn (103.1).
    pub starting_player: PlayerId,
    pub variants: Vec<VariantId>,
    pub facts: Vec<FactId>,
    /// Begin somewhere other than the first turn's first phase.
    pub start_at: Option<StartAt>,
    /// Room reserved for the stack, so pushing never allocates in practice.
    pub stack_capacity: usize,
}

impl GameOptions {
    pub fn players(players: u8) -> Self {
        GameOptions {
            players,
            starting_player: PlayerId(0),
            variants: Vec::new(),
            facts: Vec::new(),
            start_at: None,
            stack_capacity: 32,
        }
    }
}

/// A starting point for scenarios: turn `turn` (counting from 1), taken by
/// `active`, at the beginning of `phase` (and `step` within it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StartAt {
    pub turn: u32,
    pub active: PlayerId,
    pub phase: PhaseId,
    pub step: Option<StepId>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    #[error("{players} players: this spec allows {min} to {max}")]
    PlayerCount { players: u8, min: u8, max: u8 },
    #[error("starting player {0} is not in the game")]
    StartingPlayer(PlayerId),
    #[error("start point: {0}")]
    StartAt(&'static str),
}

/// Counters grouped by when they reset, computed once per game.
#[derive(Debug, Clone, Copy, Default)]
struct ResetMasks {
    turn: u16,
    phase: u16,
    step: u16,
}

/// A game in progress: the compiled spec it follows and its state.
#[derive(Debug, Clone)]
pub struct Game<'s> {
    spec: &'s Spec,
    masks: ResetMasks,
    state: GameState,
}

/// A run of the machine gives up after this many moves with no decision,
/// rather than loop for ever on a spec whose conditions skip every window.
const STALL_BUDGET: u32 = 1_000_000;

impl<'s> Game<'s> {
    /// Sets up a game. Nothing happens until [`Game::start`].
    pub fn new(spec: &'s Spec, options: &GameOptions) -> Result<Self, SetupError> {
        let n = options.players;
        if n < spec.game.min_players || n > spec.game.max_players || n > MAX_PLAYERS || n == 0 {
            return Err(SetupError::PlayerCount {
                players: n,
                min: spec.game.min_players,
                max: spec.game.max_players,
            });
        }
        if options.starting_player.0 >= n {
            return Err(SetupError::StartingPlayer(options.starting_player));
        }
        let mut masks = ResetMasks::default();
        for (i, c) in spec.counters.iter().enumerate().take(MAX_COUNTERS) {
            match c.reset {
                Reset::Turn => masks.turn |= 1 << i,
                Reset::Phase => masks.phase |= 1 << i,
                Reset::Step => masks.step |= 1 << i,
                Reset::Game => {}
            }
        }
        let bits =
            |ids: &mut dyn Iterator<Item = usize>| ids.fold(0u64, |acc, i| acc | (1u64 << i));
        let facts = bits(
            &mut spec
                .facts
                .iter()
                .enumerate()
                .filter(|(_, f)| f.default)
                .map(|(i, _)| i),
        ) | bits(&mut options.facts.iter().map(|f| f.index()));
        let variants = bits(
            &mut spec
                .variants
                .iter()
                .enumerate()
                .filter(|(_, f)| f.default)
                .map(|(i, _)| i),
        ) | bits(&mut options.variants.iter().map(|f| f.index()));
        let first_phase = spec.turn.first().copied().unwrap_or_default();
        let mut state = GameState {
            turn: 0,
            turn_limit: u32::MAX,
            players: n,
            in_game: ((1u16 << n) - 1) as u8,
            had_turn: 0,
            active: options.starting_player,
            starting: options.starting_player,
            first_turn: true,
            status: Status::Running,
            point: Point::TurnStart,
            phase: first_phase,
            turn_pos: 0,
            step: spec.phase(first_phase).first_step,
            stage: 0,
            repeat: 0,
            window_opened: false,
            holder: None,
            passes: 0,
            returns_len: 0,
            returns: [ReturnPoint::default(); MAX_NESTING],
            kind_counts: [0; MAX_PHASE_KINDS],
            counters: [0; MAX_COUNTERS],
            facts,
            variants,
            stack: Vec::with_capacity(options.stack_capacity),
            waiting: Vec::with_capacity(options.stack_capacity),
        };
        if let Some(at) = options.start_at {
            Self::position(spec, &mut state, at)?;
        }
        Ok(Game { spec, masks, state })
    }

    /// Places a fresh state at a scenario's starting point, as if the earlier
    /// turns and the earlier phases of this turn had happened.
    fn position(spec: &Spec, state: &mut GameState, at: StartAt) -> Result<(), SetupError> {
        if at.turn == 0 {
            return Err(SetupError::StartAt("turns count from 1"));
        }
        if at.active.0 >= state.players {
            return Err(SetupError::StartAt("the active player is not in the game"));
        }
        let Some(pos) = spec.turn.iter().position(|p| *p == at.phase) else {
            return Err(SetupError::StartAt(
                "the phase is not part of the regular turn",
            ));
        };
        if let Some(step) = at.step {
            if spec.step(step).phase != at.phase {
                return Err(SetupError::StartAt("the step is not in that phase"));
            }
        }
        // Turns before this one went round the table from the starting player.
        let mut p = state.starting;
        for _ in 1..at.turn.min(state.players as u32 + 1) {
            state.had_turn |= 1 << p.0;
            p = next_seat(spec.game.turn_order, state.players, p);
        }
        if at.turn > state.players as u32 {
            state.had_turn = state.in_game;
        }
        state.first_turn = state.had_turn & (1 << at.active.0) == 0;
        state.had_turn |= 1 << at.active.0;
        state.turn = at.turn;
        state.active = at.active;
        for earlier in &spec.turn[..pos] {
            let k = spec.phase(*earlier).kind as usize;
            state.kind_counts[k] = state.kind_counts[k].saturating_add(1);
        }
        state.turn_pos = pos as u8;
        state.phase = at.phase;
        state.point = Point::PhaseStart;
        // Starting inside a phase: begin the phase, then jump to the step.
        if let Some(step) = at.step {
            state.step = step;
            state.point = Point::StepStart;
            let k = spec.phase(at.phase).kind as usize;
            state.kind_counts[k] = state.kind_counts[k].saturating_add(1);
        }
        Ok(())
    }

    /// Runs from the start to the first decision.
    pub fn start<H: Host, S: EventSink>(&mut self, host: &mut H, sink: &mut S) {
        if self.state.holder.is_none() && self.state.status == Status::Running {
            self.run(host, sink);
        }
    }

    /// Stops the game when turn `turn` is over: the next turn does not begin
    /// and [`Game::status`] becomes [`Status::TurnLimit`].
    pub fn set_turn_limit(&mut self, turn: u32) {
        self.state.turn_limit = turn;
    }

    // --- reading the game ------------------------------------------------

    pub fn spec(&self) -> &'s Spec {
        self.spec
    }
    pub fn state(&self) -> &GameState {
        &self.state
    }
    pub fn status(&self) -> Status {
        self.state.status
    }
    pub fn turn(&self) -> u32 {
        self.state.turn
    }
    pub fn players(&self) -> u8 {
        self.state.players
    }
    pub fn active_player(&self) -> PlayerId {
        self.state.active
    }
    pub fn starting_player(&self) -> PlayerId {
        self.state.starting
    }
    /// Who holds priority, if a window is open.
    pub fn holder(&self) -> Option<PlayerId> {
        self.state.holder
    }
    pub fn phase(&self) -> PhaseId {
        self.state.phase
    }
    pub fn step(&self) -> StepId {
        self.state.step
    }
    /// The current window, if one is open.
    pub fn window(&self) -> Option<WindowId> {
        match (self.state.holder, self.current_stage()) {
            (Some(_), Some(Stage::Window(w))) => Some(w),
            _ => None,
        }
    }
    /// How many phases of the current phase's kind have begun this turn.
    pub fn phase_number(&self) -> u8 {
        self.state.kind_counts[self.spec.phase(self.state.phase).kind as usize]
    }
    pub fn repeat_count(&self) -> u8 {
        self.state.repeat
    }
    pub fn passes(&self) -> u8 {
        self.state.passes
    }
    /// The stack, bottom first.
    pub fn stack(&self) -> &[StackObject] {
        &self.state.stack
    }
    pub fn counter(&self, id: turnspec_spec::CounterId) -> u16 {
        self.state.counters.get(id.index()).copied().unwrap_or(0)
    }
    pub fn fact(&self, id: FactId) -> bool {
        self.state.facts & (1u64 << (id.0 & 63)) != 0
    }
    pub fn variant(&self, id: VariantId) -> bool {
        self.state.variants & (1u64 << (id.0 & 63)) != 0
    }
    /// Whether `player` is taking the first turn of theirs in this game.
    pub fn first_turn(&self) -> bool {
        self.state.first_turn
    }

    fn current_stage(&self) -> Option<Stage> {
        self.spec
            .step(self.state.step)
            .stages
            .get(self.state.stage as usize)
            .copied()
    }

    // --- acting ----------------------------------------------------------

    /// Checks `action`, performs it and runs to the next decision. A refused
    /// action returns the rule it breaks and changes nothing.
    pub fn apply<H: Host, S: EventSink>(
        &mut self,
        action: Action,
        host: &mut H,
        sink: &mut S,
    ) -> Result<(), RuleError> {
        match action {
            Action::SetFact { fact, value } => {
                if fact.index() >= self.spec.facts.len() {
                    return Err(RuleError::NoSuchFact);
                }
                let bit = 1u64 << fact.0;
                if value {
                    self.state.facts |= bit
                } else {
                    self.state.facts &= !bit
                }
                sink.event(Event::FactChanged { fact, value });
                return Ok(());
            }
            Action::Trigger { controller, label } => {
                if !self.state.is_in(controller) {
                    return Err(RuleError::NoSuchPlayer { player: controller });
                }
                self.state.waiting.push(StackObject {
                    controller,
                    kind: ObjectKind::Trigger,
                    label,
                });
                // A trigger reported while someone holds priority goes on the
                // stack before that player can act again (117.5).
                if let Some(holder) = self.state.holder {
                    self.put_waiting(sink);
                    self.state.holder = Some(holder);
                }
                return Ok(());
            }
            _ => {}
        }
        if self.state.status != Status::Running {
            return Err(RuleError::NotRunning(self.state.status));
        }
        match action {
            Action::Pass { player } => {
                self.check_holder(player)?;
                self.pass(player, host, sink);
            }
            Action::Play {
                player,
                timing,
                label,
            } => {
                self.check_play(player, timing)?;
                self.play(player, timing, label, host, sink);
            }
            // Handled above: host actions need no decision.
            Action::SetFact { .. } | Action::Trigger { .. } => {}
        }
        Ok(())
    }

    fn check_holder(&self, player: PlayerId) -> Result<(), RuleError> {
        if !self.state.is_in(player) {
            return Err(RuleError::NoSuchPlayer { player });
        }
        if self.state.holder != Some(player) {
            return Err(RuleError::NotHolder {
                player,
                holder: self.state.holder,
                rule: self.spec.priority.rule,
            });
        }
        Ok(())
    }

    /// Whether `player` may play at `timing` right now, and if not, why.
    pub fn check_play(&self, player: PlayerId, timing: TimingId) -> Result<(), RuleError> {
        if self.state.status != Status::Running {
            return Err(RuleError::NotRunning(self.state.status));
        }
        self.check_holder(player)?;
        let Some(tc) = self.spec.timing.get(timing.index()) else {
            return Err(RuleError::NoSuchTiming { timing });
        };
        let fail = |failure, rule: RuleRef| {
            let rule = if rule.is_none() { tc.rule } else { rule };
            Err(RuleError::Timing {
                player,
                timing,
                failure,
                rule,
            })
        };
        match tc.who {
            Who::ActivePlayer if player != self.state.active => {
                return fail(TimingFailure::NotActivePlayer, tc.rule);
            }
            Who::NonActivePlayer if player == self.state.active => {
                return fail(TimingFailure::ActivePlayer, tc.rule);
            }
            _ => {}
        }
        if self.spec.step(self.state.step).timing_mask & (1 << timing.0) == 0 {
            return fail(TimingFailure::WrongStep, tc.rule);
        }
        if tc.stack == StackRequirement::Empty && !self.state.stack.is_empty() {
            return fail(TimingFailure::StackNotEmpty, tc.rule);
        }
        if let Some(limit) = tc.limit {
            if self.state.counters[limit.counter.index()] >= limit.max {
                return fail(TimingFailure::LimitReached { max: limit.max }, limit.rule);
            }
        }
        for (i, r) in tc.require.iter().enumerate() {
            if !self.spec.conditions.eval(r.condition.cond, self) {
                return fail(TimingFailure::Requirement(i as u8), r.condition.rule);
            }
        }
        Ok(())
    }

    /// Every action `player` could take now: pass first, then each timing
    /// class they may use. Allocates nothing.
    pub fn legal_actions(&self, player: PlayerId) -> LegalActions<'_, 's> {
        LegalActions {
            game: self,
            player,
            next: if self.state.holder == Some(player) {
                0
            } else {
                u16::MAX
            },
        }
    }

    fn pass<H: Host, S: EventSink>(&mut self, player: PlayerId, host: &mut H, sink: &mut S) {
        sink.event(Event::Passed { player });
        self.state.passes += 1;
        if self.state.passes < self.state.players_in() {
            let next = self.next_in_game(player);
            self.give_priority(next, Because::Passed, sink);
            return;
        }
        // Everyone passed in succession (117.4, 500.2).
        self.state.passes = 0;
        match self.state.stack.pop() {
            Some(object) => {
                sink.event(Event::Resolved { object });
                let to = self.holder_for(self.spec.priority.after_resolve, player);
                self.give_priority(to, Because::Resolved, sink);
            }
            None => {
                self.state.holder = None;
                self.state.stage += 1;
                self.run(host, sink);
            }
        }
    }

    fn play<H: Host, S: EventSink>(
        &mut self,
        player: PlayerId,
        timing: TimingId,
        label: u32,
        host: &mut H,
        sink: &mut S,
    ) {
        let tc = self.spec.timing_class(timing);
        if let Some(limit) = tc.limit {
            let c = &mut self.state.counters[limit.counter.index()];
            *c = c.saturating_add(1);
        }
        self.state.passes = 0;
        match tc.effect {
            Effect::Stack => {
                let object = StackObject {
                    controller: player,
                    kind: ObjectKind::Play(timing),
                    label,
                };
                self.state.stack.push(object);
                sink.event(Event::Pushed { object });
                let to = self.holder_for(self.spec.priority.after_action, player);
                self.give_priority(to, Because::Acted, sink);
            }
            Effect::Special => {
                sink.event(Event::SpecialAction {
                    player,
                    timing,
                    label,
                });
                let to = self.holder_for(self.spec.priority.after_action, player);
                self.give_priority(to, Because::Acted, sink);
            }
            Effect::StartPhase(phase) => {
                sink.event(Event::SpecialAction {
                    player,
                    timing,
                    label,
                });
                if (self.state.returns_len as usize) < MAX_NESTING {
                    let s = &mut self.state;
                    s.returns[s.returns_len as usize] = ReturnPoint {
                        phase: s.phase,
                        step: s.step,
                        stage: s.stage,
                        repeat: s.repeat,
                        window_opened: s.window_opened,
                    };
                    s.returns_len += 1;
                    s.holder = None;
                    s.phase = phase;
                    s.point = Point::PhaseStart;
                    self.run(host, sink);
                } else {
                    // Nesting deeper than the engine keeps: the action has no
                    // structural effect (the validator rejects cycles, so only
                    // a spec with very deep chains gets here).
                    let to = self.holder_for(self.spec.priority.after_action, player);
                    self.give_priority(to, Because::Acted, sink);
                }
            }
        }
    }

    fn holder_for(&self, holder: Holder, actor: PlayerId) -> PlayerId {
        match holder {
            Holder::Actor if self.state.is_in(actor) => actor,
            _ => self.first_holder(),
        }
    }

    /// The active player, or the next player still in the game (800.4j).
    fn first_holder(&self) -> PlayerId {
        if self.state.is_in(self.state.active) {
            self.state.active
        } else {
            self.next_in_game(self.state.active)
        }
    }

    fn next_in_game(&self, from: PlayerId) -> PlayerId {
        let mut p = from;
        for _ in 0..self.state.players {
            p = next_seat(self.spec.game.turn_order, self.state.players, p);
            if self.state.is_in(p) {
                return p;
            }
        }
        from
    }

    /// Puts waiting triggers on the stack — the active player's first, so
    /// they resolve last (APNAP, 101.4, 603.3b) — then gives priority.
    fn give_priority<S: EventSink>(&mut self, player: PlayerId, because: Because, sink: &mut S) {
        self.put_waiting(sink);
        self.state.holder = Some(player);
        let window = match self.current_stage() {
            Some(Stage::Window(w)) => w,
            _ => WindowId(0),
        };
        sink.event(Event::PriorityGiven {
            player,
            window,
            because,
        });
    }

    fn put_waiting<S: EventSink>(&mut self, sink: &mut S) {
        if self.state.waiting.is_empty() {
            return;
        }
        let s = &mut self.state;
        let (order, n, active) = (self.spec.game.turn_order, s.players, s.active);
        let distance = |p: PlayerId| seat_distance(order, n, active, p);
        // Stable insertion sort by APNAP distance: no allocation.
        for i in 1..s.waiting.len() {
            let mut j = i;
            while j > 0 && distance(s.waiting[j - 1].controller) > distance(s.waiting[j].controller)
            {
                s.waiting.swap(j - 1, j);
                j -= 1;
            }
        }
        for object in s.waiting.drain(..) {
            s.stack.push(object);
            sink.event(Event::TriggerPut { object });
        }
        s.passes = 0;
    }

    fn hook_context(&self) -> HookContext {
        HookContext {
            turn: self.state.turn,
            active: self.state.active,
            players: self.state.players,
            phase: self.state.phase,
            step: self.state.step,
            repeat: self.state.repeat,
        }
    }

    fn reset_counters(&mut self, mask: u16) {
        if mask == 0 {
            return;
        }
        for (i, c) in self.state.counters.iter_mut().enumerate() {
            if mask & (1 << i) != 0 {
                *c = 0;
            }
        }
    }

    /// Advances through the turn until a player must decide.
    fn run<H: Host, S: EventSink>(&mut self, host: &mut H, sink: &mut S) {
        let spec = self.spec;
        let mut budget = STALL_BUDGET;
        loop {
            budget -= 1;
            if budget == 0 {
                self.state.status = Status::Stalled;
                return;
            }
            match self.state.point {
                Point::TurnStart => {
                    if self.state.in_game == 0 {
                        self.state.status = Status::NoPlayers;
                        return;
                    }
                    if self.state.turn >= self.state.turn_limit {
                        self.state.status = Status::TurnLimit;
                        return;
                    }
                    if !self.state.is_in(self.state.active) {
                        // A player who left takes no more turns (800.4k).
                        self.state.active = self.next_in_game(self.state.active);
                    }
                    let s = &mut self.state;
                    s.turn += 1;
                    s.first_turn = s.mark_had_turn(s.active);
                    s.kind_counts = [0; MAX_PHASE_KINDS];
                    s.turn_pos = 0;
                    s.returns_len = 0;
                    let mask = self.masks.turn;
                    self.reset_counters(mask);
                    sink.event(Event::TurnBegan {
                        turn: self.state.turn,
                        player: self.state.active,
                    });
                    match spec.turn.first() {
                        Some(p) => {
                            self.state.phase = *p;
                            self.state.point = Point::PhaseStart;
                        }
                        None => self.state.point = Point::TurnEnd,
                    }
                }
                Point::PhaseStart => {
                    let phase = spec.phase(self.state.phase);
                    let kind = phase.kind as usize;
                    self.state.kind_counts[kind] = self.state.kind_counts[kind].saturating_add(1);
                    if let Some(rule) = self.skip_rule(&phase.skip) {
                        self.state.kind_counts[kind] -= 1;
                        sink.event(Event::Skipped {
                            skipped: Skipped::Phase(self.state.phase),
                            rule,
                        });
                        self.after_phase();
                        continue;
                    }
                    let mask = self.masks.phase;
                    self.reset_counters(mask);
                    sink.event(Event::PhaseBegan {
                        phase: self.state.phase,
                        number: self.state.kind_counts[kind],
                    });
                    self.state.step = phase.first_step;
                    self.state.repeat = 0;
                    self.state.point = Point::StepStart;
                }
                Point::StepStart => {
                    let step = spec.step(self.state.step);
                    if let Some(rule) = self.skip_rule(&step.skip) {
                        sink.event(Event::Skipped {
                            skipped: Skipped::Step(self.state.step),
                            rule,
                        });
                        self.after_step();
                        continue;
                    }
                    let mask = self.masks.step;
                    self.reset_counters(mask);
                    self.state.window_opened = false;
                    self.state.stage = 0;
                    if !step.implicit {
                        sink.event(Event::StepBegan {
                            step: self.state.step,
                            repeat: self.state.repeat,
                        });
                    }
                    let ctx = self.hook_context();
                    host.step_began(
                        &ctx,
                        &mut Triggers {
                            waiting: &mut self.state.waiting,
                        },
                    );
                    self.state.point = Point::Stage;
                }
                Point::Stage => {
                    let step = spec.step(self.state.step);
                    let Some(stage) = step.stages.get(self.state.stage as usize).copied() else {
                        self.state.point = Point::StepEnd;
                        continue;
                    };
                    match stage {
                        Stage::Action(id) => {
                            let action = spec.turn_action(id);
                            let applies = match action.condition {
                                Some(c) => spec.conditions.eval(c, self),
                                None => true,
                            };
                            if applies {
                                let ctx = self.hook_context();
                                let answer = host
                                    .turn_action(
                                        &ctx,
                                        id,
                                        &mut Triggers {
                                            waiting: &mut self.state.waiting,
                                        },
                                    )
                                    .min(action.answer_max);
                                if let Some(c) = action.answer_counter {
                                    self.state.counters[c.index()] = answer;
                                }
                                sink.event(Event::TurnAction { action: id, answer });
                                if answer > 0 {
                                    if let Some(t) = action.answer_play {
                                        self.turn_action_play(id, t, sink);
                                    }
                                }
                            }
                            self.state.stage += 1;
                        }
                        Stage::Window(w) => {
                            let open = match spec.window(w).mode {
                                WindowMode::Always => true,
                                WindowMode::IfPending => {
                                    !self.state.waiting.is_empty() || !self.state.stack.is_empty()
                                }
                            };
                            if open {
                                self.state.window_opened = true;
                                self.state.passes = 0;
                                let first = self.first_holder();
                                self.give_priority(first, Because::WindowOpened, sink);
                                return;
                            }
                            self.state.stage += 1;
                        }
                    }
                }
                Point::StepEnd => {
                    let step = spec.step(self.state.step);
                    let again = match step.repeat {
                        Some(r) => spec.conditions.eval(r.cond, self),
                        None => false,
                    };
                    if !step.implicit {
                        sink.event(Event::StepEnded {
                            step: self.state.step,
                        });
                    }
                    if again {
                        self.state.repeat = self.state.repeat.saturating_add(1);
                        self.state.point = Point::StepStart;
                    } else {
                        self.after_step();
                    }
                }
                Point::PhaseEnd => {
                    sink.event(Event::PhaseEnded {
                        phase: self.state.phase,
                    });
                    self.after_phase();
                }
                Point::Reopen => {
                    self.state.point = Point::Stage;
                    self.state.passes = 0;
                    let first = self.first_holder();
                    self.give_priority(first, Because::Returned, sink);
                    return;
                }
                Point::TurnEnd => {
                    sink.event(Event::TurnEnded {
                        turn: self.state.turn,
                        player: self.state.active,
                    });
                    self.state.active = self.next_in_game(self.state.active);
                    self.state.point = Point::TurnStart;
                }
            }
        }
    }

    /// A turn-based action that makes the active player play (GA's
    /// materialization): limits still count, nothing else is checked.
    fn turn_action_play<S: EventSink>(
        &mut self,
        action: turnspec_spec::TurnActionId,
        timing: TimingId,
        sink: &mut S,
    ) {
        let tc = self.spec.timing_class(timing);
        if let Some(limit) = tc.limit {
            let c = &mut self.state.counters[limit.counter.index()];
            if *c >= limit.max {
                return;
            }
            *c += 1;
        }
        let player = self.state.active;
        match tc.effect {
            Effect::Stack => {
                let object = StackObject {
                    controller: player,
                    kind: ObjectKind::TurnAction(action),
                    label: 0,
                };
                self.state.stack.push(object);
                sink.event(Event::Pushed { object });
            }
            Effect::Special | Effect::StartPhase(_) => {
                sink.event(Event::SpecialAction {
                    player,
                    timing,
                    label: 0,
                });
            }
        }
    }

    fn skip_rule(&self, skips: &[turnspec_spec::Condition]) -> Option<RuleRef> {
        skips
            .iter()
            .find(|c| self.spec.conditions.eval(c.cond, self))
            .map(|c| c.rule)
    }

    fn after_step(&mut self) {
        let phase = self.spec.phase(self.state.phase);
        self.state.repeat = 0;
        if self.state.step.0 + 1 < phase.first_step.0 + phase.step_count {
            self.state.step.0 += 1;
            self.state.point = Point::StepStart;
        } else {
            self.state.point = Point::PhaseEnd;
        }
    }

    fn after_phase(&mut self) {
        let s = &mut self.state;
        if s.returns_len > 0 {
            s.returns_len -= 1;
            let r = s.returns[s.returns_len as usize];
            s.phase = r.phase;
            s.step = r.step;
            s.stage = r.stage;
            s.repeat = r.repeat;
            s.window_opened = r.window_opened;
            s.point = Point::Reopen;
            return;
        }
        s.turn_pos += 1;
        match self.spec.turn.get(s.turn_pos as usize) {
            Some(p) => {
                s.phase = *p;
                s.point = Point::PhaseStart;
            }
            None => s.point = Point::TurnEnd,
        }
    }
}

fn next_seat(order: TurnOrder, players: u8, p: PlayerId) -> PlayerId {
    match order {
        TurnOrder::Clockwise => PlayerId((p.0 + 1) % players),
        TurnOrder::Counterclockwise => PlayerId((p.0 + players - 1) % players),
    }
}

/// How many seats after `from` (in turn order) `to` sits.
fn seat_distance(order: TurnOrder, players: u8, from: PlayerId, to: PlayerId) -> u8 {
    match order {
        TurnOrder::Clockwise => (to.0 + players - from.0) % players,
        TurnOrder::Counterclockwise => (from.0 + players - to.0) % players,
    }
}

impl AtomSource for Game<'_> {
    fn atom(&self, atom: Atom) -> i32 {
        let s = &self.state;
        match atom {
            Atom::Variant(v) => (s.variants >> v & 1) as i32,
            Atom::Fact(f) => (s.facts >> f & 1) as i32,
            Atom::Counter(c) => s.counters[c as usize] as i32,
            Atom::Players => s.players_in() as i32,
            Atom::Turn => s.turn as i32,
            Atom::FirstTurn => s.first_turn as i32,
            Atom::StartingPlayer => (s.active == s.starting) as i32,
            Atom::Seat => {
                seat_distance(self.spec.game.turn_order, s.players, s.starting, s.active) as i32 + 1
            }
            Atom::PhaseNumber => s.kind_counts[self.spec.phase(s.phase).kind as usize] as i32,
            Atom::RepeatCount => s.repeat as i32,
            Atom::WindowOpened => s.window_opened as i32,
            Atom::StackEmpty => s.stack.is_empty() as i32,
        }
    }
}

/// Something a player or the host does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    /// Pass priority (117.3d).
    Pass { player: PlayerId },
    /// Cast, activate, play a land, attack: anything at a timing class.
    /// `label` is the host's handle for what was played.
    Play {
        player: PlayerId,
        timing: TimingId,
        label: u32,
    },
    /// The host reports a triggered ability (not a player action).
    Trigger { controller: PlayerId, label: u32 },
    /// The host changes a fact (not a player action).
    SetFact { fact: FactId, value: bool },
}

/// Iterator over a player's legal actions; see [`Game::legal_actions`].
pub struct LegalActions<'g, 's> {
    game: &'g Game<'s>,
    player: PlayerId,
    next: u16,
}

impl Iterator for LegalActions<'_, '_> {
    type Item = Action;

    fn next(&mut self) -> Option<Action> {
        let timing_count = self.game.spec.timing.len() as u16;
        while self.next != u16::MAX && self.next <= timing_count {
            let i = self.next;
            self.next += 1;
            if i == 0 {
                return Some(Action::Pass {
                    player: self.player,
                });
            }
            let timing = TimingId((i - 1) as u8);
            if self.game.check_play(self.player, timing).is_ok() {
                return Some(Action::Play {
                    player: self.player,
                    timing,
                    label: 0,
                });
            }
        }
        None
    }
}
