//! The module graphs of every crate of the workspace have no cycles, and the rules of each game whose engine
//! is one module (`src/engine/`, behind the `engine` feature) import nothing of that engine.
//!
//! Each crate's sources are read as text: a module (a file) depends on another when it names a path into it
//! (`crate::position::Position`, `super::INPUTS`, `use crate::{board::Board, types::Color}`, a child's
//! `kings::View`), a re-export (`crate::Bitboard`) counting as the module it re-exports. A `mod` line only
//! declares a child, and a `pub use` of a module's own descendants only shows them (a module's face, as the
//! crate root's re-exports are) unless the module itself uses what it re-exports; inline modules (`mod tests`) belong to their file. A binary's own roots
//! (`src/bin/`) are crates of their own and left out. Then:
//!
//! - no module depends on itself through others (the graph is acyclic, as shakmaty's leaf modules import
//!   nothing of the crate);
//! - no module outside `engine` but the crate root (which declares it) depends on one inside it, not even in
//!   its tests: the rules, notation and keys compile without the `engine` feature.
//!
//! Run with `cargo test -p tabula-compare --test modules`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The crates checked: every crate of the workspace (each folder of `crates/` with a `src/`).
fn crates() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut found: Vec<String> = std::fs::read_dir(&root)
        .expect("the crates folder")
        .map(|entry| entry.expect("an entry").path())
        .filter(|path| path.join("src").is_dir())
        .map(|path| path.file_name().expect("a name").to_string_lossy().into_owned())
        .collect();
    found.sort();
    found
}

/// A crate's modules: each module's path (`""` the root, `"engine::eval"`) and its source without comments.
fn modules(src: &Path) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("a source folder") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                if path != src.join("bin") {
                    stack.push(path);
                }
            } else if path.extension().is_some_and(|e| e == "rs") {
                let relative = path.strip_prefix(src).expect("below src").with_extension("");
                let mut parts: Vec<String> = relative.iter().map(|p| p.to_string_lossy().into_owned()).collect();
                if parts.last().is_some_and(|last| last == "mod" || last == "lib" || last == "main") {
                    parts.pop();
                }
                let text = std::fs::read_to_string(&path).expect("a source file");
                out.insert(parts.join("::"), strip_comments(&text));
            }
        }
    }
    out
}

