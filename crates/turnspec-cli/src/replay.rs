//! `turnspec replay FILE --spec OTHER`: a game recorded by `turnspec run
//! --record FILE`, played again under another spec; reports the first event
//! where the traces part and the first recorded action the other spec
//! refuses, with its rule (crates/turnspec-serve/src/record.rs).

use std::path::PathBuf;
use std::process::ExitCode;

use turnspec_serve::record::{FORMAT, Recording, describe_move, replay as replay_game};

use crate::{Format, SpecSource};

/// `turnspec replay`'s options.
#[derive(clap::Args)]
pub(crate) struct ReplayArgs {
    /// A recording written by `turnspec run --record FILE`.
    file: PathBuf,
    /// The spec to replay the game under (or `--spec OTHER`).
    other: Option<PathBuf>,
    /// The spec to replay the game under, as a flag.
    #[arg(long = "spec", conflicts_with = "other")]
    spec: Option<PathBuf>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Exit 1 when the other spec plays the game differently.
    #[arg(long)]
    exit_code: bool,
}

pub(crate) fn replay(args: ReplayArgs) -> Result<ExitCode, String> {
    let Some(other_path) = args.other.clone().or_else(|| args.spec.clone()) else {
        return Err("give the spec to replay under: turnspec replay FILE OTHER.toml".into());
    };
    let text = turnspec_scenario::read_text(&args.file)
        .map_err(|e| format!("cannot read {}: {}", args.file.display(), e.reason))?;
    let rec: Recording = serde_json::from_str(&text)
        .map_err(|e| format!("{} is not a turnspec recording: {e}", args.file.display()))?;
    if rec.format != FORMAT {
        return Err(format!(
            "{} is not a turnspec recording (format {:?})",
            args.file.display(),
            rec.format
        ));
    }
    let source = SpecSource::new(rec.spec.as_ref().map(PathBuf::from));
    let Some((original, _)) = source.load()? else {
        return Ok(ExitCode::FAILURE);
    };
    let Some((other, _)) = crate::load(&other_path)? else {
        return Ok(ExitCode::FAILURE);
    };
    let report = replay_game(&original, &other, &rec)?;
    let other_label = other_path.display().to_string();
    match args.format {
        Format::Json => {
            let mut v = report.to_json();
            v["recorded"] = source.label().into();
            v["other"] = other_label.into();
            crate::out::println(&serde_json::to_string_pretty(&v).unwrap_or_default());
        }
        Format::Text => {
            let mut s = format!(
                "replaying {} moves of {} ({} players, {}{}) under {}\n",
                report.moves,
                source.label(),
                rec.players,
                rec.policy,
                rec.seed.map(|s| format!(", seed {s}")).unwrap_or_default(),
                other_label
            );
            if let Some((i, m, r)) = &report.unfaithful {
                s.push_str(&format!(
                    "warning: the recorded spec itself refuses move {} ({}): {}; the recording does not match it\n",
                    i + 1,
                    describe_move(m),
                    r.message
                ));
            }
            if report.same() {
                s.push_str(&format!(
                    "same game: {} events, every one alike\n",
                    report.events.0
                ));
            }
            if let Some(d) = &report.divergence {
                let during = match d.by_move {
                    Some(i) => format!("move {} ({})", i + 1, describe_move(&rec.moves[i])),
                    None => "the start of the game".into(),
                };
                s.push_str(&format!(
                    "first difference at event {}, during {during}:\n",
                    d.index + 1
                ));
                let show = |e: &Option<(String, Option<String>)>| match e {
                    Some((line, Some(rule))) => format!("{line}  [{rule}]"),
                    Some((line, None)) => line.clone(),
                    None => "(no more events)".into(),
                };
                let width = source.label().len().max(other_label.len());
                s.push_str(&format!(
                    "  {:<width$}  {}\n",
                    source.label(),
                    show(&d.left)
                ));
                s.push_str(&format!("  {:<width$}  {}\n", other_label, show(&d.right)));
            }
            if let Some((i, m, r)) = &report.refused {
                s.push_str(&format!(
                    "first refused action: move {} ({}): {}{}\n",
                    i + 1,
                    describe_move(m),
                    r.message,
                    r.rule
                        .as_ref()
                        .map(|rule| format!(" [{rule}, {}]", r.reason))
                        .unwrap_or_else(|| format!(" [{}]", r.reason))
                ));
            }
            crate::out::print(&s);
        }
    }
    Ok(if args.exit_code && !report.same() {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}
