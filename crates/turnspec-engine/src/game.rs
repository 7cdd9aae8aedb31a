//! The generic phase/step/priority machine.
//!
//! A [`Game`] always rests at a decision: some player holds priority in an
//! open window and must pass or play. [`Game::apply`] checks the action
//! against the spec first (so a refusal changes nothing), then performs it and
//! runs the turn forward — turn-based actions, skips, repeats, windows that
//! open only when something is pending — until the next decision.

use turnspec_model::{
    Atom, AtomSource, FactId, MAX_COUNTERS, MAX_PHASE_KINDS, MAX_PLAYERS, PhaseId, RuleRef, Spec,
    StackRequirement, Stage, StepId, TimingId, VariantId, Who, WindowId,
};

use crate::action::Action;
use crate::cached::Cached;
use crate::error::{RuleError, TimingFailure};
use crate::event::EventSink;
use crate::host::Host;
use crate::seats::{next_seat, seat_distance};
use crate::setup::{GameOptions, MAX_STACK_RESERVE, SetupError, StartAt};
use crate::state::{
    GameState, MAX_NESTING, ObjectKind, Place, PlayerId, Point, ReturnPoint, StackObject, Status,
};

/// A game in progress: the compiled spec it follows (a cheap clone: the
/// game owns it, so a game can outlive the `Spec` it was made from and live
/// in the same struct as anything else) and its state.
#[derive(Debug)]
pub struct Game {
    pub(crate) spec: Spec,
    pub(crate) state: GameState,
    /// The turn program, the side tables and the fast paths' flags: each
    /// refreshed in one place and checked against the state in debug
    /// builds (`cached.rs`).
    pub(crate) cached: Cached,
}

impl Clone for Game {
    fn clone(&self) -> Game {
        Game {
            spec: self.spec.clone(),
            state: self.state.clone(),
            cached: self.cached.clone(),
        }
    }

    /// Clones `source` into this game reusing its allocations, and touching
    /// no reference count when both share the spec and programs: a search
    /// that tries each move on a copy of one state does this per move.
    fn clone_from(&mut self, source: &Game) {
        self.spec.clone_from(&source.spec);
        self.state.clone_from(&source.state);
        self.cached.clone_from(&source.cached);
    }
}

