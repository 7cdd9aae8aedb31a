//! Answers worked out from the spec and the state and kept next to the
//! state, behind one wall: the turn program, the side tables passing reads,
//! the flags the fast paths rely on and where the program goes on when the
//! window it opened closes.
//!
//! Every field is private. Each cached answer has one place that refreshes
//! it ([`Cached::refresh`], or the one setter named for the event that
//! changes it), and [`Cached::assert_consistent`] checks each against its
//! slow definition; the game calls it after every action in debug builds,
//! so every test run checks the caches.

use std::sync::{Arc, Mutex};

use turnspec_model::{MAX_PLAYERS, Spec, TurnOrder};

use crate::features::Features;
use crate::program::{NO_RESUME, Program};
use crate::setup::GameOptions;
use crate::state::{GameState, PlayerId};

/// The cached answers of one game.
#[derive(Debug)]
pub(crate) struct Cached {
    /// The regular turn compiled for this set-up; clones share it.
    program: Arc<Program>,
    /// What `program` was compiled for.
    folds: Folds,
    /// The programs already compiled for this set-up, shared by every game
    /// cloned from it: a search that sets and clears facts would otherwise
    /// compile the same few programs again at each such move.
    built: Arc<Built>,
    /// A second handle on `program`, lent to the program's loop while it
    /// runs (taken, then put back): the loop reads its ops through its own
    /// handle while it changes the game, and lending an existing handle
    /// costs no atomic reference count, which a clone of the `Arc` on each
    /// way into the loop did (about 45 % of an all-pass turn's wall clock,
    /// for 1 % of its instructions).
    program_handle: Option<Arc<Program>>,
    /// [`GameOptions::turn_program`].
    use_program: bool,
    /// Where the program goes on when the window it opened closes, or
    /// [`NO_RESUME`]: kept out of [`GameState`], so the same game state
    /// hashes the same whichever tier reached it. Invariant: when set, it
    /// is the op after the window op of the open window.
    resume: u16,
    /// [`GameState::sides_in_game`], copied from the program next to the
    /// other tables the pass reads.
    sides_in: u8,
    /// `sides_in`, or 0 in a spec whose passes are shaped (a bag, or
    /// windows only the active player acts in), in a game with modifiers
    /// or with the fast paths off (`Features::plain_passes`): a pass that
    /// leaves fewer passes than this in a row moves priority on the plain
    /// way.
    plain_passes_below: u8,
    /// The active player may have left the game: set when the program is
    /// rebuilt with the active player out, cleared when the program begins
    /// a turn (whose active player is in). While it is false, the fast
    /// paths give the active player priority without asking.
    active_may_be_out: bool,
    /// Priority is given the general way even where the program opens
    /// the window: the spec has a bag (whoever resolves next holds it) or
    /// windows a role acts in (whose holder is first), or the game has
    /// modifiers (which may hand the decision to another player, 722).
    /// Modifiers are never dropped once made.
    general_priority: bool,
    /// The side after each seat, [`GameState::next_in_game`].
    next_side: [PlayerId; MAX_PLAYERS as usize],
    /// Which mechanisms the spec uses and which fast paths the game takes.
    features: Features,
    /// How many superinstructions ([`crate::program::StepEndInto`]) ran,
    /// so tests can tell that the fused paths fire (debug builds only).
    #[cfg(debug_assertions)]
    fused: u64,
}

/// The program for `state`: the one `built` holds for what it folds, or a
/// new one, compiled and kept there.
fn program_for(
    built: &Built,
    spec: &Spec,
    folds: Folds,
    state: &GameState,
    use_program: bool,
) -> Arc<Program> {
    match built.find(folds) {
        Some(program) => {
            debug_assert_eq!(
                *program,
                *Program::build(spec, state, use_program),
                "a kept program differs from the one compiled now"
            );
            program
        }
        None => {
            let program = Program::build(spec, state, use_program);
            built.keep(folds, &program);
            program
        }
    }
}

impl Cached {
    /// Works everything out for a game just set up (the program once).
    pub(crate) fn new(spec: &Spec, state: &GameState, options: &GameOptions) -> Cached {
        Cached::sharing(spec, state, options, Arc::new(Built::default()))
    }

