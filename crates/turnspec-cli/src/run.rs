//! `turnspec run`: play turns with a policy and print the trace as it
//! happens (long random runs stream instead of piling up in memory).

use std::io::{BufWriter, Stdout, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use turnspec_engine::policy::{AllPass, BusyPolicy, Policy, RandomPolicy, play_out};
use turnspec_engine::{
    AutoPasser, Event, EventSink, Game, GameOptions, Status, play_out_with_stops,
};
use turnspec_serve::record::{Recorder, Recording, play_recorded};
use turnspec_spec::Spec;
use turnspec_trace::{TextOptions, TextTrace};

use crate::{Format, PolicyName, SpecSource};

/// Renders each event straight to standard output.
struct Printer<'s> {
    spec: &'s Spec,
    format: Format,
    text: TextTrace,
    line: String,
    out: BufWriter<Stdout>,
    /// The indentation of the last text line written, so that an `asked:`
    /// line sits under the priority it follows.
    indent: usize,
}

impl Printer<'_> {
    fn write(&mut self) {
        if let Some(last) = self.line.trim_end_matches('\n').rsplit('\n').next() {
            self.indent = last.len() - last.trim_start().len();
        }
        if let Err(e) = self.out.write_all(self.line.as_bytes()) {
            // No one to play the rest of the game for: a closed pipe
            // (`turnspec run | head`) ends it quietly, a full disk with 2.
            crate::out::failed(crate::out::Stream::Stdout, &e);
            crate::out::end_streaming();
        }
        self.line.clear();
    }
}

impl EventSink for Printer<'_> {
    fn event(&mut self, event: Event) {
        match self.format {
            Format::Text => self.text.push(self.spec, &(), &event, &mut self.line),
            Format::Json => {
                self.line
                    .push_str(&turnspec_trace::to_json(self.spec, &(), &event).to_string());
                self.line.push('\n');
            }
        }
        if !self.line.is_empty() {
            self.write();
        }
    }
}

/// `turnspec run`'s options.
#[derive(clap::Args)]
pub(crate) struct RunArgs {
    /// Spec file; defaults to games/mtg.toml in the current directory, else
    /// the copy built into turnspec.
    spec: Option<PathBuf>,
    #[arg(long, default_value_t = 2)]
    players: u8,
    #[arg(long, default_value_t = 2)]
    turns: u32,
    #[arg(long, value_enum, default_value_t = PolicyName::AllPass)]
    policy: PolicyName,
    /// Seed for the random policy (default 0); refused with all-pass,
    /// which has no randomness.
    #[arg(long)]
    seed: Option<u64>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Also print "end of ..." lines in text output.
    #[arg(long)]
    show_ends: bool,
    /// Write the run's actions and host answers to FILE (JSON), for
    /// `turnspec replay FILE --spec OTHER`.
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// Play with stop profiles (docs/stops.md): `P1=FILE` for one player,
    /// `FILE` for every player (repeatable). The auto-passer passes where
    /// a profile says so; the policy decides only where a player is asked,
    /// and the trace shows each time with an `asked:` line.
    #[arg(long, value_name = "[PN=]FILE")]
    stops: Vec<String>,
}

