//! `turnspec serve`: the designer's workbench (crates/turnspec-serve) on a
//! local port. This verb only finds and loads the specs.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use turnspec_scenario::find_specs;
use turnspec_serve::{SpecEntry, Workbench};

/// `turnspec serve`'s options.
#[derive(clap::Args)]
pub(crate) struct ServeArgs {
    /// Spec files or folders (every spec under them); default: games/ in
    /// the current directory, else the Magic spec built into turnspec.
    specs: Vec<PathBuf>,
    /// Port to listen on; 0 picks a free one (the address is printed).
    #[arg(long, default_value_t = 7878)]
    port: u16,
    /// Address to bind. Only loopback is private to this machine; bound to
    /// any other address, the workbench wants a token it makes for this
    /// run, given in the URL it prints.
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    bind: IpAddr,
}

pub(crate) fn serve(args: ServeArgs) -> Result<ExitCode, String> {
    let mut paths = args.specs;
    if paths.is_empty() && Path::new("games").is_dir() {
        paths.push("games".into());
    }
    let mut specs = Vec::new();
    if paths.is_empty() {
        let label = format!("{} (built into turnspec)", crate::DEFAULT_SPEC);
        let (spec, _) =
            turnspec_spec::load_str(&label, crate::EMBEDDED_MTG).map_err(|r| r.to_short_text())?;
        specs.push(SpecEntry::new(label, None, Arc::new(spec)).with_source(crate::EMBEDDED_MTG));
    } else {
        for p in &paths {
            if !p.exists() {
                return Err(format!("cannot read {}: no such file", p.display()));
            }
        }
        let found = find_specs(&paths);
        for e in &found.errors {
            crate::out::eprintln(&format!("error: {e}"));
        }
        if !found.errors.is_empty() {
            return Ok(ExitCode::FAILURE);
        }
        for file in &found.files {
            let Some((spec, _)) = crate::load(file)? else {
                return Ok(ExitCode::FAILURE);
            };
            // The text, for the studio's editor (`GET /api/specs/{i}/source`).
            let mut entry = SpecEntry::new(shown(file), Some(file.clone()), Arc::new(spec));
            if let Ok(text) = turnspec_scenario::read_text(file) {
                entry = entry.with_source(text);
            }
            specs.push(entry);
        }
        if specs.is_empty() {
            return Err("no spec files found".into());
        }
    }
    let save_root = std::env::current_dir().map_err(|e| format!("no current directory: {e}"))?;
    let count = specs.len();
    let workbench = Workbench::new(specs, save_root);
    let token = (!args.bind.is_loopback()).then(turnspec_serve::guard::new_token);
    if token.is_some() {
        crate::out::eprintln(&format!(
            "warning: {} is not loopback: anyone who can reach it and has the URL below can play and save scenarios in this folder",
            args.bind
        ));
    }
    let query = token
        .as_ref()
        .map_or(String::new(), |t| format!("?token={t}"));
    turnspec_serve::serve(
        workbench,
        SocketAddr::new(args.bind, args.port),
        token,
        |addr| {
            crate::out::println(&format!(
                "turnspec workbench: http://{addr}/{query} ({count} spec(s); Ctrl-C to stop)"
            ));
        },
    )
    .map_err(|e| format!("cannot serve on {}:{}: {e}", args.bind, args.port))?;
    Ok(ExitCode::SUCCESS)
}

/// How the page names a spec file: as given when relative, else relative
/// to the current folder when under it, else its folder's name and its
/// own (the page never shows where files are on the machine).
fn shown(file: &Path) -> String {
    if file.is_relative() {
        return file.display().to_string();
    }
    if let Ok(here) = std::env::current_dir()
        && let Ok(rest) = file.strip_prefix(&here)
    {
        return rest.display().to_string();
    }
    let mut tail: Vec<String> = file
        .components()
        .rev()
        .take(2)
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    tail.reverse();
    tail.join("/")
}