impl Game {
    /// Sets up a game. Nothing happens until [`Game::start`].
    pub fn new(spec: &Spec, options: &GameOptions) -> Result<Self, SetupError> {
        let n = options.players;
        if n < spec.game().min_players || n > spec.game().max_players || n > MAX_PLAYERS || n == 0 {
            return Err(SetupError::PlayerCount {
                players: n,
                min: spec.game().min_players,
                max: spec.game().max_players,
            });
        }
        if options.starting_player.0 >= n {
            return Err(SetupError::StartingPlayer(options.starting_player));
        }
        let mut team_of = [0u8; MAX_PLAYERS as usize];
        for (i, t) in team_of.iter_mut().enumerate() {
            *t = i as u8;
        }
        if !options.teams.is_empty() {
            if options.teams.len() != n as usize || options.teams.iter().any(|t| *t >= MAX_PLAYERS)
            {
                return Err(SetupError::Teams);
            }
            team_of[..n as usize].copy_from_slice(&options.teams);
        }
        if let Some(f) = options
            .facts
            .iter()
            .find(|f| f.index() >= spec.facts().len())
        {
            return Err(SetupError::Unknown("fact", f.index()));
        }
        if let Some(v) = options
            .variants
            .iter()
            .find(|v| v.index() >= spec.variants().len())
        {
            return Err(SetupError::Unknown("variant", v.index()));
        }
        if let Some((c, _)) = options
            .counters
            .iter()
            .find(|(c, _)| c.index() >= spec.counters().len())
        {
            return Err(SetupError::Unknown("counter", c.index()));
        }
        // The flags set by default in the spec, plus those the options set.
        fn flag_bits<I: turnspec_model::Id>(
            declared: &turnspec_model::Arena<I, turnspec_model::Flag>,
            chosen: &[I],
        ) -> u64 {
            let defaults = declared
                .iter_ids()
                .filter(|(_, f)| f.default)
                .map(|(i, _)| i);
            defaults
                .chain(chosen.iter().copied())
                .fold(0u64, |acc, i| acc | (1u64 << (i.index() & 63)))
        }
        let facts = flag_bits(spec.facts(), &options.facts);
        let variants = flag_bits(spec.variants(), &options.variants);
        let first_phase = spec.turn().first().copied().unwrap_or_default();
        let first_step = spec
            .phase(first_phase)
            .map_or(StepId::default(), |p| p.first_step());
        let mut state = GameState {
            turn: 0,
            turn_limit: u32::MAX,
            players: n,
            team_of,
            has_teams: !options.teams.is_empty(),
            in_game: ((1u16 << n) - 1) as u8,
            had_turn: 0,
            active: options.starting_player,
            last_regular: options.starting_player,
            extra_turn: false,
            starting: options.starting_player,
            first_turn: true,
            status: Status::Running,
            point: Point::TurnStart,
            phase: first_phase,
            turn_pos: 0,
            step: first_step,
            anchor: first_step,
            start_step: None,
            only_step: None,
            stage: 0,
            repeat: 0,
            window_opened: false,
            quiet_repeats: 0,
            holder: None,
            passes: 0,
            returns_len: 0,
            returns: [ReturnPoint::default(); MAX_NESTING],
            roles: [PlayerId(0); turnspec_model::MAX_ROLES],
            passed_out: 0,
            responding: false,
            kind_counts: [0; MAX_PHASE_KINDS],
            counters: [0; MAX_COUNTERS],
            player_counters: [[0; MAX_PLAYERS as usize]; turnspec_model::MAX_PLAYER_COUNTERS],
            facts,
            variants,
            stack: Vec::with_capacity(options.stack_capacity.min(MAX_STACK_RESERVE)),
            waiting: Vec::with_capacity(options.stack_capacity.min(MAX_STACK_RESERVE)),
            mods: None,
            // Made when the first object is reported, so a game with none
            // clones without allocating.
            objects: None,
            between: false,
        };
        if state.has_teams {
            // A team's first seat stands for it (805.4a: the active team).
            if let Some(p) = state.primary_of(state.starting) {
                state.starting = p;
                state.active = p;
                state.last_regular = p;
            }
        }
        if let Some(at) = options.start_at {
            Self::position(spec, &mut state, at)?;
        }
        let cached = Cached::new(spec, &state, options);
        let mut game = Game {
            spec: spec.clone(),
            state,
            cached,
        };
        game.refill(u16::MAX);
        game.roles_begin(true);
        for (c, v) in &options.counters {
            let active = game.state.active;
            *game.counter_slot(*c, active) = *v;
        }
        if !options.in_play.is_empty() {
            if !spec.objects().tracked {
                return Err(SetupError::InPlay("the spec keeps no objects"));
            }
            let players = game.state.players;
            let mut objects = Box::<crate::state::ObjectsInPlay>::default();
            if let Some(at) = options.start_at {
                // Each player's most recent turn, had turns gone round the
                // table from the starting player; then this one (302.6).
                let n = players.max(1) as u32;
                let first = at.turn.saturating_sub(n).max(1);
                let order = spec.game().turn_order;
                let mut p = game.state.starting;
                for _ in 0..(first - 1) % n {
                    p = next_seat(order, players, p);
                }
                for turn in first..at.turn {
                    objects.turn_began(p, turn);
                    p = next_seat(order, players, p);
                }
                objects.turn_began(game.state.active, at.turn);
            }
            for &(object, controller) in &options.in_play {
                if controller.0 >= players {
                    return Err(SetupError::InPlay("a controller is not seated"));
                }
                if !objects.put_before_start(object, controller) {
                    return Err(SetupError::InPlay("an object is given twice, or too many"));
                }
            }
            game.state.objects = Some(objects);
        }
        Ok(game)
    }

    /// Compiles the turn program again for what it folds: the facts set, the
    /// players and sides still in the game, the turn order.
    pub(crate) fn rebuild_program(&mut self) {
        self.cached.refresh(&self.spec, &self.state);
    }

    /// The active player, or the next player still in the game (800.4j).
    #[inline]
    pub(crate) fn first_holder(&self) -> PlayerId {
        self.state.first_holder(self.spec.game().turn_order)
    }