pub(crate) fn run(args: RunArgs) -> Result<ExitCode, String> {
    let RunArgs {
        spec,
        players,
        turns,
        policy,
        seed,
        format,
        show_ends,
        record,
        stops,
    } = args;
    policy.check_seed(seed)?;
    let seed = seed.unwrap_or(0);
    let source = SpecSource::new(spec);
    let Some((spec, _)) = source.load()? else {
        return Ok(ExitCode::FAILURE);
    };
    policy.check_spec(&spec, &source.label())?;
    let passer = crate::stops::passer_from_args(&stops, &spec, players)?;
    if passer.is_some() && record.is_some() {
        return Err("--record and --stops cannot be used together yet".to_string());
    }
    let mut game = Game::new(&spec, &GameOptions::players(players)).map_err(|e| e.to_string())?;
    game.set_turn_limit(turns);
    let mut printer = Printer {
        spec: &spec,
        format,
        text: TextTrace::new(TextOptions {
            show_ends: show_ends || crate::out::verbose() > 0,
        }),
        line: String::new(),
        out: BufWriter::with_capacity(1 << 16, std::io::stdout()),
        indent: 0,
    };
    if format == Format::Json {
        // The header record: what was run, so a stream of events can be
        // read (or replayed) without the command line that made it.
        let g = spec.game();
        let header = serde_json::json!({
            "event": "game",
            "spec": source.label(),
            "name": g.name,
            "edition": g.edition,
            "edition_date": g.edition_date,
            "players": players,
            "turns": turns,
            "policy": policy.name(),
            "seed": (policy == PolicyName::Random).then_some(seed),
        });
        printer.line = header.to_string() + "\n";
        printer.write();
    }
    if format == Format::Text && !crate::out::quiet() {
        printer.line = match source {
            SpecSource::Embedded => format!(
                "{}, {players} players (built-in {})\n",
                spec.title(),
                crate::DEFAULT_SPEC
            ),
            SpecSource::File(_) => format!("{}, {players} players\n", spec.title()),
        };
        printer.write();
    }
    let recording = match (passer, policy) {
        (Some(mut passer), policy) => {
            match policy {
                PolicyName::AllPass => play_stops(&mut game, AllPass, &mut passer, &mut printer),
                PolicyName::Busy => {
                    play_stops(&mut game, BusyPolicy::new(&spec), &mut passer, &mut printer)
                }
                PolicyName::Random => play_stops(
                    &mut game,
                    RandomPolicy::with_effects(seed),
                    &mut passer,
                    &mut printer,
                ),
            }
            None
        }
        (None, PolicyName::AllPass) => play(&mut game, AllPass, &mut printer, record.is_some()),
        (None, PolicyName::Busy) => play(
            &mut game,
            BusyPolicy::new(&spec),
            &mut printer,
            record.is_some(),
        ),
        (None, PolicyName::Random) => play(
            &mut game,
            RandomPolicy::with_effects(seed),
            &mut printer,
            record.is_some(),
        ),
    };
    if let (Some(file), Some(recorder)) = (&record, recording) {
        let spec_path = match &source {
            SpecSource::File(p) => Some(p.display().to_string()),
            SpecSource::Embedded => None,
        };
        let name = policy.name();
        let seed = (policy == PolicyName::Random).then_some(seed);
        let recording = Recording {
            spec: spec_path,
            players,
            turns,
            policy: name.into(),
            seed,
            ..recorder
        };
        let text = serde_json::to_string_pretty(&recording).map_err(|e| e.to_string())?;
        std::fs::write(file, text + "\n")
            .map_err(|e| format!("cannot write {}: {e}", file.display()))?;
    }
    if let Err(e) = printer.out.flush() {
        crate::out::failed(crate::out::Stream::Stdout, &e);
        crate::out::end_streaming();
    }
    Ok(match game.status() {
        Status::Stalled => {
            crate::out::eprintln("error: the game stalled: no priority window could open");
            ExitCode::FAILURE
        }
        Status::NeverEnds => {
            if let Some(endless) = game.endless_turn() {
                eprintln!("error: {}", endless.describe(&spec));
            }
            ExitCode::FAILURE
        }
        _ => ExitCode::SUCCESS,
    })
}

/// Plays the game out with the auto-passer: an `asked:` line (or a JSON
/// record `{"event": "asked", ...}`) each time a player is asked, and a
/// summary line at the end.
fn play_stops<P: Policy>(
    game: &mut Game,
    mut policy: P,
    passer: &mut AutoPasser,
    sink: &mut Printer<'_>,
) {
    let counts = play_out_with_stops(game, &mut policy, passer, sink, |game, stopped, sink| {
        let text = stopped.describe(game.spec());
        sink.line = match sink.format {
            Format::Text => format!("{:1$}asked: {text}\n", "", sink.indent),
            Format::Json => {
                serde_json::json!({ "event": "asked", "stopped": text }).to_string() + "\n"
            }
        };
        sink.write();
    });
    let asked: Vec<String> = (0..game.players())
        .map(|p| format!("P{} {}", p + 1, counts.asked[p as usize]))
        .collect();
    sink.line = match sink.format {
        Format::Text => format!(
            "stops: asked {}; {} passes made by the auto-passer\n",
            asked.join(", "),
            counts.auto_passes
        ),
        Format::Json => {
            let per: Vec<u64> = counts.asked[..game.players() as usize].to_vec();
            serde_json::json!({ "event": "stops", "asked": per, "auto_passes": counts.auto_passes })
                .to_string()
                + "\n"
        }
    };
    sink.write();
}

/// Plays the game out; with `record`, through a recorder, whose recording
/// it returns.
fn play<P: Policy>(
    game: &mut Game,
    mut policy: P,
    sink: &mut Printer<'_>,
    record: bool,
) -> Option<Recording> {
    if !record {
        play_out(game, &mut policy, sink);
        return None;
    }
    let spec = game.spec().clone();
    let mut recorder = Recorder::new(&spec, policy);
    play_recorded(game, &mut recorder, sink);
    Some(recorder.recording())
}
