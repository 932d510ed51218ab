//! `collidoscope fixture FILE [--pair I J]... -o OUT [--rust TEST.rs]`: pin the exact results
//! of a file's pairs, and optionally write the Rust test that checks them.

use crate::fixture;
use crate::scene;
use std::io::Write;
use std::path::{Component, Path};

/// Write the fixture (and the test); 1 when the file cannot be read or a file cannot be
/// written, 2 for a pair that is not in the file.
pub fn run(
    file: &Path,
    pairs: &[(usize, usize)],
    output: &Path,
    rust: Option<&Path>,
    out: &mut impl Write,
) -> u8 {
    let scene = match scene::load(file) {
        Ok(scene) => scene,
        Err(e) => {
            eprintln!("{e}");
            return 1;
        }
    };
    let n = scene.shapes.len();
    if let Some((i, j)) = pairs.iter().find(|(i, j)| i == j || *i >= n || *j >= n) {
        let why = if i == j {
            "a pair needs two different shapes".to_string()
        } else {
            format!(
                "{} has {n} shape{}",
                file.display(),
                if n == 1 { "" } else { "s" }
            )
        };
        eprintln!("collidoscope fixture: --pair {i} {j}: {why}");
        return 2;
    }
    let chosen = (!pairs.is_empty()).then_some(pairs);
    let made = fixture::make(&scene, chosen);
    let count = made.expect.as_ref().map_or(0, Vec::len);
    if let Err(e) = scene::save(&made, output) {
        eprintln!("{e}");
        return 1;
    }
    let _ = writeln!(
        out,
        "wrote {}: {n} shapes, {count} pinned pair{}",
        output.display(),
        if count == 1 { "" } else { "s" }
    );
    let Some(rust) = rust else {
        return 0;
    };
    let include = match include_path(rust, output) {
        Ok(p) => p,
        Err(e) => {
            eprintln!(
                "{}: cannot place the test beside the fixture: {e}",
                rust.display()
            );
            return 1;
        }
    };
    let name = output
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let text = fixture::rust_test(&include, &name, count);
    if let Err(e) = scene::write_atomically(rust, text.as_bytes()) {
        eprintln!("{}: cannot save: {e}", rust.display());
        return 1;
    }
    let _ = writeln!(out, "wrote {}: include_str!({include:?})", rust.display());
    0
}

/// The path of `fixture` relative to the folder of `test`, with `/` separators, as
/// `include_str!` in `test` reads it.
fn include_path(test: &Path, fixture: &Path) -> std::io::Result<String> {
    let folder = match test.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let from = folder.canonicalize()?;
    let to = fixture.canonicalize()?;
    let (from, to): (Vec<Component>, Vec<Component>) =
        (from.components().collect(), to.components().collect());
    let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    let mut parts: Vec<String> = vec!["..".into(); from.len() - common];
    parts.extend(
        to[common..]
            .iter()
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    Ok(parts.join("/"))
}

/// `--pair I J` values, flattened by the parser, back into pairs.
pub fn pairs_of(values: &[usize]) -> Vec<(usize, usize)> {
    values.chunks_exact(2).map(|p| (p[0], p[1])).collect()
}
