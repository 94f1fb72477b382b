//! The top-level modules (folders and top files) of every crate in the
//! workspace's `crates/` form a layering: no chain of `crate::` paths leads
//! from a module back to itself. The test reads the sources, so a new
//! import that closes a loop in any crate fails here, with the loop spelt
//! out, before anyone has to untangle it. It lives in the core's tests
//! because the core is the crate every other one builds on; it reads its
//! sibling folders, each with its own `src/`.

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
/// import nothing) and without its unit tests (`#[cfg(test)]` on a `mod`,
/// perhaps after more attributes and comments), which may reach across
/// the layers as the integration tests do.
fn code_of(text: &str) -> String {
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    let tests = (0..lines.len())
        .find(|&at| {
            lines[at] == "#[cfg(test)]"
                && lines[at + 1..]
                    .iter()
                    .find(|line| !line.starts_with("#[") && !line.starts_with("//"))
                    .is_some_and(|line| without_visibility(line).starts_with("mod "))
        })
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

/// `line` without a leading `pub`, `pub(crate)` or `pub(super)`.
fn without_visibility(line: &str) -> &str {
    let line = line.trim();
    let Some(rest) = line.strip_prefix("pub") else {
        return line;
    };
    match rest.trim_start().strip_prefix('(') {
        Some(scoped) => scoped
            .split_once(')')
            .map_or(line, |(_, after)| after.trim_start()),
        None if rest.starts_with(char::is_whitespace) => rest.trim_start(),
        None => line,
    }
}

/// The crate root's modules, and for each name it brings in with `use` the
/// module it comes from (`pub use board::point::Side;` maps `Side` to
/// `board`; a private `use` at the root is seen by every module too).
fn root_names(root: &str) -> (BTreeSet<String>, BTreeMap<String, String>) {
    let code = code_of(root);
    let mut modules = BTreeSet::new();
    for line in code.lines() {
        if let Some(name) = without_visibility(line).strip_prefix("mod ") {
            modules.insert(name.trim_end_matches(';').trim().to_owned());
        }
    }
    let mut names = BTreeMap::new();
    for statement in code.split(';') {
        let statement = statement
            .lines()
            .filter(|line| !line.trim_start().starts_with("#["))
            .collect::<Vec<_>>()
            .join(" ");
        let Some(path) = without_visibility(&statement).strip_prefix("use ") else {
            continue;
        };
        let module = identifier_at(path.trim_start()).to_owned();
        if !modules.contains(&module) {
            continue;
        }
        // The last segment, or every name of a `{...}` group.
        let names_part = match path.find('{') {
            Some(open) => &path[open..],
            None => path.rsplit("::").next().unwrap_or(""),
        };
        for name in names_part.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
            if !name.is_empty() && name != "self" {
                names.insert(name.to_owned(), module.clone());
            }
        }
    }
    (modules, names)
}

/// The crate root of `src`: `lib.rs`, or `main.rs` for a binary.
fn root_file(src: &Path) -> PathBuf {
    let lib = src.join("lib.rs");
    if lib.exists() {
        lib
    } else {
        src.join("main.rs")
    }
}

/// The top-level module a source file belongs to (`board/point.rs` is in
/// `board`, `rng.rs` is `rng`); `None` for the crate root.
fn module_of(src: &Path, file: &Path) -> Option<String> {
    if file == root_file(src) {
        return None;
    }
    let relative = file.strip_prefix(src).expect("file under src/");
    let first = relative.components().next()?.as_os_str().to_str()?;
    Some(first.trim_end_matches(".rs").to_owned())
}

/// Which top-level modules each one names through `crate::`, read from
/// the crate whose sources are in `src`.
fn module_graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let root = fs::read_to_string(root_file(src)).expect("the crate root");
    let (modules, names) = root_names(&root);
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
                    "{}: crate::{segment} is neither a module nor a name the root brings in",
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

/// The `src/` folder of every crate beside this one (the workspace's
/// `crates/`), by crate folder name.
fn crate_sources() -> BTreeMap<String, PathBuf> {
    let core = Path::new(env!("CARGO_MANIFEST_DIR"));
    let crates = core.parent().expect("the core's folder has a parent");
    let mut sources = BTreeMap::new();
    for entry in fs::read_dir(crates).expect("read crates/") {
        let dir = entry.expect("read crates/ entry").path();
        let src = dir.join("src");
        if src.join("lib.rs").exists() || src.join("main.rs").exists() {
            let name = dir.file_name().expect("a folder name").to_string_lossy();
            sources.insert(name.into_owned(), src);
        }
    }
    sources
}

#[test]
fn no_crate_has_an_import_loop_between_its_top_level_modules() {
    let sources = crate_sources();
    assert!(
        sources.contains_key("phutball") && sources.len() > 1,
        "the reader found the core and its sibling crates: {:?}",
        sources.keys().collect::<Vec<_>>()
    );
    let mut loops = Vec::new();
    for (name, src) in &sources {
        let graph = module_graph(src);
        if let Some(cycle) = find_loop(&graph) {
            loops.push(format!("{name}: {} (graph: {graph:?})", cycle.join(" -> ")));
        }
    }
    assert!(
        loops.is_empty(),
        "import loop between top-level modules in:\n{}",
        loops.join("\n")
    );
}

#[test]
fn every_crate_with_modules_shows_imports() {
    // A reader that saw no import in a crate of several modules would pass
    // the test above for nothing.
    for (name, src) in crate_sources() {
        let (modules, _) = root_names(&fs::read_to_string(root_file(&src)).expect("root"));
        if modules.len() > 1 {
            assert!(
                !module_graph(&src).is_empty(),
                "{name}: no crate:: import found between {modules:?}"
            );
        }
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
    let (modules, names) = root_names(
        "mod board;\npub mod fixtures;\n#[cfg(feature = \"x\")]\npub(crate) mod guard;\n\
         pub use board::point::{Point,\n Side};\nuse guard::Guard;\nuse std::io::Write;",
    );
    assert_eq!(
        modules,
        BTreeSet::from([
            "board".to_owned(),
            "fixtures".to_owned(),
            "guard".to_owned()
        ])
    );
    assert_eq!(names.get("Side").map(String::as_str), Some("board"));
    assert_eq!(names.get("Guard").map(String::as_str), Some("guard"));
    assert_eq!(names.get("Write"), None, "std is not a module of the crate");
}

#[test]
fn unit_tests_after_attributes_and_comments_are_left_out() {
    let code = code_of(
        "use crate::a::X;\n#[cfg(test)]\n// why\n#[allow(clippy::float_cmp)]\npub(crate) mod tests {\n    use crate::b::Y;\n}",
    );
    assert_eq!(crate_segments(&code), ["a"]);
    // A `#[cfg(test)]` item that is not a module is library code's business.
    let code = code_of("#[cfg(test)]\nuse crate::c::Z;\nuse crate::d::W;");
    assert_eq!(crate_segments(&code), ["c", "d"]);
}
