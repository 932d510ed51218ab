//! Fixtures: a shape set that pins the exact results of some pairs (`expect`), so a case seen
//! in the window becomes a test. [`make`] adds the expectations, [`check`] recomputes them and
//! lists every field that drifted, and [`verify`] does both from a file's text: the entry point
//! the Rust test that `collidoscope fixture --rust` writes calls (it needs no GUI or
//! command-line crate: `collidoscope = { ..., default-features = false }`).
//!
//! A field agrees when `|found - expected| <= tolerance * (1 + |expected|)` (the file's
//! `tolerance`, default 1e-9); vectors compare component by component; two contact points may
//! come in either order.

use crate::files::{self, FileError};
use crate::geometry::DVec2;
use crate::query::{PairSummary, chain_piece, pair_records, summarize};
use crate::scene::{self, DEFAULT_TOLERANCE, Expected, ExpectedPiece, Scene};
use crate::text::exact_number;
use std::fmt;
use std::path::{Component, Path, PathBuf};

/// A copy of `scene` with `expect` set to the exact results of `pairs` (list positions),
/// or of every pair `i < j` when `pairs` is `None`.
pub fn make(scene: &Scene, pairs: Option<&[(usize, usize)]>) -> Scene {
    let n = scene.shapes.len();
    let every: Vec<(usize, usize)>;
    let pairs = match pairs {
        Some(p) => p,
        None => {
            every = (0..n)
                .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
                .collect();
            &every
        }
    };
    let shapes = &scene.shapes;
    let expect = pairs
        .iter()
        .flat_map(|&(i, j)| pair_records(i, j, &shapes[i].placed, &shapes[j].placed))
        .map(|record| Expected {
            a: shapes[record.indices().0].id,
            b: shapes[record.indices().1].id,
            piece: match (record.piece, record.rule, record.two_sided) {
                (Some(piece), Some(rule), Some(two_sided)) => Some(ExpectedPiece {
                    piece,
                    rule,
                    two_sided,
                }),
                _ => None,
            },
            result: record.summary,
        })
        .collect();
    Scene {
        expect: Some(expect),
        ..scene.clone()
    }
}

/// One field of one pinned pair that no longer agrees.
#[derive(Clone, Debug, PartialEq)]
pub struct Drift {
    /// The pair (list positions).
    pub pair: (usize, usize),
    /// The pair's shapes by name (`#i` for an unnamed one), as messages call them.
    pub names: (String, String),
    /// The chain's piece, for a pair with a chain.
    pub piece: Option<usize>,
    /// The field: `intersecting`, `depth`, `normal`, `distance`, `closest`, `contacts`, or
    /// for a chain's piece `rule` and `two_sided`.
    pub field: &'static str,
    /// What the fixture pins, as JSON writes it.
    pub expected: String,
    /// What the core computes now.
    pub found: String,
}

impl fmt::Display for Drift {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let piece = self
            .piece
            .map(|p| format!(" piece {p}"))
            .unwrap_or_default();
        write!(
            f,
            "pair {} / {} ({} {}){piece}: {}: expected {}, found {}",
            self.names.0,
            self.names.1,
            self.pair.0,
            self.pair.1,
            self.field,
            self.expected,
            self.found
        )
    }
}

/// What checking a fixture found.
#[derive(Clone, Debug, PartialEq)]
pub struct Verification {
    /// How many pinned pairs were recomputed.
    pub pairs: usize,
    /// Every field that drifted, pair by pair in the fixture's order.
    pub drifts: Vec<Drift>,
}

impl Verification {
    /// Whether every pinned field still agrees.
    pub fn is_ok(&self) -> bool {
        self.drifts.is_empty()
    }
}

/// Why [`verify`] failed.
#[derive(Clone, Debug, PartialEq)]
pub enum FixtureError {
    /// The text is not a valid shape-set file.
    Unreadable(FileError),
    /// The file has no `expect` list.
    NotAFixture,
    /// Some pinned fields drifted.
    Drifted(Verification),
}