    /// [`Cached::new`], taking the program from `built` (the programs
    /// another game of this spec compiled) when it holds one for the state.
    fn sharing(spec: &Spec, state: &GameState, options: &GameOptions, built: Arc<Built>) -> Cached {
        let mut features = match options.turn_program {
            true => Features::of(spec),
            false => Features::of(spec).without_fast_paths(),
        };
        if state.has_teams {
            // A team's members share priority: no play is plain.
            features.plain_timings = 0;
        }
        let folds = Folds::of(spec, state);
        let program = program_for(&built, spec, folds, state, options.turn_program);
        let mut cached = Cached {
            program,
            folds,
            built,
            program_handle: None,
            use_program: options.turn_program,
            resume: NO_RESUME,
            sides_in: 0,
            plain_passes_below: 0,
            active_may_be_out: true,
            general_priority: true,
            next_side: [PlayerId(0); MAX_PLAYERS as usize],
            features,
            #[cfg(debug_assertions)]
            fused: 0,
        };
        cached.derive(state);
        cached
    }

    /// Compiles the turn program again for what it folds (the facts it
    /// read, the players and sides still in the game, the turn order), and
    /// everything worked out from it.
    /// A program compiled before for the same inputs (by this game or one
    /// it was cloned from, or cloned with) is taken as it is.
    pub(crate) fn refresh(&mut self, spec: &Spec, state: &GameState) {
        self.folds = Folds::of(spec, state);
        self.program = program_for(&self.built, spec, self.folds, state, self.use_program);
        self.derive(state);
    }

    /// The cached answers for `state` loaded in place of this game's
    /// ([`crate::Game::restore`]), a state of the same set-up that compiles
    /// the same way (the same `turn_program` and teams, so the same
    /// features): what [`Cached::for_loaded`] gives, keeping the program
    /// when the new state folds the same, with no lock taken and no
    /// reference count touched.
    pub(crate) fn reload(&mut self, spec: &Spec, state: &GameState) {
        self.resume = NO_RESUME;
        #[cfg(debug_assertions)]
        {
            self.fused = 0;
        }
        if Folds::of(spec, state) != self.folds {
            self.refresh(spec, state);
            return;
        }
        debug_assert_eq!(
            *self.program,
            *Program::build(spec, state, self.use_program),
            "a program kept on loading differs from the one compiled now"
        );
        self.derive(state);
    }

    /// The cached answers for a game loaded from bytes (`state`) where
    /// this game's are: the programs compiled so far are shared when both
    /// games compile the same way, so loading many states of one search
    /// compiles each program once.
    pub(crate) fn for_loaded(
        &self,
        spec: &Spec,
        state: &GameState,
        options: &GameOptions,
    ) -> Cached {
        let built = match options.turn_program == self.use_program {
            true => Arc::clone(&self.built),
            false => Arc::new(Built::default()),
        };
        Cached::sharing(spec, state, options, built)
    }

    /// Everything worked out from the program and the state.
    fn derive(&mut self, state: &GameState) {
        if !self
            .program_handle
            .as_ref()
            .is_some_and(|h| Arc::ptr_eq(h, &self.program))
        {
            self.program_handle = Some(Arc::clone(&self.program));
        }
        self.sides_in = self.program.sides_in;
        self.active_may_be_out = !state.is_in(state.active);
        self.plain_passes_below = match self.features.plain_passes && state.mods.is_none() {
            true => self.sides_in,
            false => 0,
        };
        self.next_side = self.program.next_side;
        self.general_priority =
            self.features.bag || self.features.role_windows || state.mods.is_some();
    }

    /// Whether the game runs the turn program
    /// ([`GameOptions::turn_program`]), for snapshots.
    pub(crate) fn uses_program(&self) -> bool {
        self.use_program
    }

    /// The turn program.
    #[inline(always)]
    pub(crate) fn program(&self) -> &Program {
        &self.program
    }

    /// The mechanisms the spec uses and the fast paths this game takes.
    #[inline(always)]
    pub(crate) fn features(&self) -> &Features {
        &self.features
    }

    /// Sides still in the game (players, or teams with shared turns).
    #[inline(always)]
    pub(crate) fn sides_in(&self) -> u8 {
        self.sides_in
    }

    /// A pass that leaves fewer passes than this in a row moves priority
    /// on the plain way (0: never).
    #[inline(always)]
    pub(crate) fn plain_passes_below(&self) -> u8 {
        self.plain_passes_below
    }

