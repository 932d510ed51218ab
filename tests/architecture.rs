//! The crate's files depend on each other one way: no two files import each other, directly or
//! through others. Imports are read from the code itself: `use` items and paths written inline
//! (`super::chain::chain_contact(...)`, `crate::query::collide(...)`), in every file under src/
//! (test modules left out), each followed through re-exports to the file that defines the item
//! (`crate::Reported` is judge/claim.rs, not lib.rs, which only re-exports it). A circle is
//! reported with every file in it. And no source file is too long to hold in mind.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module path from the crate root: `["query", "chain"]`; the root is `[]`.
type Module = Vec<String>;

/// Every `.rs` file under `dir`.
fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module a file is (`src/query/mod.rs` is `query`; `lib.rs` and `main.rs` the root).
fn module_of(src: &Path, file: &Path) -> Module {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Module = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    if parts == ["lib"] || parts == ["main"] {
        parts.clear();
    }
    parts
}

/// The code of a file without comments and without its `#[cfg(test)] mod tests`.
fn code(text: &str) -> String {
    let text = match text.find("#[cfg(test)]\nmod tests") {
        Some(at) => &text[..at],
        None => text,
    };
    text.lines()
        .map(|l| match l.find("//") {
            Some(at) => &l[..at],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every path that starts with `crate`, `super` or `self`, written in `code`: inline ones and
/// those of `use` items, groups (`use super::{a, b::c}`) spelled out.
fn paths(code: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let bytes = code.as_bytes();
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut i = 0;
    while i < bytes.len() {
        let starts = ["crate::", "super::", "self::"]
            .iter()
            .any(|p| bytes[i..].starts_with(p.as_bytes()))
            && (i == 0 || !word(bytes[i - 1]) && bytes[i - 1] != b':');
        if !starts {
            i += 1;
            continue;
        }
        // The path up to its end, a group's braces included.
        let mut j = i;
        let mut depth = 0;
        while j < bytes.len() {
            match bytes[j] {
                b'{' => depth += 1,
                b'}' if depth == 0 => break,
                b'}' => depth -= 1,
                c if depth == 0 && !(word(c) || c == b':') => break,
                _ => {}
            }
            j += 1;
        }
        expand(&code[i..j], &mut out);
        i = j.max(i + 1);
    }
    out
}

/// `a::{b, c::{d}}` as `[a, b]`, `[a, c, d]`.
fn expand(tree: &str, out: &mut Vec<Vec<String>>) {
    let tree = tree.trim();
    let Some(open) = tree.find('{') else {
        out.push(segments(tree));
        return;
    };
    let head = segments(&tree[..open]);
    let inner = tree[open + 1..tree.rfind('}').unwrap_or(tree.len())].to_string();
    let mut depth = 0;
    let mut item = String::new();
    let mut items = Vec::new();
    for c in inner.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(std::mem::take(&mut item));
                continue;
            }
            _ => {}
        }
        item.push(c);
    }
    items.push(item);
    for item in items {
        let item = item.split(" as ").next().unwrap_or_default().trim();
        if item.is_empty() {
            continue;
        }
        let mut more = Vec::new();
        expand(item, &mut more);
        for tail in more {
            out.push(head.iter().cloned().chain(tail).collect());
        }
    }
}

