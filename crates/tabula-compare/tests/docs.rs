//! The documentation checked offline: every relative link of the front pages (`README.md`,
//! `README.zh-CN.md`), the crate READMEs and the book (`docs/src`) leads to a file that exists, and a link to a
//! heading (`page.md#heading`) to a heading that exists; the book's links stay inside the book, so that its
//! rendered pages work too; every book page is in `SUMMARY.md`; every fenced block names its language, so that
//! no shell session is taken for Rust; and every page with a Rust example is compiled as a doctest.
//!
//! External links (`https:` and the like) are not followed: CI runs offline.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Component, Path, PathBuf};

/// The workspace's root, two levels above this crate.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("the workspace root")
}

/// `path` with `.` and `..` taken out, without asking the file system (the target may not exist).
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// Every Markdown file the check covers, as absolute paths.
fn pages(root: &Path) -> Vec<PathBuf> {
    let mut pages = vec![root.join("README.md")];
    let chinese = root.join("README.zh-CN.md");
    if chinese.exists() {
        pages.push(chinese);
    }
    for entry in fs::read_dir(root.join("crates")).expect("crates/") {
        let readme = entry.expect("a crate directory").path().join("README.md");
        if readme.exists() {
            pages.push(readme);
        }
    }
    let mut stack = vec![root.join("docs/src")];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                pages.push(path);
            }
        }
    }
    pages.sort();
    pages
}

/// A page's text outside fenced code blocks and code spans, line by line (numbered from 1), and the languages
/// of its fenced blocks with the line each opens on.
struct Parsed {
    prose: Vec<(usize, String)>,
    headings: Vec<String>,
    fences: Vec<(usize, String)>,
}

fn parse(text: &str) -> Parsed {
    let mut prose = Vec::new();
    let mut headings = Vec::new();
    let mut fences = Vec::new();
    let mut open: Option<String> = None;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if let Some(rest) = trimmed.strip_prefix("```") {
            match &open {
                None => {
                    fences.push((i + 1, rest.trim().to_owned()));
                    open = Some("```".into());
                }
                Some(_) if rest.trim().is_empty() => open = None,
                Some(_) => {}
            }
            continue;
        }
        if open.is_some() {
            continue;
        }
        if let Some(heading) = line.strip_prefix('#') {
            headings.push(heading.trim_start_matches('#').to_owned());
        }
        // Code spans hold example syntax, not links.
        let mut kept = String::new();
        for (k, piece) in line.split('`').enumerate() {
            if k % 2 == 0 {
                kept.push_str(piece);
            }
        }
        prose.push((i + 1, kept));
    }
    Parsed { prose, headings, fences }
}

/// The targets of the inline links and images on a line: `[text](target)` and `![alt](target)`.
fn link_targets(line: &str) -> Vec<String> {
    let mut targets = Vec::new();
    let bytes = line.as_bytes();
    let mut i = 0;
    while let Some(at) = line[i..].find("](") {
        let start = i + at + 2;
        let mut depth = 1;
        let mut end = start;
        while end < bytes.len() {
            match bytes[end] {
                b'(' => depth += 1,
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                _ => {}
            }
            end += 1;
        }
        if end >= bytes.len() {
            break;
        }
        let target = line[start..end].split_whitespace().next().unwrap_or("").to_owned();
        targets.push(target);
        i = end + 1;
    }
    targets
}

/// The anchor a heading gets, as GitHub and mdBook make it: lower case, letters, digits, `-` and `_` kept,
/// spaces turned into `-`, everything else dropped.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .chars()
        .filter_map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '_' {
                Some(c.to_lowercase().next().unwrap_or(c))
            } else if c.is_whitespace() {
                Some('-')
            } else {
                None
            }
        })
        .collect()
}

/// The anchors of a page's headings (outside code blocks).
fn anchors(text: &str) -> BTreeSet<String> {
    parse(text).headings.iter().map(|heading| slug(heading)).collect()
}

fn relative(root: &Path, path: &Path) -> String {
    path.strip_prefix(root).unwrap_or(path).display().to_string()
}