    /// The side after `player` in turn order.
    #[inline(always)]
    pub(crate) fn next_side(&self, player: PlayerId) -> PlayerId {
        self.next_side[player.index() & 7]
    }

    /// Whether the active player may have left this turn (then the fast
    /// paths ask who receives priority first).
    #[inline(always)]
    pub(crate) fn active_may_be_out(&self) -> bool {
        self.active_may_be_out
    }

    /// The active player is about to change: they may be one who left.
    #[inline(always)]
    pub(crate) fn active_changed(&mut self) {
        self.active_may_be_out = true;
    }

    /// The program begins a turn, whose active player is in the game.
    #[inline(always)]
    pub(crate) fn active_is_in(&mut self, state: &GameState) {
        debug_assert!(state.is_in(state.active));
        self.active_may_be_out = false;
    }

    /// Modifiers have just come to be: passes take the way that looks at
    /// them from now on (modifiers are never dropped).
    #[inline]
    pub(crate) fn modifiers_made(&mut self) {
        self.plain_passes_below = 0;
        self.general_priority = true;
    }

    /// Whether priority is given the general way as the program opens a
    /// window (a bag, or modifiers).
    #[inline(always)]
    pub(crate) fn general_priority(&self) -> bool {
        self.general_priority
    }

    /// The program opened the window whose op is just before `pc`.
    #[inline(always)]
    pub(crate) fn set_resume(&mut self, pc: usize) {
        self.resume = pc as u16;
    }

    /// Whether the open window is the program's, to go on at its next op.
    #[inline(always)]
    pub(crate) fn resume_pending(&self) -> bool {
        self.resume != NO_RESUME
    }

    /// Where the program goes on, forgotten once taken.
    #[inline(always)]
    pub(crate) fn take_resume(&mut self) -> usize {
        std::mem::replace(&mut self.resume, NO_RESUME) as usize
    }

    /// Something other than a pass or a play may have moved the turn: the
    /// program finds its place again from the state.
    #[inline(always)]
    pub(crate) fn forget_resume(&mut self) {
        self.resume = NO_RESUME;
    }

    /// Lends the program to its loop: the loop reads its ops through the
    /// handle while it changes the game.
    #[inline(always)]
    pub(crate) fn lend_program(&mut self) -> Arc<Program> {
        match self.program_handle.take() {
            Some(handle) => handle,
            None => Arc::clone(&self.program),
        }
    }

    /// The lent handle back, unless the program was rebuilt meanwhile
    /// (then the new program's handle is there already).
    #[inline(always)]
    pub(crate) fn return_program(&mut self, handle: Arc<Program>) {
        if self.program_handle.is_none() {
            self.program_handle = Some(handle);
        }
    }

    /// One more superinstruction ran.
    #[cfg(debug_assertions)]
    pub(crate) fn count_fused(&mut self) {
        self.fused += 1;
    }

    /// How many superinstructions ran (debug builds; 0 in release).
    pub(crate) fn fused(&self) -> u64 {
        #[cfg(debug_assertions)]
        return self.fused;
        #[cfg(not(debug_assertions))]
        0
    }

    /// Checks every cached answer against its slow definition. Debug
    /// builds call it after every action; release builds never do.
    #[cfg_attr(not(debug_assertions), allow(dead_code))]
    pub(crate) fn assert_consistent(&self, spec: &Spec, state: &GameState) {
        let p = &self.program;
        assert_eq!(self.sides_in, state.sides_in_game(), "cached sides in game");
        assert_eq!(self.sides_in, p.sides_in, "sides in the program");
        let order = spec.game().turn_order;
        for i in 0..state.players {
            let seat = PlayerId(i);
            if state.is_in(seat) {
                assert_eq!(
                    self.next_side(seat),
                    state.next_in_game(order, seat),
                    "cached next side after {seat}"
                );
            }
        }
        assert_eq!(self.next_side, p.next_side, "next sides in the program");
        let plain = match self.features.plain_passes && state.mods.is_none() {
            true => self.sides_in,
            false => 0,
        };
        assert_eq!(self.plain_passes_below, plain, "cached plain passes");
        assert_eq!(
            self.general_priority,
            self.features.bag || self.features.role_windows || state.mods.is_some(),
            "cached general priority"
        );
        assert!(
            self.active_may_be_out || state.is_in(state.active),
            "the active player is out, and the fast paths would not ask"
        );
        assert_eq!(
            p.facts_at_build & p.facts_read,
            state.facts & p.facts_read,
            "the program folded facts the state no longer has"
        );
        let mut expected = Features::of(spec);
        if !self.use_program {
            expected = expected.without_fast_paths();
        }
        if state.has_teams {
            expected.plain_timings = 0;
        }
        assert_eq!(self.features, expected, "cached features");
        // A game that stopped (everyone left) may keep the resume point of
        // the window it stopped in: nothing runs it any more.
        if self.resume != NO_RESUME && state.status == crate::state::Status::Running {
            assert!(state.holder.is_some(), "a resume point with no window open");
            assert_eq!(
                p.entry(spec, state),
                Some(self.resume as usize - 1),
                "the resume point is not after the open window's op"
            );
        }
    }
}

