//! No import circle between the engine's modules: each top-level module of
//! `src/` (a file, or a folder with its files) may name another only if
//! that one does not, directly or through others, name it back. Read from
//! the sources: `use crate::x` and `crate::x::` paths outside comments.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The top-level module each source file belongs to, and the modules it
/// names.
fn imports() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut files = vec![src.clone()];
    while let Some(path) = files.pop() {
        if path.is_dir() {
            for entry in std::fs::read_dir(&path).unwrap() {
                files.push(entry.unwrap().path());
            }
            continue;
        }
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let rel = path.strip_prefix(&src).unwrap();
        let module = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy()
            .trim_end_matches(".rs")
            .to_string();
        if module == "lib" {
            continue;
        }
        // Code only: doc links name modules without importing them.
        let text: String = std::fs::read_to_string(&path)
            .unwrap()
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n");
        let names = graph.entry(module.clone()).or_default();
        for (i, _) in text.match_indices("crate::") {
            let rest = &text[i + "crate::".len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            // `crate::{a, b}` lists several.
            if name.is_empty() && rest.starts_with('{') {
                let list = &rest[1..rest.find('}').unwrap_or(rest.len())];
                for item in list.split(',') {
                    let item: String = item
                        .trim()
                        .chars()
                        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                        .collect();
                    if !item.is_empty() && item != module {
                        names.insert(item);
                    }
                }
            } else if !name.is_empty()
                && name != module
                && name.chars().next().unwrap().is_lowercase()
            {
                names.insert(name);
            }
        }
    }
    graph
}

/// A circle through `start`, if there is one.
fn circle(graph: &BTreeMap<String, BTreeSet<String>>, start: &str) -> Option<Vec<String>> {
    let mut stack = vec![(start.to_string(), vec![start.to_string()])];
    let mut seen = BTreeSet::new();
    while let Some((at, path)) = stack.pop() {
        for next in graph.get(&at).into_iter().flatten() {
            if next == start {
                let mut path = path.clone();
                path.push(start.to_string());
                return Some(path);
            }
            if seen.insert(next.clone()) {
                let mut path = path.clone();
                path.push(next.clone());
                stack.push((next.clone(), path));
            }
        }
    }
    None
}

#[test]
fn no_import_circle_between_engine_modules() {
    let graph = imports();
    assert!(graph.contains_key("game") && graph.contains_key("program"));
    let circles: Vec<String> = graph
        .keys()
        .filter_map(|m| circle(&graph, m))
        .map(|c| c.join(" -> "))
        .collect();
    assert!(
        circles.is_empty(),
        "import circles:\n{}",
        circles.join("\n")
    );
}