/// `text` without its comments and the contents of its string and character literals.
fn strip_comments(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < bytes.len() {
        let rest = &text[i..];
        if rest.starts_with("//") {
            i += rest.find('\n').unwrap_or(rest.len());
        } else if rest.starts_with("/*") {
            i += rest.find("*/").map_or(rest.len(), |end| end + 2);
        } else if rest.starts_with("r#\"") {
            i += rest.find("\"#").map_or(rest.len(), |end| end + 2);
            out.push_str("\"\"");
        } else if bytes[i] == b'"' {
            let mut j = i + 1;
            while j < bytes.len() && bytes[j] != b'"' {
                j += if bytes[j] == b'\\' { 2 } else { 1 };
            }
            i = j + 1;
            out.push_str("\"\"");
        } else if bytes[i] == b'\'' && (rest.starts_with("'\\") || rest[1..].chars().nth(1) == Some('\'')) {
            // A character literal ('x', '\n'); a lifetime ('a) has no closing quote there.
            i += match rest.starts_with("'\\") {
                true => rest[3..].find('\'').map_or(rest.len(), |e| e + 4),
                false => 2 + rest[1..].chars().next().map_or(0, char::len_utf8),
            };
            out.push_str("' '");
        } else {
            let c = rest.chars().next().expect("not at the end");
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

/// The paths a use tree or an inline path starting at `text` names, each as its segments (`{a, b::c}`
/// expanded). Returns them and how far the tree reaches.
fn use_tree(text: &str) -> (Vec<Vec<String>>, usize) {
    let bytes = text.as_bytes();
    let mut i = 0;
    let mut prefix = Vec::new();
    loop {
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        if bytes.get(i) == Some(&b'{') {
            let mut paths = Vec::new();
            i += 1;
            loop {
                let (inner, used) = use_tree(&text[i..]);
                i += used;
                paths.extend(inner.into_iter().map(|p| [prefix.clone(), p].concat()));
                while i < bytes.len() && (bytes[i].is_ascii_whitespace() || bytes[i] == b',') {
                    i += 1;
                }
                if i >= bytes.len() || bytes[i] == b'}' {
                    return (paths, i + 1);
                }
            }
        }
        let start = i;
        while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_' || bytes[i] == b'*') {
            i += 1;
        }
        if i == start {
            return (vec![prefix], i);
        }
        prefix.push(text[start..i].to_owned());
        if text[i..].starts_with("::") {
            i += 2;
        } else {
            return (vec![prefix], i);
        }
    }
}

/// The module `path` (absolute segments) names: the longest prefix that is a module, through the
/// re-exports of the module it stops at (`crate::Bitboard` is `bitboard`).
fn resolve(
    path: &[String],
    modules: &BTreeMap<String, String>,
    exports: &BTreeMap<String, Vec<Vec<String>>>,
) -> String {
    let mut module = String::new();
    let mut rest = path;
    while let Some((first, tail)) = rest.split_first() {
        let child = if module.is_empty() { first.clone() } else { format!("{module}::{first}") };
        if !modules.contains_key(&child) {
            break;
        }
        module = child;
        rest = tail;
    }
    if let Some(name) = rest.first() {
        if let Some(target) = exports.get(&module).and_then(|paths| paths.iter().find(|p| p.last() == Some(name))) {
            return resolve(target, modules, exports);
        }
    }
    module
}

/// `path` in `module` as absolute segments: `crate::`, `super::` and `self::` resolved, a path into a child
/// module made absolute; `None` for paths outside the crate.
/// Paths inside `inline` levels of inline modules (`mod tests { ... }`) climb through them first.
fn absolute(module: &str, path: &[String], children: &BTreeSet<String>, inline: usize) -> Option<Vec<String>> {
    let mut base: Vec<String> = module.split("::").filter(|s| !s.is_empty()).map(str::to_owned).collect();
    let mut rest = path;
    match rest.first().map(String::as_str) {
        Some("crate") => {
            base.clear();
            rest = &rest[1..];
        }
        Some("self") => rest = &rest[1..],
        Some("super") => {
            let mut within = inline;
            while rest.first().is_some_and(|s| s == "super") {
                match within {
                    0 => drop(base.pop()),
                    _ => within -= 1,
                }
                rest = &rest[1..];
            }
        }
        Some(first) if children.contains(first) => {}
        _ => return None,
    }
    Some([base, rest.to_vec()].concat())
}

/// Each module's dependencies on the crate's other modules, with a path that shows each.
type Graph = BTreeMap<String, BTreeMap<String, String>>;

/// The [`Graph`] of the crate whose sources are `src`.
fn graph(src: &Path) -> Graph {
    let modules = modules(src);
    let children = |module: &str| -> BTreeSet<String> {
        let prefix = if module.is_empty() { String::new() } else { format!("{module}::") };
        modules
            .keys()
            .filter_map(|m| m.strip_prefix(&prefix).filter(|rest| !rest.is_empty() && !rest.contains("::")))
            .map(str::to_owned)
            .collect()
    };
    // Every path each module names, made absolute.
    let mut named: BTreeMap<String, Vec<Vec<String>>> = BTreeMap::new();
    let mut exports: BTreeMap<String, Vec<Vec<String>>> = BTreeMap::new();
    for (module, text) in &modules {
        let kids = children(module);
        let mut paths = Vec::new();
        let bytes = text.as_bytes();
        let mut i = 0;
        // The brace depths at which inline modules open, and the depth here.
        let (mut inline, mut depth) = (Vec::new(), 0);
        while i < bytes.len() {
            match bytes[i] {
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if inline.last() == Some(&depth) {
                        inline.pop();
                    }
                }
                _ => {}
            }
            let at_word =
                i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_' || bytes[i - 1] == b':');
            let rest = &text[i..];
            if at_word && rest.starts_with("mod ") {
                let name_end =
                    rest[4..].find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).map_or(rest.len(), |e| e + 4);
                if rest[name_end..].trim_start().starts_with('{') {
                    inline.push(depth);
                }
            }
            let is_use = at_word
                && (rest.starts_with("use ") || rest.starts_with("pub use ") || rest.starts_with("pub(crate) use "));
            if is_use {
                let start = rest.find("use ").expect("a use") + 4;
                let (tree, used) = use_tree(&rest[start..]);
                for path in tree {
                    if let Some(abs) = absolute(module, &path, &kids, inline.len()) {
                        let own: Vec<&str> = module.split("::").filter(|m| !m.is_empty()).collect();
                        let descendant = abs.len() > own.len() + 1 && abs.iter().zip(&own).all(|(a, b)| a == b);
                        if rest.starts_with("pub use ") {
                            exports.entry(module.clone()).or_default().push(abs.clone());
                            let name = abs.last().expect("a path");
                            if descendant && name != "self" && words(text, name) == 1 {
                                // The module's face: what it offers of its own children and does not itself
                                // use, declared as `mod` declares them.
                                continue;
                            }
                        }
                        paths.push(abs);
                    }
                }
                i += start + used;
                continue;
            }
            let word_end = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(rest.len());
            if at_word && word_end > 0 && rest[word_end..].starts_with("::") {
                let (tree, used) = use_tree(rest);
                for path in tree {
                    if let Some(abs) = absolute(module, &path, &kids, inline.len()) {
                        paths.push(abs);
                    }
                }
                i += used.max(1);
                continue;
            }
            i += rest.chars().next().map_or(1, char::len_utf8);
        }
        named.insert(module.clone(), paths);
    }
    let mut graph: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for (module, paths) in &named {
        let edges = graph.entry(module.clone()).or_default();
        for path in paths {
            let target = resolve(path, &modules, &exports);
            if target != *module && !target.is_empty() {
                edges.entry(target).or_insert_with(|| path.join("::"));
            }
        }
    }
    graph
}