fn segments(path: &str) -> Vec<String> {
    path.split("::")
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

/// A path written in module `here` made absolute (from the crate root): `crate::` from the
/// root, `super::` from the parent, `self::` and a bare name (a child module, or a name this
/// module holds) from `here`.
fn absolute(here: &Module, path: &[String]) -> Module {
    let mut at: Module = match path[0].as_str() {
        "crate" => Vec::new(),
        _ => here.clone(),
    };
    for s in &path[usize::from(path[0] == "crate")..] {
        match s.as_str() {
            "super" => {
                at.pop();
            }
            "self" => {}
            name => at.push(name.to_string()),
        }
    }
    at
}

/// Every name a file re-exports (`pub use`, `pub(crate) use`, ...), as the module path it is
/// seen at (the file's module and the name) to the path it stands for.
fn reexports(src: &Path, all: &[PathBuf]) -> BTreeMap<Module, Module> {
    let mut out = BTreeMap::new();
    for file in all {
        let here = module_of(src, file);
        let code = code(&std::fs::read_to_string(file).unwrap());
        let mut rest = code.as_str();
        while let Some(at) = rest.find("use ") {
            let before = rest[..at].trim_end();
            let public = before.ends_with("pub")
                || before.ends_with(')')
                    && before
                        .rfind("pub(")
                        .is_some_and(|p| !before[p..].contains('\n'));
            let end = rest[at..].find(';').map_or(rest.len(), |e| at + e);
            if public {
                let mut paths = Vec::new();
                expand(&rest[at + 4..end], &mut paths);
                for path in paths.into_iter().filter(|p| !p.is_empty()) {
                    let name = path.last().unwrap().clone();
                    if name == "*" || name == "self" {
                        continue;
                    }
                    let mut seen = here.clone();
                    seen.push(name);
                    out.insert(seen, absolute(&here, &path));
                }
            }
            rest = &rest[end.min(rest.len())..];
            if rest.is_empty() {
                break;
            }
            rest = &rest[1.min(rest.len())..];
        }
    }
    out
}

/// `path` followed through re-exports to where its item is defined.
fn follow(reexports: &BTreeMap<Module, Module>, mut path: Module) -> Module {
    for _ in 0..10 {
        let Some(k) = (1..=path.len())
            .rev()
            .find(|k| reexports.contains_key(&path[..*k]))
        else {
            break;
        };
        let mut next = reexports[&path[..k]].clone();
        next.extend_from_slice(&path[k..]);
        if next == path {
            break;
        }
        path = next;
    }
    path
}

/// The files' import graph: each file to the files its paths lead into (the longest module
/// prefix of a path that is a file, re-exports followed).
fn graph(src: &Path) -> BTreeMap<Module, BTreeSet<Module>> {
    let mut all = Vec::new();
    files(src, &mut all);
    let modules: BTreeSet<Module> = all.iter().map(|f| module_of(src, f)).collect();
    let reexports = reexports(src, &all);
    let mut edges = BTreeMap::new();
    for file in &all {
        let here = module_of(src, file);
        let mut to = BTreeSet::new();
        for path in paths(&code(&std::fs::read_to_string(file).unwrap())) {
            let mut at = follow(&reexports, absolute(&here, &path));
            while !at.is_empty() && !modules.contains(&at) {
                at.pop();
            }
            if at != here && modules.contains(&at) {
                to.insert(at);
            }
        }
        edges.insert(here, to);
    }
    edges
}

/// The circles of `edges`: its strongly connected components of two files or more (Tarjan).
fn circles(edges: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<Module>> {
    struct Walk<'a> {
        edges: &'a BTreeMap<Module, BTreeSet<Module>>,
        index: BTreeMap<&'a Module, usize>,
        low: BTreeMap<&'a Module, usize>,
        stack: Vec<&'a Module>,
        found: Vec<Vec<Module>>,
    }
    impl<'a> Walk<'a> {
        fn visit(&mut self, v: &'a Module) {
            let k = self.index.len();
            self.index.insert(v, k);
            self.low.insert(v, k);
            self.stack.push(v);
            for w in &self.edges[v] {
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let low = self.low[v].min(self.low[w]);
                    self.low.insert(v, low);
                } else if self.stack.contains(&w) {
                    let low = self.low[v].min(self.index[w]);
                    self.low.insert(v, low);
                }
            }
            if self.low[v] == self.index[v] {
                let mut component = Vec::new();
                while let Some(w) = self.stack.pop() {
                    component.push(w.clone());
                    if w == v {
                        break;
                    }
                }
                if component.len() > 1 {
                    component.sort();
                    self.found.push(component);
                }
            }
        }
    }
    let mut walk = Walk {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        found: Vec::new(),
    };
    for v in edges.keys() {
        if !walk.index.contains_key(v) {
            walk.visit(v);
        }
    }
    walk.found
}

