//! `turnspec`: a thin command line over the spec, engine and trace crates.
//! Reading files and printing happen here and nowhere else: files are read
//! by `turnspec_scenario::read_text`, output is written by `out`.

mod check;
mod compare;
mod diff;
mod explore;
mod graph;
mod out;
mod play;
mod replay;
mod run;
mod schema;
mod serve;
mod simulate;
mod stops;
mod test;

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand, ValueEnum};
use turnspec_spec::{Report, Spec};

#[derive(Parser)]
#[command(
    name = "turnspec",
    version,
    about = "Declarative turn structures for card games: check specs, run turns, see the trace"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Print only results and problems: no progress bar (simulate), no
    /// passing scenarios (test), no spec summaries (check), no title line
    /// (run).
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    quiet: bool,
    /// Print more: the file and line that set each element (check, as
    /// --explain), the ends of steps, phases and turns (run, as
    /// --show-ends), the rules each passing scenario covers (test).
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    verbose: u8,
}

#[derive(Subcommand)]
enum Command {
    /// Validate turn specs and print a short summary of each.
    Check {
        /// Spec files (TOML), or folders: every .toml file under them that is
        /// not a scenario.
        #[arg(required = true)]
        specs: Vec<PathBuf>,
        /// `text` for people (with source excerpts), `json` for tools.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// List every phase, step, action, timing class and setting with the
        /// file and line that set it (useful with `extends`).
        #[arg(long)]
        explain: bool,
    },
    /// Draw the turn as a diagram: phases, steps, windows, skips, repeats.
    Graph {
        /// Spec file.
        spec: PathBuf,
        #[arg(long, value_enum, default_value_t = graph::GraphFormat::Mermaid)]
        format: graph::GraphFormat,
    },
    /// Play turns of a game and print the trace.
    Run(run::RunArgs),
    /// Run scenario files, or every scenario under folders; exit 1 if any fails.
    Test {
        /// Scenario files or folders.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Play many independent games in parallel and print counts, speed and a digest.
    Simulate(simulate::SimulateArgs),
    /// Structural diff of two specs: phases, steps, turn-based actions, windows,
    /// timing classes and settings, each difference with its rule citations.
    Diff(diff::DiffArgs),
    /// Run scenarios under several specs (a pass/FAIL/n/a matrix), or, without
    /// scenario paths, tabulate simulated turns per spec.
    Compare(compare::CompareArgs),
    /// Try every sequence of moves within a bound: what is never reached,
    /// where the game gets stuck or loops; with --against, the shortest
    /// games where two specs differ. Findings can be written as scenarios.
    Explore(Box<explore::ExploreArgs>),
    /// Stop profiles (docs/stops.md): `stops check PROFILE SPEC` finds the
    /// windows a profile passes through where the player could act.
    #[command(subcommand)]
    Stops(stops::StopsCommand),
    /// Print a shell completion script, e.g. `turnspec completions bash >
    /// ~/.local/share/bash-completion/completions/turnspec`.
    Completions {
        /// The shell to complete in.
        shell: clap_complete::Shell,
    },
    /// Print turnspec's man page (roff), e.g. `turnspec man > turnspec.1`.
    Man,
    /// The designer's workbench: a local web page to step through turns,
    /// go back, compare two specs and save scenarios.
    Serve(serve::ServeArgs),
    /// Replay a game recorded with `run --record FILE` under another spec:
    /// the first event where the traces part, the first action refused.
    Replay(replay::ReplayArgs),
    /// Play a game driven by another program: requests and responses as
    /// JSON lines on stdin and stdout (`--protocol jsonl`, docs/protocol.md).
    Play(play::PlayArgs),
    /// Print the JSON Schema of the spec, scenario or protocol format, for editors
    /// (Taplo / Even Better TOML: see docs/cli.md).
    Schema {
        /// The format.
        #[arg(value_enum)]
        kind: schema::SchemaKind,
    },
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Format {
    Text,
    Json,
}

/// The automatic players, the same for every verb that plays games
/// (`run`, `simulate`, `compare`); docs/performance.md describes them.
#[derive(Clone, Copy, PartialEq, Eq, Debug, ValueEnum)]
pub(crate) enum PolicyName {
    /// Nobody acts; every turn-based question is answered 0 (no attackers).
    AllPass,
    /// In every window that opens, the active player plays one instant-speed
    /// play (the spec's first `who = "any"` stack timing class) and everyone
    /// passes round; "how many" questions are answered 1.
    Busy,
    /// Random legal actions and hook answers, from --seed.
    Random,
}

impl PolicyName {
    pub(crate) fn lib(self) -> turnspec_compare::simulation::SimPolicy {
        use turnspec_compare::simulation::SimPolicy;
        match self {
            PolicyName::AllPass => SimPolicy::AllPass,
            PolicyName::Busy => SimPolicy::Busy,
            PolicyName::Random => SimPolicy::Random,
        }
    }

    pub(crate) fn name(self) -> &'static str {
        self.lib().name()
    }

    /// `--seed` only means something to the random policy: refuse it with
    /// the others rather than ignore it.
    pub(crate) fn check_seed(self, seed: Option<u64>) -> Result<(), String> {
        if self != PolicyName::Random && seed.is_some() {
            return Err(format!(
                "--seed has no effect with --policy {} (nobody acts at random); add --policy random",
                self.name()
            ));
        }
        Ok(())
    }

    /// The busy policy needs a timing class to play at.
    pub(crate) fn check_spec(self, spec: &turnspec_spec::Spec, label: &str) -> Result<(), String> {
        if self == PolicyName::Busy
            && turnspec_engine::policy::BusyPolicy::new(spec)
                .timing()
                .is_none()
        {
            return Err(format!(
                "{label}: the busy policy needs a timing class with who = \"any\" that uses the stack, or one the active player may use that starts, ends and elects no phase"
            ));
        }
        Ok(())
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // Help, version or a usage error; clap itself would ignore a
            // failed write.
            let stream = if e.use_stderr() {
                out::Stream::Stderr
            } else {
                out::Stream::Stdout
            };
            let printed = e.print().and_then(|_| match stream {
                out::Stream::Stdout => std::io::stdout().flush(),
                out::Stream::Stderr => std::io::stderr().flush(),
            });
            if let Err(err) = printed {
                out::failed(stream, &err);
            }
            let code = ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
            return out::exit_code(code, false);
        }
    };
    out::set_level(cli.quiet, cli.verbose);
    // Commands whose output is a stream a reader may stop reading early.
    let streaming = matches!(cli.command, Command::Run(_) | Command::Test { .. });
    let result = match cli.command {
        Command::Check {
            specs,
            format,
            explain,
        } => check::check(&specs, format, explain || out::verbose() > 0),
        Command::Simulate(args) => simulate::simulate(args),
        Command::Diff(args) => diff::diff(args),
        Command::Compare(args) => compare::compare(args),
        Command::Explore(args) => explore::explore_cmd(*args),
        Command::Stops(command) => stops::stops(command),
        Command::Test { paths, format } => test::test(&paths, format),
        Command::Graph { spec, format } => graph::graph(&spec, format),
        Command::Run(args) => run::run(args),
        Command::Completions { shell } => completions(shell),
        Command::Man => man(),
        Command::Serve(args) => serve::serve(args),
        Command::Schema { kind } => schema::schema(kind),
        Command::Play(args) => play::play(args),
        Command::Replay(args) => replay::replay(args),
    };
    let code = match result {
        Ok(code) => code,
        Err(message) => {
            out::eprintln(&format!("error: {message}"));
            ExitCode::from(2)
        }
    };
    out::exit_code(code, streaming)
}

