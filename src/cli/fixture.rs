//! `collidoscope fixture FILE [--pair I J]... -o OUT [--rust TEST.rs]`: pin the exact results
//! of a file's pairs, and optionally write the Rust test that checks them.

use crate::fixture;
use crate::scene;
use std::io::Write;
use std::path::Path;
use std::path::PathBuf;

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
    match fixture::export(&scene, chosen, output, rust) {
        Ok(written) => {
            for line in written {
                let _ = writeln!(out, "{line}");
            }
            0
        }
        Err(e) => {
            eprintln!("{e}");
            1
        }
    }
}

/// `--pair I J` values, flattened by the parser, back into pairs.
pub fn pairs_of(values: &[usize]) -> Vec<(usize, usize)> {
    values.chunks_exact(2).map(|p| (p[0], p[1])).collect()
}

/// The options of `collidoscope fixture`.
#[derive(Debug, clap::Args)]
pub struct FixtureArgs {
    /// A shape-set file.
    pub file: PathBuf,
    /// A pair to pin (repeatable; default: every pair).
    #[arg(long, num_args = 2, value_names = ["I", "J"], action = clap::ArgAction::Append)]
    pub pair: Vec<usize>,
    /// The fixture to write.
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    pub output: PathBuf,
    /// Also write a Rust #[test] that checks the fixture.
    #[arg(long, value_name = "TEST.rs")]
    pub rust: Option<PathBuf>,
}