impl Clone for Cached {
    fn clone(&self) -> Cached {
        Cached {
            program: Arc::clone(&self.program),
            built: Arc::clone(&self.built),
            program_handle: self.program_handle.clone(),
            ..*self
        }
    }

    /// Clones `source` into this game's answers: when both share the
    /// programs (games of one search), only the plain answers are copied
    /// and no reference count is touched, which two threads cloning games
    /// of one search would otherwise contend on.
    fn clone_from(&mut self, source: &Cached) {
        let shared = Arc::ptr_eq(&self.program, &source.program)
            && Arc::ptr_eq(&self.built, &source.built)
            && match (&self.program_handle, &source.program_handle) {
                (Some(a), Some(b)) => Arc::ptr_eq(a, b),
                (None, None) => true,
                _ => false,
            };
        if !shared {
            *self = source.clone();
            return;
        }
        // Destructured, so that a field added must be copied here too.
        let Cached {
            program: _,
            folds,
            built: _,
            program_handle: _,
            use_program,
            resume,
            sides_in,
            plain_passes_below,
            active_may_be_out,
            general_priority,
            next_side,
            features,
            #[cfg(debug_assertions)]
            fused,
        } = *source;
        self.folds = folds;
        self.use_program = use_program;
        self.resume = resume;
        self.sides_in = sides_in;
        self.plain_passes_below = plain_passes_below;
        self.active_may_be_out = active_may_be_out;
        self.general_priority = general_priority;
        self.next_side = next_side;
        self.features = features;
        #[cfg(debug_assertions)]
        {
            self.fused = fused;
        }
    }
}

/// Everything of the state a program folds: the facts set, the players in
/// the game, the turn order, and the set-up (seats, teams, variants). The
/// set-up is the same for games cloned from one another, but not for a
/// game loaded from another game's bytes ([`Cached::for_loaded`]), so it
/// is part of the key. Whether the program runs is not: a [`Built`] is
/// only shared between games that agree on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Folds {
    facts: u64,
    variants: u64,
    in_game: u8,
    players: u8,
    team_of: [u8; MAX_PLAYERS as usize],
    order: TurnOrder,
}

impl Folds {
    fn of(spec: &Spec, state: &GameState) -> Folds {
        Folds {
            facts: state.facts,
            variants: state.variants,
            in_game: state.in_game,
            players: state.players,
            team_of: state.team_of,
            order: state.turn_order(spec.game().turn_order),
        }
    }
}

/// The programs compiled for one set-up, by what they fold; at most
/// [`Built::MOST`] of them (more are compiled each time, not kept).
#[derive(Debug, Default)]
struct Built {
    programs: Mutex<Vec<(Folds, Arc<Program>)>>,
}

impl Built {
    const MOST: usize = 64;

    fn find(&self, folds: Folds) -> Option<Arc<Program>> {
        // A poisoned lock still holds whole entries: each is pushed at once.
        let programs = self.programs.lock().unwrap_or_else(|e| e.into_inner());
        programs
            .iter()
            .find(|(f, _)| *f == folds)
            .map(|(_, p)| Arc::clone(p))
    }

    fn keep(&self, folds: Folds, program: &Arc<Program>) {
        let mut programs = self.programs.lock().unwrap_or_else(|e| e.into_inner());
        if programs.len() < Self::MOST && programs.iter().all(|(f, _)| *f != folds) {
            programs.push((folds, Arc::clone(program)));
        }
    }
}