/// `turnspec completions SHELL`: generated from the clap definitions, so
/// the script always knows every command and option.
fn completions(shell: clap_complete::Shell) -> Result<ExitCode, String> {
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "turnspec", &mut script);
    out::print(&String::from_utf8_lossy(&script));
    Ok(ExitCode::SUCCESS)
}

/// `turnspec man`: the man page, generated from the clap definitions.
fn man() -> Result<ExitCode, String> {
    let mut page = Vec::new();
    clap_mangen::Man::new(Cli::command())
        .render(&mut page)
        .map_err(|e| format!("cannot render the man page: {e}"))?;
    out::print(&String::from_utf8_lossy(&page));
    Ok(ExitCode::SUCCESS)
}

/// The default spec's path, relative to the current directory.
pub(crate) const DEFAULT_SPEC: &str = "games/mtg.toml";

/// The reference Magic spec as built into the binary: what `run` and
/// `simulate` use without a spec argument when [`DEFAULT_SPEC`] is not in
/// the current directory, so an installed binary works from anywhere.
/// `games/mtg.toml` stays the source; it `extends` nothing.
pub(crate) const EMBEDDED_MTG: &str = include_str!("../../../games/mtg.toml");

/// Where the spec of `run` or `simulate` comes from.
pub(crate) enum SpecSource {
    /// A file: the argument, or [`DEFAULT_SPEC`] in the current directory.
    File(PathBuf),
    /// No argument and no [`DEFAULT_SPEC`] here: the copy built into the binary.
    Embedded,
}

impl SpecSource {
    /// The spec argument if given, else `games/mtg.toml` in the current
    /// directory, else the embedded copy.
    pub(crate) fn new(spec: Option<PathBuf>) -> Self {
        match spec {
            Some(path) => SpecSource::File(path),
            None if Path::new(DEFAULT_SPEC).exists() => SpecSource::File(DEFAULT_SPEC.into()),
            None => SpecSource::Embedded,
        }
    }

    /// How messages name the spec.
    pub(crate) fn label(&self) -> String {
        match self {
            SpecSource::File(path) => path.display().to_string(),
            SpecSource::Embedded => format!("{DEFAULT_SPEC} (built into turnspec)"),
        }
    }

    /// Loads the spec, printing its diagnostics; `None` if it has errors.
    pub(crate) fn load(&self) -> Result<Option<(Spec, Report)>, String> {
        match self {
            SpecSource::File(path) => load(path),
            SpecSource::Embedded => match turnspec_spec::load_str(&self.label(), EMBEDDED_MTG) {
                Ok(loaded) => Ok(Some(loaded)),
                Err(report) => {
                    out::eprint(&render_report(&report));
                    Ok(None)
                }
            },
        }
    }
}

pub(crate) fn render_report(report: &Report) -> String {
    if !std::io::stderr().is_terminal() {
        return report.to_short_text();
    }
    let handler = miette::GraphicalReportHandler::new();
    let mut out = String::new();
    for r in report.to_miette() {
        let _ = handler.render_report(&mut out, r.as_ref());
        out.push('\n');
    }
    out
}

/// Loads a spec, printing its diagnostics; `None` if it has errors.
pub(crate) fn load(path: &Path) -> Result<Option<(Spec, Report)>, String> {
    if !path.exists() {
        return Err(format!("cannot read {}: no such file", path.display()));
    }
    match turnspec_scenario::load_spec_file(path) {
        Ok((spec, report)) => Ok(Some((spec, report))),
        Err(report) => {
            out::eprint(&render_report(&report));
            out::eprintln(&format!("{}: {} error(s)", path.display(), report.errors()));
            Ok(None)
        }
    }
}
