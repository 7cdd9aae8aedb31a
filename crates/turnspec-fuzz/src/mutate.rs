//! Seeded mutations of the project's own TOML files: the inputs most likely
//! to reach deep into the loaders are near-misses of valid files.

use std::path::Path;
use std::sync::Arc;

use turnspec_engine::policy::SplitMix64;
use turnspec_spec::Spec;

/// Fragments a designer might write, right or wrong.
const TOKENS: &[&str] = &[
    "[[phase]]\nid = \"p\"\n",
    "[[phase.step]]\nid = \"s\"\n",
    "priority = \"always\"\n",
    "priority = \"if_pending\"\n",
    "repeat = { if = \"true\" }\n",
    "repeat = { if = \"repeat_count < 300\" }\n",
    "skip = [{ if = \"not (first_turn\" }]\n",
    "only_if = \"players == 2 and (seat > 1 or not first_turn)\"\n",
    "on_demand = true\n",
    "counts_as = \"main\"\n",
    "[timing.t]\neffect = \"start_phase\"\nphase = \"combat\"\n",
    "[effects.e]\nkind = \"end_turn\"\ngoto = \"cleanup\"\n",
    "[effects.x]\nkind = \"extra_phases\"\nphases = [\"combat\", \"combat\"]\n",
    "[counters.c]\nper = \"player\"\n",
    "actions = [{ id = \"a\", answer = { counter = \"c\", max = 70000 } }]\n",
    "sequence = [{ window = \"always\" }, { id = \"b\" }]\n",
    "extends = \"mtg.toml\"\n",
    "[[script]]\npass = \"all\"\n",
    "[[script]]\nexpect = { step = \"upkeep\", holder = \"P9\" }\n",
    "[[script]]\nplay = \"instant\"\nby = \"P2\"\n",
    "[[script]]\neffect = \"extra_turn\"\nby = \"P1\"\n",
    "turn = 4294967296\n",
    "players = { min = 0, max = 300 }\n",
    "\"\"\"",
    "'''",
    "\\u0000",
    "\\",
    "\"",
    "'",
    "=",
    "{",
    "}",
    "[",
    "]",
    "\n",
    "#",
    ",",
    "-1",
    "99999999999999999999",
    "1e400",
    "nan",
    "true",
    "é",
    "\u{0}",
];

/// The files mutations start from, and the reference specs.
pub struct Corpus {
    specs_text: Vec<String>,
    spec_names: Vec<String>,
    scenarios: Vec<String>,
    /// The reference specs, loaded, by file name.
    pub specs: Vec<(String, Arc<Spec>)>,
}

impl Corpus {
    pub fn load(root: &Path) -> Corpus {
        let mut specs_text = Vec::new();
        let mut spec_names = Vec::new();
        let mut scenarios = Vec::new();
        let mut specs = Vec::new();
        for dir in ["games", "tests/specs"] {
            for path in toml_files(&root.join(dir)) {
                // Stop profiles (games/stops/, docs/stops.md) are not specs,
                // and some share a spec's file name, which `extends` looks up.
                if let Ok(text) = std::fs::read_to_string(&path)
                    && !text.lines().any(|l| l.trim() == "[profile]")
                {
                    specs_text.push(text);
                    spec_names.push(
                        path.file_name()
                            .unwrap_or_default()
                            .to_string_lossy()
                            .into_owned(),
                    );
                }
            }
        }
        for path in toml_files(&root.join("tests/scenarios")) {
            if let Ok(text) = std::fs::read_to_string(&path) {
                scenarios.push(text);
            }
        }
        for path in toml_files(&root.join("games")) {
            if let Ok((spec, _)) = turnspec_scenario::load_spec_file(&path) {
                let name = path
                    .file_name()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .into_owned();
                specs.push((name, Arc::new(spec)));
            }
        }
        assert!(
            !specs_text.is_empty() && !scenarios.is_empty() && !specs.is_empty(),
            "run from the repository: games/ and tests/ are the corpus"
        );
        Corpus {
            specs_text,
            spec_names,
            scenarios,
            specs,
        }
    }