    /// [`Game::first_holder`] on the fast paths (a window the program
    /// opens, a resolution in `Game::pass`): the active player unless they
    /// may have left during this turn (`Cached::active_may_be_out`). The
    /// general paths ask [`Game::first_holder`], so the fuzzer's comparison
    /// of the two checks the flag, and so does `Cached::assert_consistent`.
    #[inline(always)]
    pub(crate) fn first_holder_fast(&self) -> PlayerId {
        if self.cached.active_may_be_out() {
            return self.first_holder();
        }
        self.state.active
    }

    /// The next side in turn order after `from`.
    pub(crate) fn next_in_game(&self, from: PlayerId) -> PlayerId {
        self.state.next_in_game(self.spec.game().turn_order, from)
    }

    /// How many sides after the active player's side `p` sits (APNAP).
    pub(crate) fn side_distance(&self, p: PlayerId) -> u8 {
        self.state.side_distance(self.spec.game().turn_order, p)
    }

    /// The compiled turn program of this game, one op per line (for
    /// snapshot tests of what a spec compiles to; the format may change).
    #[doc(hidden)]
    pub fn program_listing(&self) -> String {
        self.cached.program().listing(&self.spec)
    }

    /// How many superinstructions the program ran in this game, so tests
    /// can tell that a fused path fires. Counted in debug builds only:
    /// release builds answer 0.
    #[doc(hidden)]
    pub fn fused_transitions(&self) -> u64 {
        self.cached.fused()
    }

    /// Checks the cached answers against the state (debug builds only).
    #[inline(always)]
    pub(crate) fn debug_check(&self) {
        #[cfg(debug_assertions)]
        self.cached.assert_consistent(&self.spec, &self.state);
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
        let Some(pos) = spec.turn().iter().position(|p| *p == at.phase) else {
            return Err(SetupError::StartAt(
                "the phase is not part of the regular turn",
            ));
        };
        if at.phase.index() >= spec.phases().len() {
            return Err(SetupError::StartAt("no such phase"));
        }
        if let Some(step) = at.step
            && spec.steps().get(step).is_none_or(|st| st.phase != at.phase)
        {
            return Err(SetupError::StartAt("the step is not in that phase"));
        }
        // Turns before this one went round the table from the starting player.
        let mut p = state.starting;
        for _ in 1..at.turn.min(state.players as u32 + 1) {
            state.had_turn |= 1 << p.0;
            p = next_seat(spec.game().turn_order, state.players, p);
        }
        if at.turn > state.players as u32 {
            state.had_turn = state.in_game;
        }
        state.first_turn = state.had_turn & (1 << at.active.0) == 0;
        state.had_turn |= 1 << at.active.0;
        state.turn = at.turn;
        state.active = at.active;
        state.last_regular = at.active;
        state.turn = at.turn;
        for earlier in &spec.turn()[..pos] {
            state.count_phase_kind(kind_of(spec, *earlier));
        }
        state.turn_pos = pos as u8;
        state.phase = at.phase;
        state.point = Point::PhaseStart;
        // Starting inside a phase: begin the phase, then jump to the step.
        if let Some(step) = at.step {
            state.step = step;
            state.anchor = step;
            state.point = Point::StepStart;
            state.count_phase_kind(kind_of(spec, at.phase));
        }
        Ok(())
    }

    /// Runs from the start to the first decision.
    pub fn start<H: Host, S: EventSink>(&mut self, host: &mut H, sink: &mut S) {
        if self.state.holder.is_none() && self.state.status == Status::Running {
            self.run(host, sink);
        }
        self.debug_check();
    }

    /// Stops the game when turn `turn` is over: the next turn does not begin
    /// and [`Game::status`] becomes [`Status::TurnLimit`].
    pub fn set_turn_limit(&mut self, turn: u32) {
        self.state.turn_limit = turn;
    }

    // --- reading the game ------------------------------------------------

