//! `turnspec run`: play turns with a policy and print the trace.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use turnspec_engine::policy::{AllPass, Policy, RandomPolicy, play_out};
use turnspec_engine::{Event, Game, GameOptions, Status};

use crate::{Format, PolicyName, default_spec, load};

#[allow(clippy::too_many_arguments)]
pub fn run(
    spec: Option<PathBuf>,
    players: u8,
    turns: u32,
    policy: PolicyName,
    seed: u64,
    format: Format,
    show_ends: bool,
) -> Result<ExitCode, String> {
    let path = spec.unwrap_or_else(default_spec);
    let Some((spec, _)) = load(&path)? else {
        return Ok(ExitCode::FAILURE);
    };
    let mut game = Game::new(&spec, &GameOptions::players(players)).map_err(|e| e.to_string())?;
    game.set_turn_limit(turns);
    let mut events: Vec<Event> = Vec::new();
    match policy {
        PolicyName::AllPass => play(&mut game, &mut AllPass, &mut events),
        PolicyName::Random => play(&mut game, &mut RandomPolicy::new(seed), &mut events),
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let text = match format {
        Format::Text => {
            let mut t = format!(
                "{} — {} ({}), {players} players\n",
                spec.game.name, spec.game.edition, spec.game.edition_date
            );
            t.push_str(&turnspec_trace::to_text(
                &spec,
                &(),
                &events,
                turnspec_trace::TextOptions { show_ends },
            ));
            t
        }
        Format::Json => turnspec_trace::to_json_lines(&spec, &(), &events),
    };
    // A closed pipe (`| head`) is not an error.
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
    Ok(match game.status() {
        Status::Stalled => {
            eprintln!("error: the game stalled: no priority window could open");
            ExitCode::FAILURE
        }
        _ => ExitCode::SUCCESS,
    })
}

fn play<P: Policy>(game: &mut Game<'_>, policy: &mut P, events: &mut Vec<Event>) {
    play_out(game, policy, events);
}
