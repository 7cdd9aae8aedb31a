use turnspec_engine::*;
fn main() {
    let src = std::fs::read_to_string("games/mtg.toml").unwrap();
    let (spec, _) = turnspec_spec::load_str("x", &src).unwrap();
    for s in &spec.steps {
        println!("{} mask {:b}", s.id, s.timing_mask);
    }
    let mut g = Game::new(&spec, &GameOptions::players(2)).unwrap();
    g.start(&mut NoHost, &mut ());
    let h = g.holder().unwrap();
    println!("{:?}", g.legal_actions(h).collect::<Vec<_>>());
    for t in 0..3 {
        println!("{:?}", g.check_play(h, turnspec_spec::TimingId(t)));
    }
}