    pub fn mutated_spec(&self, seed: u64) -> String {
        mutate(&self.specs_text, seed)
    }

    pub fn mutated_scenario(&self, seed: u64) -> String {
        mutate(&self.scenarios, seed)
    }

    /// Loads a spec; `extends` finds the reference specs by file name, and
    /// nothing is read from disk.
    pub fn load_spec(&self, text: &str) -> bool {
        let mut read = |path: &str, _from: &str| -> Result<(String, String), String> {
            let name = path.rsplit('/').next().unwrap_or(path);
            match self
                .specs_text
                .iter()
                .zip(&self.spec_names)
                .find(|(_, n)| *n == name)
            {
                Some((text, n)) => Ok((n.clone(), text.clone())),
                None => Err(format!("{path}: not in the fuzz corpus")),
            }
        };
        turnspec_spec::load_with("fuzz.toml", text, &mut read).is_ok()
    }

    /// Loads a scenario against the reference specs, by file name.
    pub fn load_scenario(&self, text: &str) -> bool {
        let mut spec = |path: &str| {
            let name = path.rsplit('/').next().unwrap_or(path);
            self.specs
                .iter()
                .find(|(n, _)| n == name)
                .map(|(n, s)| (s.clone(), n.clone()))
                .ok_or_else(|| format!("{path}: not a reference spec"))
        };
        turnspec_scenario::load("fuzz.toml", text, &mut spec).is_ok()
    }
}

fn toml_files(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        let mut entries: Vec<_> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|e| e == "toml") {
                out.push(p);
            }
        }
    }
    out
}

/// Mutations of one corpus file, chosen by `seed`.
fn mutate(corpus: &[String], seed: u64) -> String {
    let mut rng = SplitMix64(seed);
    let pick = |rng: &mut SplitMix64, n: usize| rng.below(n.max(1) as u64) as usize;
    let mut text = corpus[pick(&mut rng, corpus.len())].clone();
    // Half the inputs get one mutation (near-misses reach deepest), the
    // rest up to eight.
    let rounds = if rng.below(2) == 0 {
        1
    } else {
        1 + pick(&mut rng, 8)
    };
    for _ in 0..rounds {
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        if lines.is_empty() {
            lines.push(String::new());
        }
        let at = pick(&mut rng, lines.len());
        match pick(&mut rng, 8) {
            0 => {
                lines.remove(at);
            }
            1 => {
                let line = lines[at].clone();
                lines.insert(at, line);
            }
            2 => {
                let other = pick(&mut rng, lines.len());
                lines.swap(at, other);
            }
            3 => {
                let donor = &corpus[pick(&mut rng, corpus.len())];
                let donor: Vec<&str> = donor.lines().collect();
                if !donor.is_empty() {
                    lines[at] = donor[pick(&mut rng, donor.len())].to_string();
                }
            }
            4 | 5 => {
                let token = TOKENS[pick(&mut rng, TOKENS.len())];
                let line = &mut lines[at];
                let mut cut = pick(&mut rng, line.len() + 1);
                while !line.is_char_boundary(cut) {
                    cut -= 1;
                }
                line.insert_str(cut, token);
            }
            6 => {
                let line = &mut lines[at];
                if !line.is_empty() {
                    let mut cut = pick(&mut rng, line.len());
                    while !line.is_char_boundary(cut) {
                        cut -= 1;
                    }
                    let ch = (b' ' + pick(&mut rng, 95) as u8) as char;
                    line.replace_range(
                        cut..cut + line[cut..].chars().next().map_or(0, char::len_utf8),
                        &ch.to_string(),
                    );
                }
            }
            _ => {
                lines.truncate(at + 1);
            }
        }
        text = lines.join("\n");
        text.push('\n');
    }
    text
}
