//! `turnspec diff A B`: what changed from one spec to another.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::{Format, load};

#[derive(Args)]
pub struct DiffArgs {
    /// The old spec (left, `-`).
    pub left: PathBuf,
    /// The new spec (right, `+`).
    pub right: PathBuf,
    /// Also list, one per line, the differences that only renumber a rule
    /// citation (text output; JSON always has them).
    #[arg(long)]
    pub citations: bool,
    /// Exit 1 when the specs differ in meaning, 0 when they do not (like
    /// `git diff --exit-code`). Citation-only differences count only with
    /// `--citations`.
    #[arg(long)]
    pub exit_code: bool,
    /// `text` for people, `json` for tools.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

pub fn diff(args: DiffArgs) -> Result<ExitCode, String> {
    let Some((left, _)) = load(&args.left)? else {
        return Ok(ExitCode::from(2));
    };
    let Some((right, _)) = load(&args.right)? else {
        return Ok(ExitCode::from(2));
    };
    let d = turnspec_compare::diff(&left, &right);
    let (l, r) = (
        args.left.display().to_string(),
        args.right.display().to_string(),
    );
    match args.format {
        Format::Text => crate::out::print(&d.to_text(&l, &r, args.citations)),
        Format::Json => crate::out::println(
            &serde_json::to_string_pretty(&d.to_json(&l, &r)).unwrap_or_default(),
        ),
    }
    let differs = if args.citations {
        !d.is_empty()
    } else {
        d.semantic().next().is_some()
    };
    Ok(if args.exit_code && differs {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}