impl fmt::Display for FixtureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FixtureError::Unreadable(e) => write!(f, "{e}"),
            FixtureError::NotAFixture => {
                f.write_str("not a fixture: the file has no \"expect\" list")
            }
            FixtureError::Drifted(v) => {
                write!(
                    f,
                    "{} field(s) of {} pinned pair(s) drifted:",
                    v.drifts.len(),
                    v.pairs
                )?;
                for d in &v.drifts {
                    write!(f, "\n  {d}")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for FixtureError {}

/// Recompute every expectation of `scene` (`None` when it is not a fixture).
pub fn check(scene: &Scene) -> Option<Verification> {
    let expect = scene.expect.as_ref()?;
    let tolerance = scene.tolerance.unwrap_or(DEFAULT_TOLERANCE);
    let mut drifts = Vec::new();
    let mut pairs = 0;
    for e in expect {
        let Some((i, j)) = scene.pair_of(e.a, e.b) else {
            continue;
        };
        pairs += 1;
        let (a, b) = (&scene.shapes[i].placed, &scene.shapes[j].placed);
        let names = (
            scene.shapes[i].display_name(i),
            scene.shapes[j].display_name(j),
        );
        let mut drift = |field, expected, found| {
            drifts.push(Drift {
                pair: (i, j),
                names: names.clone(),
                piece: e.piece.map(|p| p.piece),
                field,
                expected,
                found,
            })
        };
        let Some(pinned) = e.piece else {
            compare(&e.result, &summarize(a, b), tolerance, &mut drift);
            continue;
        };
        let Some(found) = chain_piece(a, b, pinned.piece) else {
            drift("piece", pinned.piece.to_string(), "no such piece".into());
            continue;
        };
        compare(&e.result, &found.summary, tolerance, &mut drift);
        if found.rule != pinned.rule {
            drift("rule", json(&pinned.rule), json(&found.rule));
        }
        let (x, y) = (pinned.two_sided, found.two_sided);
        let normals_agree = match (x.normal, y.normal) {
            (Some(p), Some(q)) => close_points(&[q], &[p], tolerance),
            (None, None) => true,
            _ => false,
        };
        if x.intersecting != y.intersecting || !close(y.depth, x.depth, tolerance) || !normals_agree
        {
            drift("two_sided", json(&x), json(&y));
        }
    }
    Some(Verification { pairs, drifts })
}

/// Parse a fixture's text and check it: `Ok` with the number of pairs when every field agrees.
/// The entry point of generated tests:
///
/// ```
/// let fixture = r#"{"format": "collidoscope-shapes", "version": 2,
///   "shapes": [{"kind": "circle", "radius": 1}, {"kind": "circle", "position": [3, 0], "radius": 1}],
///   "expect": [{"a": 0, "b": 1, "intersecting": false, "depth": 0, "normal": null,
///               "distance": 1, "closest": [[1, 0], [2, 0]], "contacts": []}]}"#;
/// assert_eq!(collidoscope::fixture::verify(fixture), Ok(1));
/// ```
pub fn verify(text: &str) -> Result<usize, FixtureError> {
    let scene =
        scene::parse(Path::new("fixture"), text.as_bytes()).map_err(FixtureError::Unreadable)?;
    let verification = check(&scene).ok_or(FixtureError::NotAFixture)?;
    if verification.is_ok() {
        Ok(verification.pairs)
    } else {
        Err(FixtureError::Drifted(verification))
    }
}

/// `|found - expected| <= tolerance * (1 + |expected|)`.
fn close(found: f64, expected: f64, tolerance: f64) -> bool {
    (found - expected).abs() <= tolerance * (1.0 + expected.abs())
}

fn close_points(found: &[DVec2], expected: &[DVec2], tolerance: f64) -> bool {
    found.len() == expected.len()
        && found
            .iter()
            .zip(expected)
            .all(|(f, e)| close(f.x, e.x, tolerance) && close(f.y, e.y, tolerance))
}

/// Call `drift` for each field of `found` that differs from `expected`.
fn compare(
    expected: &PairSummary,
    found: &PairSummary,
    tolerance: f64,
    drift: &mut dyn FnMut(&'static str, String, String),
) {
    if expected.intersecting != found.intersecting {
        drift(
            "intersecting",
            expected.intersecting.to_string(),
            found.intersecting.to_string(),
        );
    }
    if !close(found.depth, expected.depth, tolerance) {
        drift(
            "depth",
            exact_number(expected.depth),
            exact_number(found.depth),
        );
    }
    let normal = |n: Option<DVec2>| n.map(|n| vec![n]).unwrap_or_default();
    let (en, fnormal) = (normal(expected.normal), normal(found.normal));
    if expected.normal.is_some() != found.normal.is_some()
        || !close_points(&fnormal, &en, tolerance)
    {
        drift("normal", json(&expected.normal), json(&found.normal));
    }
    if !close(found.distance, expected.distance, tolerance) {
        drift(
            "distance",
            exact_number(expected.distance),
            exact_number(found.distance),
        );
    }
    let closest = |c: Option<[DVec2; 2]>| c.map(|c| c.to_vec()).unwrap_or_default();
    if expected.closest.is_some() != found.closest.is_some()
        || !close_points(
            &closest(found.closest),
            &closest(expected.closest),
            tolerance,
        )
    {
        drift("closest", json(&expected.closest), json(&found.closest));
    }
    let swapped: Vec<DVec2> = found.contacts.iter().rev().copied().collect();
    if !close_points(&found.contacts, &expected.contacts, tolerance)
        && !close_points(&swapped, &expected.contacts, tolerance)
    {
        drift("contacts", json(&expected.contacts), json(&found.contacts));
    }
}

fn json(value: &impl serde::Serialize) -> String {
    serde_json::to_string(value).expect("results serialise")
}

/// How the generated test finds its fixture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Include {
    /// Relative to the Cargo project's root (`CARGO_MANIFEST_DIR`): the test finds the fixture
    /// wherever it is moved inside the project (into `tests/`, most likely).
    FromProject(String),
    /// Relative to the test file's folder, as `include_str!` reads a plain path: for files
    /// written outside a Cargo project, to be moved into one together.
    BesideTest(String),
}

impl Include {
    /// The argument of `include_str!` in the generated test.
    pub fn argument(&self) -> String {
        match self {
            Include::FromProject(path) => {
                format!(
                    "concat!(env!(\"CARGO_MANIFEST_DIR\"), {:?})",
                    format!("/{path}")
                )
            }
            Include::BesideTest(path) => format!("{path:?}"),
        }
    }
}

/// The text of a Rust test that checks the fixture through [`verify`]; `name` becomes the
/// test's name.
pub fn rust_test(include: &Include, name: &str, pairs: usize) -> String {
    let ident: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    let ident = ident.trim_matches('_');
    let ident = if ident.is_empty() { "case" } else { ident };
    let found = match include {
        Include::FromProject(path) => format!(
            "//! It reads the fixture from `{path}` in this project (wherever this file is moved)."
        ),
        Include::BesideTest(path) => format!(
            "//! It reads the fixture from `{path}`, relative to this file: move the two together."
        ),
    };
    format!(
        r#"//! Generated by collidoscope (`collidoscope fixture`, or File > Export fixture in its
//! window): {pairs} pair(s) pinned to their exact results.
{found}
//! Needs, in Cargo.toml (collidoscope is not on crates.io: point `path` at its source):
//!     [dev-dependencies]
//!     collidoscope = {{ path = {source:?}, default-features = false }}

#[test]
fn fixture_{ident}() {{
    if let Err(problem) = collidoscope::fixture::verify(include_str!({argument})) {{
        panic!("{{problem}}");
    }}
}}
"#,
        argument = include.argument(),
        source = env!("CARGO_MANIFEST_DIR"),
    )
}

/// Write the fixture of `scene`'s `pairs` (every pair when `None`) to `output` and, with
/// `rust`, the test that checks it, both atomically. Returns what was written, one line per
/// file; the error names the file.
pub fn export(
    scene: &Scene,
    pairs: Option<&[(usize, usize)]>,
    output: &Path,
    rust: Option<&Path>,
) -> Result<Vec<String>, String> {
    let made = make(scene, pairs);
    let count = made.expect.as_ref().map_or(0, Vec::len);
    // `-o tests/fixtures/bug.json` in a project with no tests/fixtures yet: make the folders.
    for file in std::iter::once(output).chain(rust) {
        if let Some(folder) = file.parent().filter(|f| !f.as_os_str().is_empty()) {
            std::fs::create_dir_all(folder)
                .map_err(|e| format!("{}: cannot make the folder: {e}", folder.display()))?;
        }
    }
    scene::save(&made, output).map_err(|e| e.to_string())?;
    let mut written = vec![format!(
        "wrote {}: {} shapes, {count} pinned pair{}",
        output.display(),
        scene.shapes.len(),
        if count == 1 { "" } else { "s" }
    )];
    let Some(rust) = rust else {
        return Ok(written);
    };
    let include = include_for(rust, output).map_err(|e| {
        format!(
            "{}: cannot place the test beside the fixture: {e}",
            rust.display()
        )
    })?;
    let name = output
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let text = rust_test(&include, &name, count);
    files::write_atomically(rust, text.as_bytes())
        .map_err(|e| format!("{}: cannot save: {e}", rust.display()))?;
    written.push(format!(
        "wrote {}: include_str!({})",
        rust.display(),
        include.argument()
    ));
    written.extend(where_cargo_runs_it(rust));
    Ok(written)
}

/// The folder of `path` (a file that may not exist yet), canonical.
fn folder_of(path: &Path) -> Option<PathBuf> {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.canonicalize().ok(),
        _ => Path::new(".").canonicalize().ok(),
    }
}

/// The Cargo project (the nearest folder with a `Cargo.toml`) that holds the file `path`,
/// canonical.
fn project_of(path: &Path) -> Option<PathBuf> {
    folder_of(path)?
        .ancestors()
        .find(|dir| dir.join("Cargo.toml").is_file())
        .map(Path::to_path_buf)
}

/// How the test at `test` should find the fixture at `fixture` (both written already): from
/// the project's root when both are in one Cargo project, else relative to the test.
fn include_for(test: &Path, fixture: &Path) -> std::io::Result<Include> {
    if let (Some(project), Some(test_project)) = (project_of(fixture), project_of(test))
        && project == test_project
    {
        let fixture = fixture.canonicalize()?;
        let inside = fixture
            .strip_prefix(&project)
            .expect("the project holds the fixture");
        return Ok(Include::FromProject(slash_path(inside.components())));
    }
    include_path(test, fixture).map(Include::BesideTest)
}

/// A note when Cargo would not run the test where it was written: it runs the files directly
/// in a project's `tests/` folder.
fn where_cargo_runs_it(test: &Path) -> Option<String> {
    let Some(project) = project_of(test) else {
        return Some(format!(
            "note: {} is in no Cargo project: move it, with the fixture beside it, into a project's tests/ folder",
            test.display()
        ));
    };
    let tests = project.join("tests");
    (folder_of(test).as_deref() != Some(tests.as_path())).then(|| {
        format!(
            "note: cargo test runs only the files in {}: move {} there (it finds the fixture from anywhere in the project)",
            tests.display(),
            test.display()
        )
    })
}

fn slash_path<'a>(components: impl Iterator<Item = Component<'a>>) -> String {
    components
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
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
