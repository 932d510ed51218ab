//! The repository's example files, by name: shape sets in `shapes/`, their list, and any
//! folder's JSON files. Included by the tests that read them
//! (`#[path = "common/examples.rs"] mod examples;`).
#![allow(dead_code)]

use collidoscope::scene::{self, Scene};
use std::path::{Path, PathBuf};

/// The repository's root.
pub fn manifest() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `shapes/NAME`.
pub fn example(name: &str) -> PathBuf {
    manifest().join("shapes").join(name)
}

/// The shape set `shapes/NAME`, loaded (a failure names the file and the problem).
pub fn load_example(name: &str) -> Scene {
    scene::load(&example(name)).unwrap_or_else(|e| panic!("{e}"))
}

/// The `.json` files of `dir`, sorted.
pub fn json_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
}

/// Every example shape set in `shapes/`, sorted.
pub fn examples() -> Vec<PathBuf> {
    let files = json_files(&manifest().join("shapes"));
    assert!(files.len() >= 10, "the examples are there: {files:?}");
    files
}