    /// The rules this game is played by, for names and rule citations.
    pub fn spec(&self) -> &Spec {
        &self.spec
    }
    /// The whole state, to clone, compare or hash (snapshots, fuzzing).
    pub fn state(&self) -> &GameState {
        &self.state
    }
    /// Whether the game waits for a player, or why it stopped.
    pub fn status(&self) -> Status {
        self.state.status
    }
    /// The number of the current turn, counting from 1.
    pub fn turn(&self) -> u32 {
        self.state.turn
    }
    /// How many seats the game was set up with, including players who left.
    pub fn players(&self) -> u8 {
        self.state.players
    }
    /// Whose turn it is (102.1).
    pub fn active_player(&self) -> PlayerId {
        self.state.active
    }
    /// Who took the first turn of the game (103.1).
    pub fn starting_player(&self) -> PlayerId {
        self.state.starting
    }
    /// Who holds priority, if a window is open.
    pub fn holder(&self) -> Option<PlayerId> {
        self.state.holder
    }
    /// The phase the game is in.
    pub fn phase(&self) -> PhaseId {
        self.state.phase
    }
    /// The step the game is in, when the current phase has steps.
    pub fn step(&self) -> StepId {
        self.state.step
    }
    /// Where the game is within the current step: the index of its
    /// current stage (turn-based action or window) in the step's list.
    /// Tells two windows of one step apart without a spec lookup.
    pub fn stage_index(&self) -> u8 {
        self.state.stage
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
        self.state.kind_counts[kind_of(&self.spec, self.state.phase)]
    }
    /// How many times the current step has already run in a row: 0 the
    /// first time (514.3a, 510.4).
    pub fn repeat_count(&self) -> u8 {
        self.state.repeat
    }
    /// Players who have passed in a row since the last action; when all
    /// have, the stack resolves or the window closes (117.4).
    pub fn passes(&self) -> u8 {
        self.state.passes
    }
    /// The stack, bottom first.
    pub fn stack(&self) -> &[StackObject] {
        &self.state.stack
    }
    /// A counter's value; per-player counters give the active player's.
    pub fn counter(&self, id: turnspec_model::CounterId) -> u16 {
        self.counter_of(id, self.state.active).unwrap_or(0)
    }

    /// A counter's value for `player` (the same for all players unless the
    /// counter is per player); `None` for a counter of another spec or a
    /// seat past the number of players the game was set up with.
    pub fn counter_of(&self, id: turnspec_model::CounterId, player: PlayerId) -> Option<u16> {
        let c = self.spec.counters().get(id)?;
        if player.0 >= self.state.players {
            return None;
        }
        let value = if c.per_player {
            self.state.player_counters[c.slot as usize % turnspec_model::MAX_PLAYER_COUNTERS]
                [player.index() & 7]
        } else {
            self.state.counters[id.index() % turnspec_model::MAX_COUNTERS]
        };
        Some(value)
    }

    /// Where a counter's value for `player` lives.
    pub(crate) fn counter_slot(
        &mut self,
        id: turnspec_model::CounterId,
        player: PlayerId,
    ) -> &mut u16 {
        // A counter of the game's own spec (the options' are checked at
        // set-up), so always found; the slots are bounded all the same.
        match self.spec.counter(id) {
            Some(c) if c.per_player => {
                &mut self.state.player_counters
                    [c.slot as usize % turnspec_model::MAX_PLAYER_COUNTERS][player.index() & 7]
            }
            _ => &mut self.state.counters[id.index() % MAX_COUNTERS],
        }
    }
    /// Whether the host has set this fact (as the spec's conditions see
    /// it); false for a fact of another spec.
    pub fn fact(&self, id: FactId) -> bool {
        self.spec.facts().contains(id) && self.state.facts & (1u64 << (id.index() & 63)) != 0
    }
    /// Whether this variant of the rules was chosen when the game was set
    /// up; false for a variant of another spec.
    pub fn variant(&self, id: VariantId) -> bool {
        self.spec.variants().contains(id) && self.state.variants & (1u64 << (id.index() & 63)) != 0
    }
    /// Whether `player` is taking the first turn of theirs in this game.
    pub fn first_turn(&self) -> bool {
        self.state.first_turn
    }