/// How many times `name` stands in `text` as a word of its own.
fn words(text: &str, name: &str) -> usize {
    let is_word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.match_indices(name)
        .filter(|(at, _)| !text[..*at].ends_with(is_word) && !text[at + name.len()..].starts_with(is_word))
        .count()
}

/// A cycle of the graph, as the modules along it with the path each names of the next, if there is one.
fn find_cycle(graph: &BTreeMap<String, BTreeMap<String, String>>) -> Option<Vec<String>> {
    fn visit<'a>(
        node: &'a str,
        graph: &'a BTreeMap<String, BTreeMap<String, String>>,
        state: &mut BTreeMap<&'a str, bool>,
        path: &mut Vec<&'a str>,
    ) -> Option<Vec<String>> {
        match state.get(node) {
            Some(true) => return None,
            Some(false) => {
                let start = path.iter().position(|n| *n == node).expect("on the path");
                let mut cycle: Vec<&str> = path[start..].to_vec();
                cycle.push(node);
                return Some(
                    cycle
                        .windows(2)
                        .map(|w| format!("{} -> {} ({})", show(w[0]), show(w[1]), graph[w[0]][w[1]]))
                        .collect(),
                );
            }
            None => {}
        }
        state.insert(node, false);
        path.push(node);
        for next in graph.get(node).into_iter().flat_map(|edges| edges.keys()) {
            if let Some(cycle) = visit(next, graph, state, path) {
                return Some(cycle);
            }
        }
        path.pop();
        state.insert(node, true);
        None
    }
    let mut state = BTreeMap::new();
    graph.keys().find_map(|node| visit(node, graph, &mut state, &mut Vec::new()))
}

fn show(module: &str) -> &str {
    if module.is_empty() {
        "crate"
    } else {
        module
    }
}

fn source(krate: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(krate).join("src")
}

#[test]
fn no_module_depends_on_itself_through_others() {
    let mut cycles = Vec::new();
    let crates = crates();
    assert!(crates.len() > 10, "crates not found: {crates:?}");
    for krate in &crates {
        let mut graph = graph(&source(krate));
        assert!(!graph.is_empty(), "{krate}: modules not found");
        // Each cycle found, then the graph without its first edge, to show them all.
        while let Some(cycle) = find_cycle(&graph) {
            cycles.push(format!("{krate} has a module cycle:\n  {}", cycle.join("\n  ")));
            let (from, to) = cycle[0].split_once(" -> ").expect("an edge");
            let to = to.split_once(' ').expect("a path").0;
            let from = if from == "crate" { "" } else { from };
            graph.get_mut(from).expect("a module").remove(if to == "crate" { "" } else { to });
        }
    }
    assert!(cycles.is_empty(), "{}", cycles.join("\n"));
}

#[test]
fn the_rules_import_nothing_of_the_engine() {
    let inside = |m: &str| m == "engine" || m.starts_with("engine::");
    let mut found = Vec::new();
    let with_engine: Vec<(String, Graph)> = crates()
        .into_iter()
        .map(|krate| {
            let graph = graph(&source(&krate));
            (krate, graph)
        })
        .filter(|(_, graph)| graph.contains_key("engine"))
        .collect();
    for game in ["tabula-chess", "tabula-go", "tabula-gomoku", "tabula-xiangqi"] {
        assert!(with_engine.iter().any(|(krate, _)| krate == game), "{game} has no engine module");
    }
    for (krate, graph) in with_engine {
        for (module, edges) in graph {
            if inside(&module) || module.is_empty() {
                continue;
            }
            for (target, path) in edges.into_iter().filter(|(target, _)| inside(target)) {
                found.push(format!("{krate}: {module} names {path} ({target}), inside the engine"));
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn the_checker_sees_cycles_and_paths() {
    let text = "use crate::{a::{B, c::D}, e};\nfn f() { super::g::H; kids::X; 'x'; \"crate::no\" } // crate::no";
    let (tree, _) = use_tree("crate::{a::{B, c::D}, e};");
    assert_eq!(tree, [vec!["crate", "a", "B"], vec!["crate", "a", "c", "D"], vec!["crate", "e"]]);
    let stripped = strip_comments(text);
    assert!(!stripped.contains("no"), "{stripped}");
    let graph: BTreeMap<String, BTreeMap<String, String>> =
        [("a", vec!["b"]), ("b", vec!["c"]), ("c", vec!["a"]), ("d", vec![])]
            .into_iter()
            .map(|(m, to)| (m.to_owned(), to.into_iter().map(|t| (t.to_owned(), format!("crate::{t}::X"))).collect()))
            .collect();
    assert_eq!(find_cycle(&graph).map(|c| c.len()), Some(3));
    let mut acyclic = graph.clone();
    acyclic.get_mut("c").unwrap().clear();
    assert_eq!(find_cycle(&acyclic), None);
}
