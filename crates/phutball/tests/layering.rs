//! The core's top-level modules (its folders and top files) form a layering:
//! no chain of `crate::` paths leads from a module back to itself. The test
//! reads the source, so a new import that closes a loop fails here, with the
//! loop spelt out, before anyone has to untangle it.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("read src/") {
        let path = entry.expect("read src/ entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The library code of a file: without comments (doc links name items but
/// import nothing) and without its unit tests (`#[cfg(test)] mod`), which
/// may reach across the layers as the integration tests do.
fn code_of(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let tests = lines
        .windows(2)
        .position(|w| w[0].trim() == "#[cfg(test)]" && w[1].contains("mod "))
        .unwrap_or(lines.len());
    lines[..tests]
        .iter()
        .map(|line| match line.find("//") {
            Some(at) => &line[..at],
            None => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn identifier_at(text: &str) -> &str {
    let end = text
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    &text[..end]
}

/// The first path segment of every `crate::` path in `code`, groups such as
/// `use crate::{a::X, b::Y}` included.
fn crate_segments(code: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (at, _) in code.match_indices("crate::") {
        let rest = &code[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 1;
            let mut item_start = true;
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 1 => item_start = true,
                    c if item_start && depth == 1 && !c.is_whitespace() => {
                        found.push(identifier_at(&group[i..]).to_owned());
                        item_start = false;
                    }
                    _ => {}
                }
                if depth == 0 {
                    break;
                }
            }
        } else {
            found.push(identifier_at(rest).to_owned());
        }
    }
    found
}

/// The crate root's modules, and for each name it re-exports the module it
/// comes from (`pub use board::point::Side;` maps `Side` to `board`).
fn root_names(lib: &str) -> (BTreeSet<String>, BTreeMap<String, String>) {
    let code = code_of(lib);
    let mut modules = BTreeSet::new();
    for line in code.lines() {
        let line = line.trim().trim_start_matches("pub ");
        if let Some(name) = line.strip_prefix("mod ") {
            modules.insert(name.trim_end_matches(';').trim().to_owned());
        }
    }
    let mut names = BTreeMap::new();
    for statement in code.split(';') {
        let Some(at) = statement.find("pub use ") else {
            continue;
        };
        let path = &statement[at + "pub use ".len()..];
        let module = identifier_at(path).to_owned();
        let tail = path.rsplit("::").next().unwrap_or("");
        for name in tail.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
            if !name.is_empty() {
                names.insert(name.to_owned(), module.clone());
            }
        }
        // `pub use a::b::{X, Y}`: the names are inside the braces.
        if let Some(open) = path.find('{') {
            for name in path[open..].split(|c: char| !(c.is_alphanumeric() || c == '_')) {
                if !name.is_empty() {
                    names.insert(name.to_owned(), module.clone());
                }
            }
        }
    }
    (modules, names)
}

/// The top-level module a source file belongs to (`board/point.rs` is in
/// `board`, `rng.rs` is `rng`); `None` for the crate root.
fn module_of(src: &Path, file: &Path) -> Option<String> {
    let relative = file.strip_prefix(src).expect("file under src/");
    let first = relative.components().next()?.as_os_str().to_str()?;
    let name = first.trim_end_matches(".rs");
    (name != "lib").then(|| name.to_owned())
}

/// Which top-level modules each one names through `crate::`.
fn module_graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let (modules, names) = root_names(&fs::read_to_string(src.join("lib.rs")).expect("lib.rs"));
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in files {
        let Some(from) = module_of(src, &file) else {
            continue;
        };
        let code = code_of(&fs::read_to_string(&file).expect("read source"));
        for segment in crate_segments(&code) {
            let to = if modules.contains(&segment) {
                segment
            } else if let Some(module) = names.get(&segment) {
                module.clone()
            } else {
                panic!(
                    "{}: crate::{segment} is neither a module nor a root re-export",
                    file.display()
                );
            };
            if to != from {
                graph.entry(from.clone()).or_default().insert(to);
            }
        }
    }
    graph
}

/// A loop in `graph` as the modules along it, if there is one.
fn find_loop(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(start) = path.iter().position(|n| n == node) {
            let mut cycle = path[start..].to_vec();
            cycle.push(node.to_owned());
            return Some(cycle);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_owned());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(cycle) = visit(next, graph, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        done.insert(node.to_owned());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|node| visit(node, graph, &mut Vec::new(), &mut done))
}

#[test]
fn top_level_modules_have_no_import_loop() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let graph = module_graph(&src);
    assert!(graph.contains_key("board"), "the reader found no imports");
    if let Some(cycle) = find_loop(&graph) {
        panic!(
            "import loop between the core's top-level modules: {} (graph: {graph:?})",
            cycle.join(" -> ")
        );
    }
}

#[test]
fn the_loop_finder_finds_a_loop() {
    let graph: BTreeMap<String, BTreeSet<String>> = [("a", "b"), ("b", "c"), ("c", "a")]
        .into_iter()
        .map(|(from, to)| (from.to_owned(), BTreeSet::from([to.to_owned()])))
        .collect();
    assert_eq!(
        find_loop(&graph).map(|c| c.join(" -> ")),
        Some("a -> b -> c -> a".to_owned())
    );
}

#[test]
fn groups_and_root_names_are_read() {
    assert_eq!(
        crate_segments("use crate::{board::point::Point, rng::{SplitMix64}};\nx: crate::Side"),
        ["board", "rng", "Side"]
    );
    let (modules, names) =
        root_names("mod board;\npub mod fixtures;\npub use board::point::{Point,\n Side};");
    assert_eq!(
        modules,
        BTreeSet::from(["board".to_owned(), "fixtures".to_owned()])
    );
    assert_eq!(names.get("Side").map(String::as_str), Some("board"));
}
