//! Issue 10, family 10: a Rust host that misuses the library gets an error
//! or a documented, harmless outcome, never a panic. Ids can only come from
//! a spec, so "out of range" means an id of another spec.

use turnspec_engine::policy::{AllPass, play_out};
use turnspec_engine::{
    Game, GameOptions, HookContext, Host, NotInGame, PlayerId, Status, Triggers,
};
use turnspec_spec::{Spec, load_str};

fn spec(extra: &str) -> Spec {
    let text = format!(
        "[game]\nname = \"tiny\"\nplayers = {{ min = 2, max = 4 }}\n{extra}\n[[phase]]\nid = \"main\"\npriority = \"always\"\n"
    );
    match load_str("tiny.toml", &text) {
        Ok((spec, _)) => spec,
        Err(r) => panic!("{}", r.to_short_text()),
    }
}

#[test]
fn library_misuse_a_huge_stack_capacity_is_only_a_bounded_reservation() {
    let spec = spec("");
    let options = GameOptions::players(2).with_stack_capacity(usize::MAX);
    let mut game = Game::new(&spec, &options).expect("set-up is fine");
    game.set_turn_limit(2);
    play_out(&mut game, &mut AllPass, &mut ());
    assert_eq!(game.status(), Status::TurnLimit);
}

/// Reports one trigger for each of seats 1 to 9 at the start of every step.
struct Reporter(Vec<Result<(), NotInGame>>);

impl Host for Reporter {
    fn step_began(&mut self, _: &HookContext, triggers: &mut Triggers<'_>) {
        if self.0.is_empty() {
            for seat in 0..9 {
                self.0.push(triggers.add(PlayerId(seat), seat as u32));
            }
        }
    }
}

#[test]
fn library_misuse_triggers_for_players_not_in_the_game_are_refused() {
    let spec = spec("");
    let mut game = Game::new(&spec, &GameOptions::players(3)).expect("set-up");
    let mut host = Reporter(Vec::new());
    let mut events = Vec::new();
    game.start(&mut host, &mut events);
    assert_eq!(&host.0[..3], &[Ok(()), Ok(()), Ok(())]);
    for (seat, result) in host.0.iter().enumerate().skip(3) {
        assert_eq!(*result, Err(NotInGame(PlayerId(seat as u8))));
    }
    let put = events
        .iter()
        .filter(|e| matches!(e, turnspec_engine::Event::TriggerPut { .. }))
        .count();
    assert_eq!(put, 3);
}

#[test]
fn library_misuse_a_counter_of_another_spec_has_no_value() {
    let with = spec("[counters.lands]\n[counters.other]\n");
    let without = spec("");
    let counter = with.counter_by_id("other").expect("declared");
    let game = Game::new(&without, &GameOptions::players(2)).expect("set-up");
    assert_eq!(game.counter_of(counter, PlayerId(0)), None);
    assert_eq!(game.counter(counter), 0);
}