    /// No panicking lookups, so that the compiler drops the call wherever
    /// its answer only feeds an event that a sink ignores.
    #[inline]
    pub(crate) fn current_stage(&self) -> Option<Stage> {
        self.spec
            .steps()
            .get(self.state.step)?
            .stages
            .get(self.state.stage as usize)
            .copied()
    }

    // --- acting ----------------------------------------------------------

    /// Checks `action`, performs it and runs to the next decision. A refused
    /// action returns the rule it breaks and changes nothing.
    #[inline(always)]
    pub fn apply<H: Host, S: EventSink>(
        &mut self,
        action: Action,
        host: &mut H,
        sink: &mut S,
    ) -> Result<(), RuleError> {
        let result = self.apply_checked(action, host, sink);
        self.debug_check();
        result
    }

    #[inline(always)]
    fn apply_checked<H: Host, S: EventSink>(
        &mut self,
        action: Action,
        host: &mut H,
        sink: &mut S,
    ) -> Result<(), RuleError> {
        // The common case first: the holder passes in a running game (the
        // holder is always a player still in the game).
        if let Action::Pass { player } = action
            && self.state.holder == Some(player)
            && self.state.status == Status::Running
        {
            return match self.pass(player, host, sink) {
                None => Ok(()),
                Some(rule) => Err(RuleError::PassRefused { player, rule }),
            };
        }
        // Then a play that is clearly legal: one check, no error to build.
        if let Action::Play {
            player,
            timing,
            label,
        } = action
        {
            if self.may_play_plainly(player, timing) {
                self.play_plainly(player, timing, label, host, sink);
                return Ok(());
            }
            if self.clearly_may_play(player, timing) {
                self.play(player, timing, label, host, sink);
                return Ok(());
            }
        }
        self.apply_slow(action, host, sink)
    }

    #[inline(never)]
    fn apply_slow<H: Host, S: EventSink>(
        &mut self,
        action: Action,
        host: &mut H,
        sink: &mut S,
    ) -> Result<(), RuleError> {
        // Once the game has stopped, every move is refused (and every host
        // command, `Game::command`): nothing can happen in a game that is over.
        if self.state.status != Status::Running {
            return Err(RuleError::NotRunning(self.state.status));
        }
        // Anything but a pass or a play may change where the turn goes on:
        // the program finds its place again from the state.
        if !matches!(action, Action::Pass { .. } | Action::Play { .. }) {
            self.cached.forget_resume();
        }
        match action {
            Action::Pass { player } => {
                self.check_holder(player)?;
                if let Some(rule) = self.pass(player, host, sink) {
                    return Err(RuleError::PassRefused { player, rule });
                }
            }
            Action::Play {
                player,
                timing,
                label,
            } => {
                self.check_play(player, timing, label)?;
                self.play(player, timing, label, host, sink);
            }
            Action::Leave { player } => {
                self.check_in_game(player)?;
                self.leave(player, host, sink);
            }
            Action::Choose { player, label } => {
                if !self.check_bag_choice(player, label) {
                    return Err(RuleError::NotInBag {
                        player,
                        label,
                        rule: self.spec.priority().triggers_rule,
                    });
                }
                self.bag_resolve(player, Some(label), host, sink);
            }
        }
        Ok(())
    }

    /// `player` is seated and has not left (800.4a): else the action is
    /// refused with `NoSuchPlayer`.
    pub(crate) fn check_in_game(&self, player: PlayerId) -> Result<(), RuleError> {
        match self.state.is_in(player) {
            true => Ok(()),
            false => Err(RuleError::NoSuchPlayer { player }),
        }
    }

    /// `at` is a phase or step of this game's spec: else the action is
    /// refused with `NoSuchPlace` (a place of another spec would never
    /// begin).
    pub(crate) fn check_place(&self, at: Place) -> Result<(), RuleError> {
        let known = match at {
            Place::Phase(p) => self.spec.phases().contains(p),
            Place::Step(s) => self.spec.steps().contains(s),
        };
        match known {
            true => Ok(()),
            false => Err(RuleError::NoSuchPlace { place: at }),
        }
    }