#[test]
fn no_two_files_import_each_other() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let found: Vec<String> = circles(&graph(&src))
        .iter()
        .map(|c| c.iter().map(|m| m.join("/")).collect::<Vec<_>>().join(", "))
        .collect();
    assert!(found.is_empty(), "import circles: {found:#?}");
}

/// The reader finds a circle where there is one, through inline paths and groups alike.
#[test]
fn a_circle_through_an_inline_path_is_found() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    std::fs::create_dir(src.join("q")).unwrap();
    std::fs::write(src.join("lib.rs"), "mod q;").unwrap();
    std::fs::write(src.join("q/mod.rs"), "mod a;\nmod b;\nmod c;").unwrap();
    std::fs::write(src.join("q/a.rs"), "use super::{b::B, c};").unwrap();
    std::fs::write(src.join("q/b.rs"), "pub struct B;").unwrap();
    std::fs::write(src.join("q/c.rs"), "fn f() { super::a::g(); } // super::b").unwrap();
    let found = circles(&graph(src));
    let names = |m: &[&str]| m.iter().map(|s| s.to_string()).collect::<Module>();
    assert_eq!(found, vec![vec![names(&["q", "a"]), names(&["q", "c"])]]);
}

/// A circle hidden behind a re-export is found: `a` imports `crate::B`, which lib.rs only
/// re-exports from `b`, and `b` imports `a`.
#[test]
fn a_circle_behind_a_re_export_is_found() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    std::fs::write(src.join("lib.rs"), "mod a;\nmod b;\npub use b::B;").unwrap();
    std::fs::write(src.join("a.rs"), "use crate::B;\npub fn f() {}").unwrap();
    std::fs::write(src.join("b.rs"), "pub struct B;\nfn g() { crate::a::f(); }").unwrap();
    let names = |m: &str| vec![m.to_string()];
    assert_eq!(circles(&graph(src)), vec![vec![names("a"), names("b")]]);
}

/// No source file is longer than 1,200 lines (text.rs was 3,326: its words now sit beside
/// what they describe, the window's in app/words.rs, the command line's in cli/words.rs).
#[test]
fn no_source_file_is_too_long_to_hold_in_mind() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut all = Vec::new();
    files(&src, &mut all);
    let mut long = Vec::new();
    for file in all {
        let lines = std::fs::read_to_string(&file).unwrap().lines().count();
        let most = 1_200;
        if lines > most {
            long.push(format!(
                "{}: {lines} lines (at most {most})",
                file.display()
            ));
        }
    }
    assert!(long.is_empty(), "{long:#?}");
}

/// The library's words carry none of the window's (its keys, its mouse, fingers, menus):
/// those are in app/words.rs, which only the window reads, as cli/words.rs only the command
/// line.
#[test]
fn the_library_words_carry_no_window_words() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let text = std::fs::read_to_string(src.join("text.rs")).unwrap();
    for word in [
        "wheel", "Ctrl+", "F1", " tap ", "finger", "click", "Help >", "File >",
    ] {
        assert!(!text.contains(word), "text.rs says {word:?}");
    }
    let mut all = Vec::new();
    files(&src, &mut all);
    for file in all {
        let code = std::fs::read_to_string(&file).unwrap();
        let inside = |folder: &str| file.starts_with(src.join(folder));
        if !inside("app") {
            assert!(
                !code.contains("app::words"),
                "{} reads the window's words",
                file.display()
            );
        }
        if !inside("cli") {
            assert!(
                !code.contains("cli::words"),
                "{} reads the command line's words",
                file.display()
            );
        }
    }
}