#[test]
fn every_relative_link_leads_somewhere() {
    let root = root();
    let book = root.join("docs/src");
    let mut broken = Vec::new();
    let mut checked = 0;
    for page in pages(&root) {
        let text = fs::read_to_string(&page).expect("a readable page");
        for (line_number, line) in parse(&text).prose {
            for target in link_targets(&line) {
                if target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
                    continue;
                }
                checked += 1;
                let (path, fragment) = match target.split_once('#') {
                    Some((path, fragment)) => (path, Some(fragment)),
                    None => (target.as_str(), None),
                };
                let file = if path.is_empty() { page.clone() } else { normalize(&page.parent().unwrap().join(path)) };
                let at = format!("{}:{line_number}: {target}", relative(&root, &page));
                if !file.exists() {
                    broken.push(format!("{at}: no such file"));
                    continue;
                }
                if page.starts_with(&book) && !file.starts_with(&book) {
                    broken
                        .push(format!("{at}: leads out of the book (docs/src), so its rendered page cannot follow it"));
                }
                if let Some(fragment) = fragment {
                    if file.extension().is_some_and(|e| e == "md") {
                        let target_text = fs::read_to_string(&file).expect("a readable page");
                        if !anchors(&target_text).contains(fragment) {
                            broken.push(format!("{at}: no heading with the anchor #{fragment}"));
                        }
                    }
                }
            }
        }
    }
    assert!(checked > 100, "only {checked} links found: is the parser still reading the pages?");
    assert!(broken.is_empty(), "{} broken links:\n{}", broken.len(), broken.join("\n"));
}

#[test]
fn every_book_page_is_in_the_summary() {
    let root = root();
    let book = root.join("docs/src");
    let summary = fs::read_to_string(book.join("SUMMARY.md")).expect("docs/src/SUMMARY.md");
    let listed: BTreeSet<PathBuf> = parse(&summary)
        .prose
        .iter()
        .flat_map(|(_, line)| link_targets(line))
        .map(|target| normalize(&book.join(target)))
        .collect();
    let missing: Vec<String> = pages(&root)
        .into_iter()
        .filter(|page| page.starts_with(&book) && !page.ends_with("SUMMARY.md") && !listed.contains(page))
        .map(|page| relative(&root, &page))
        .collect();
    assert!(missing.is_empty(), "pages the book does not list in SUMMARY.md: {missing:?}");
}

#[test]
fn every_fenced_block_names_its_language_and_every_rust_example_is_compiled() {
    let root = root();
    // The pages included as doctests: `include_str!("...")` in any library crate's `src/lib.rs`.
    let mut doctested = BTreeSet::new();
    for entry in fs::read_dir(root.join("crates")).expect("crates/") {
        let lib = entry.expect("a crate directory").path().join("src/lib.rs");
        let Ok(source) = fs::read_to_string(&lib) else { continue };
        for piece in source.split("include_str!(\"").skip(1) {
            let path = piece.split('"').next().unwrap_or("");
            if path.ends_with(".md") {
                doctested.insert(normalize(&lib.parent().unwrap().join(path)));
            }
        }
    }
    let mut faults = Vec::new();
    for page in pages(&root) {
        let text = fs::read_to_string(&page).expect("a readable page");
        for (line_number, language) in parse(&text).fences {
            let at = format!("{}:{line_number}", relative(&root, &page));
            let first = language.split(',').next().unwrap_or("");
            if first.is_empty() {
                faults.push(format!("{at}: a fenced block without a language (rustdoc would compile it as Rust)"));
            } else if first == "rust" && !doctested.contains(&page) {
                faults.push(format!("{at}: a Rust example on a page no crate includes as a doctest"));
            }
        }
    }
    assert!(faults.is_empty(), "{}", faults.join("\n"));
}

#[test]
fn the_link_parser_reads_what_the_pages_write() {
    assert_eq!(link_targets("see [a](b.md) and ![c](d/e.png \"t\")"), ["b.md", "d/e.png"]);
    assert_eq!(link_targets("[x](page.md#the-web-page-tabula-web)"), ["page.md#the-web-page-tabula-web"]);
    assert_eq!(slug(" The web page (`tabula-web`)"), "the-web-page-tabula-web");
    assert_eq!(slug("Against the `minimax` crate"), "against-the-minimax-crate");
    assert_eq!(parse("a `[x](nowhere)` b\n```sh\n[y](z)\n```\n").prose.len(), 1);
    assert!(anchors("## Against the `minimax` crate\n").contains("against-the-minimax-crate"));
}