    fn check_holder(&self, player: PlayerId) -> Result<(), RuleError> {
        self.check_in_game(player)?;
        // With shared team turns any member acts for the team (805.5).
        let holds = match self.state.holder {
            Some(h) => {
                h == player
                    || (self.state.has_teams && self.state.team(h) == self.state.team(player))
            }
            None => false,
        };
        if !holds {
            return Err(RuleError::NotHolder {
                player,
                holder: self.state.holder,
                rule: self.spec.priority().rule,
            });
        }
        Ok(())
    }

    /// Whether `player` may play at `timing` right now, with the host's
    /// `label` for what is played, and if not, why. For a class with
    /// `by = "object"` the label names the object in play that makes the
    /// play; for every other class it does not matter.
    #[inline]
    pub fn check_play(
        &self,
        player: PlayerId,
        timing: TimingId,
        label: u32,
    ) -> Result<(), RuleError> {
        if self.may_play_plainly(player, timing) || self.clearly_may_play(player, timing) {
            return Ok(());
        }
        self.check_play_fully(player, timing, label)
    }

    /// A plain play (`Features::plain_timings`: anyone, onto the stack,
    /// nothing required or paid; none in a game with teams) by the holder
    /// at a timing class the current step allows. False means "ask
    /// `clearly_may_play`".
    #[inline(always)]
    pub(crate) fn may_play_plainly(&self, player: PlayerId, timing: TimingId) -> bool {
        let s = &self.state;
        timing.index() < 32
            && self.cached.features().plain_timings >> timing.index() & 1 != 0
            && s.holder == Some(player)
            && s.status == Status::Running
            && self
                .cached
                .program()
                .step_timings
                .get(s.step.index())
                .is_some_and(|mask| mask >> timing.index() & 1 != 0)
    }

    /// The common case of [`Game::check_play`] in a few tests, with no
    /// error to build: the holder, no team, no requirement, no cost. False
    /// means "ask `check_play_fully`", which finds the reason (or that the
    /// play is legal after all).
    #[inline]
    fn clearly_may_play(&self, player: PlayerId, timing: TimingId) -> bool {
        let s = &self.state;
        let Some(tc) = self.spec.timing().get(timing) else {
            return false;
        };
        let who = match tc.who {
            Who::Any => true,
            Who::ActivePlayer => player == s.active,
            Who::Role(role) => player == self.role_holder(role),
            Who::NonActivePlayer | Who::Nobody => false,
        };
        s.status == Status::Running
            && s.holder == Some(player)
            && !s.has_teams
            && who
            && self
                .spec
                .step(s.step)
                .is_some_and(|st| st.timing_mask & (1 << (timing.index() & 31)) != 0)
            && (tc.stack != StackRequirement::Empty || s.stack.is_empty())
            && tc.require.is_empty()
            && tc.cost.is_none()
            && !tc.by_object
            && tc.limit.is_none_or(|l| {
                self.counter_of(l.counter, player).unwrap_or(0) < self.limit_max(&l, player)
            })
    }

    /// How many uses a limit allows `player` now: its `max`, raised by
    /// its `raised_by` counter ("an additional land", 305.2).
    #[inline]
    pub(crate) fn limit_max(&self, limit: &turnspec_model::Limit, player: PlayerId) -> u16 {
        let raise = limit
            .raised_by
            .map_or(0, |c| self.counter_of(c, player).unwrap_or(0));
        limit.max.saturating_add(raise)
    }

    #[cold]
    fn check_play_fully(
        &self,
        player: PlayerId,
        timing: TimingId,
        label: u32,
    ) -> Result<(), RuleError> {
        if self.state.status != Status::Running {
            return Err(RuleError::NotRunning(self.state.status));
        }
        self.check_holder(player)?;
        let Some(tc) = self.spec.timing().get(timing) else {
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
            Who::ActivePlayer if self.state.team(player) != self.state.team(self.state.active) => {
                return fail(TimingFailure::NotActivePlayer, tc.who_rule);
            }
            Who::Nobody => return fail(TimingFailure::Nobody, tc.who_rule),
            Who::NonActivePlayer
                if self.state.team(player) == self.state.team(self.state.active) =>
            {
                return fail(TimingFailure::ActivePlayer, tc.who_rule);
            }
            Who::Role(role) if self.role_holder(role) != player => {
                return fail(TimingFailure::NotRoleHolder { role }, tc.who_rule);
            }
            _ => {}
        }
        let mask = self
            .spec
            .step(self.state.step)
            .map_or(0, |st| st.timing_mask);
        if mask & (1 << (timing.index() & 31)) == 0 {
            return fail(TimingFailure::WrongStep, tc.during_rule);
        }
        if tc.stack == StackRequirement::Empty && !self.state.stack.is_empty() {
            return fail(TimingFailure::StackNotEmpty, tc.stack_rule);
        }
        if let Some(limit) = tc.limit {
            let max = self.limit_max(&limit, player);
            if self.counter_of(limit.counter, player).unwrap_or(0) >= max {
                return fail(TimingFailure::LimitReached { max }, limit.rule);
            }
        }
        if tc.by_object {
            // Made by the object the label names: objects.rs.
            self.check_play_by_object(tc, player, timing, label)?;
        } else {
            for (i, r) in tc.require.iter().enumerate() {
                if !self.spec.conditions().eval(r.condition.cond, self) {
                    return fail(TimingFailure::Requirement(i as u8), r.condition.rule);
                }
            }
        }
        if let Some((need, have)) = self.unpaid(player, tc) {
            let rule = tc.cost.map_or(RuleRef::NONE, |c| c.rule);
            return fail(TimingFailure::CannotPay { need, have }, rule);
        }
        Ok(())
    }
}

/// The kind of a phase (`counts_as`), an index into per-kind counts: 0 for
/// a phase the spec does not have, which the game's own phases never are.
#[inline]
pub(crate) fn kind_of(spec: &Spec, phase: PhaseId) -> usize {
    spec.phase(phase)
        .map_or(0, |p| p.kind as usize % MAX_PHASE_KINDS)
}

impl AtomSource for Game {
    #[inline]
    fn fact_bits(&self) -> u64 {
        self.state.facts
    }

    #[inline]
    fn variant_bits(&self) -> u64 {
        self.state.variants
    }

    fn atom(&self, atom: Atom) -> i32 {
        let s = &self.state;
        match atom {
            Atom::Variant(v) => (s.variants >> v.index() & 1) as i32,
            Atom::Fact(f) => (s.facts >> f.index() & 1) as i32,
            Atom::Counter(c) => self.counter_of(c, s.active).unwrap_or(0) as i32,
            Atom::Players => s.players_in_game() as i32,
            Atom::Teams => s.sides_in_game() as i32,
            Atom::Turn => s.turn as i32,
            Atom::FirstTurn => s.first_turn as i32,
            Atom::StartingPlayer => (s.team(s.active) == s.team(s.starting)) as i32,
            Atom::Seat => {
                seat_distance(self.spec.game().turn_order, s.players, s.starting, s.active) as i32
                    + 1
            }
            Atom::PhaseNumber => s.kind_counts[kind_of(&self.spec, s.phase)] as i32,
            Atom::RepeatCount => s.repeat as i32,
            Atom::WindowOpened => s.window_opened as i32,
            Atom::StackEmpty => s.stack.is_empty() as i32,
            Atom::StackDepth => s.stack.len().min(u16::MAX as usize) as i32,
            Atom::TopIs(t) => {
                matches!(s.stack.last(), Some(o) if o.kind == ObjectKind::Play(t)) as i32
            }
            Atom::TopAttribute(a) => match s.stack.last().map(|o| o.kind) {
                Some(ObjectKind::Play(t)) => self
                    .spec
                    .timing()
                    .get(t)
                    .and_then(|tc| tc.attributes.iter().find(|(n, _)| *n == a))
                    .map_or(0, |(_, v)| *v as i32),
                _ => 0,
            },
            Atom::Elected(p) => self.elected(p) as i32,
            Atom::ExtraTurnNext => {
                s.mods.as_ref().is_some_and(|m| !m.extra_turns.is_empty()) as i32
            }
            Atom::ExtraTurn => s.extra_turn as i32,
            Atom::Role(role) => self.role_holder(role).0 as i32 + 1,
            // Only a play by an object reads these (`objects::PlayBy`).
            Atom::ObjectEnteredThisTurn | Atom::ObjectSinceTurnStart | Atom::ObjectFact(_) => 0,
        }
    }
}
