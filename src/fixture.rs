//! Fixtures: a shape set that pins the exact results of some pairs (`expect`), so a case seen
//! in the window becomes a test. [`make`] adds the expectations, [`check`] recomputes them and
//! lists every field that drifted, and [`verify`] does both from a file's text: the entry point
//! the Rust test that `collidoscope fixture --rust` writes calls (it needs no GUI or
//! command-line crate: `collidoscope = { ..., default-features = false }`).
//!
//! A field agrees when `|found - expected| <= tolerance * (1 + |expected|)` (the file's
//! `tolerance`, default 1e-9); vectors compare component by component; two contact points may
//! come in either order.
//!
//! A fixture also holds what an engine said: its `claims` (the file's, or a capture frame's).
//! [`verify`] judges each against the exact result at the file's `precision`, as `diagnose`
//! does, so a test made from a wrong contact fails while the contact is wrong.
//! [`verify_engine`] asks the engine itself again: it rebuilds each pinned pair in an engine's
//! narrow phase (a [`NarrowPhase`]: Box2D's `b2Collide*` functions, or parry's contact
//! manifolds as Rapier and Avian call them, behind the adapters' features) and judges the
//! engine's answer against the pinned exact one at f32, so the test fails while the engine
//! disagrees and passes once the engine, or the case, is fixed.

use crate::files::{self, FileError};
use crate::geometry::{DVec2, Placed};
use crate::query::{PairSummary, chain_piece, pair_records, summarize};
use crate::scene::{self, DEFAULT_TOLERANCE, Expected, ExpectedPiece, Precision, Scene};
use crate::text::exact_number;
use crate::{ContactCheck, Reported, check_contact_at};
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
    /// Every claim that disagrees with the exact result: the fixture's own (from [`verify`]),
    /// or the engine's answers (from [`verify_engine`]).
    pub disagreements: Vec<Disagreement>,
}

impl Verification {
    /// Whether every pinned field still agrees (and, once judged, every claim).
    pub fn is_ok(&self) -> bool {
        self.drifts.is_empty() && self.disagreements.is_empty()
    }
}

/// A claim about a pinned pair that disagrees with the exact result: one of the fixture's
/// claims, or what an engine's narrow phase answers for the pair now.
#[derive(Clone, Debug, PartialEq)]
pub struct Disagreement {
    /// The pair (list positions).
    pub pair: (usize, usize),
    /// The pair's shapes by name (`#i` for an unnamed one).
    pub names: (String, String),
    /// Who claimed it: `the fixture's claim`, or the engine (`Box2D 3.2.0 (b2Collide*)`).
    pub by: String,
    /// The claim (for an engine that cannot take the pair, none: apart).
    pub claimed: Reported,
    /// The claim judged against the exact result, or why the engine cannot take the pair.
    pub check: Result<ContactCheck, String>,
}

impl fmt::Display for Disagreement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let piece = self
            .claimed
            .piece
            .map(|p| format!(" piece {p}"))
            .unwrap_or_default();
        let (names, pair, by) = (&self.names, self.pair, &self.by);
        let start = format!(
            "pair {} / {} ({} {}){piece}",
            names.0, names.1, pair.0, pair.1
        );
        match &self.check {
            Ok(check) => write!(
                f,
                "{start}: {by} disagrees:\n    {}",
                check.to_string().trim_end().replace('\n', "\n    ")
            ),
            Err(why) => write!(f, "{start}: {by} cannot take the pair: {why}"),
        }
    }
}

/// Who made a [`Disagreement`] that is one of the fixture's own claims.
const FIXTURES_CLAIM: &str = "the fixture's claim";

/// An engine's narrow phase, asked again for a fixture's pinned pairs by [`verify_engine`]:
/// what a generated engine test (`collidoscope fixture --rust TEST.rs --engine NAME`) checks.
/// The adapters implement it behind their features (`capture::box2d::Box2dNarrowPhase`,
/// `capture::rapier::RapierNarrowPhase`, `capture::avian::AvianNarrowPhase`).
pub trait NarrowPhase {
    /// The engine as messages name it, with its version and the routine asked
    /// (`Box2D 3.2.0 (b2Collide*)`).
    fn name(&self) -> String;

    /// The engine's answer for `a` and `b`, A first (its normal from A toward B), rebuilt in
    /// the engine's own shapes and numbers, about piece `piece` of a chain when given; or why
    /// the engine cannot take the pair.
    fn contact(&self, a: &Placed, b: &Placed, piece: Option<usize>) -> Result<Reported, String>;
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
    /// Every pinned field holds, but some claim disagrees with the exact result: one of the
    /// fixture's claims ([`verify`]) or the engine's answer ([`verify_engine`]).
    Disagreed(Verification),
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
            FixtureError::Disagreed(v) => {
                let engine = v
                    .disagreements
                    .first()
                    .is_some_and(|d| d.by != FIXTURES_CLAIM);
                write!(
                    f,
                    "{} {} about {} pinned pair(s) disagree with the exact result:",
                    v.disagreements.len(),
                    if engine {
                        "engine answer(s)"
                    } else {
                        "claim(s) of the fixture"
                    },
                    v.pairs
                )?;
                for d in &v.disagreements {
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
    Some(Verification {
        pairs,
        drifts,
        disagreements: Vec::new(),
    })
}

/// The piece of `chain` a [`NarrowPhase`] is asked about, or why there is none: what every
/// engine rebuilds of a chain (Box2D a `b2ChainSegment`, parry a segment).
pub fn asked_piece(
    chain: &crate::geometry::Chain,
    piece: Option<usize>,
) -> Result<crate::geometry::Piece, String> {
    let k = piece.ok_or("a pair with a chain is asked about one of its pieces")?;
    chain
        .piece(k)
        .ok_or_else(|| format!("the chain has no piece {k}"))
}

/// An engine's answer for a pair from the manifolds it computed (A first, normal from A toward
/// B, negative separation when penetrating, as the adapters convert them): the deepest
/// manifold's claim ([`crate::capture::Manifold::claim`]), or apart when no manifold has a
/// point. What every [`NarrowPhase`] returns.
pub fn engine_answer(
    manifolds: &[crate::capture::Manifold],
    piece: Option<usize>,
) -> Result<Reported, String> {
    use crate::capture::{NormalFrom, Penetration};
    let deepest = |m: &crate::capture::Manifold| {
        m.points
            .iter()
            .map(|p| p.separation)
            .fold(f64::INFINITY, f64::min)
    };
    let chosen = manifolds
        .iter()
        .filter(|m| !m.points.is_empty())
        .min_by(|x, y| deepest(x).total_cmp(&deepest(y)));
    match chosen {
        Some(m) => m
            .claim(NormalFrom::AToB, Penetration::NegativeSeparation)
            .map(|(claim, _)| claim),
        None => Ok(Reported {
            piece,
            ..Reported::default()
        }),
    }
}

/// The fixture's claims about its pinned pairs that disagree with the exact result, judged at
/// the file's precision as `diagnose` judges them.
pub fn judge_claims(scene: &Scene) -> Vec<Disagreement> {
    let precision = scene.precision.unwrap_or(Precision::F64);
    let pinned = |a, b| {
        scene.expect.as_ref().is_some_and(|expect| {
            expect
                .iter()
                .any(|e| (e.a, e.b) == (a, b) || (e.a, e.b) == (b, a))
        })
    };
    scene
        .claims
        .iter()
        .filter(|c| pinned(c.a, c.b))
        .filter_map(|claim| {
            let (i, j) = scene.pair_of(claim.a, claim.b)?;
            let claimed = Reported::from(claim);
            let check = check_contact_at(
                &scene.shapes[i].placed,
                &scene.shapes[j].placed,
                &claimed,
                precision,
            );
            (!check.agrees).then(|| Disagreement {
                pair: (i, j),
                names: names(scene, i, j),
                by: FIXTURES_CLAIM.into(),
                claimed,
                check: Ok(check),
            })
        })
        .collect()
}

/// Ask `engine` for every pinned pair of `scene` (each piece of a chain pair once) and judge
/// its answers against the exact result at f32; the disagreements, in the fixture's order.
pub fn judge_engine(scene: &Scene, engine: &dyn NarrowPhase) -> Vec<Disagreement> {
    let Some(expect) = &scene.expect else {
        return Vec::new();
    };
    let by = engine.name();
    let mut out = Vec::new();
    for e in expect {
        let Some((i, j)) = scene.pair_of(e.a, e.b) else {
            continue;
        };
        let (a, b) = (&scene.shapes[i].placed, &scene.shapes[j].placed);
        let piece = e.piece.map(|p| p.piece);
        let (claimed, check) = match engine.contact(a, b, piece) {
            Ok(claimed) => {
                let check = check_contact_at(a, b, &claimed, Precision::F32);
                if check.agrees {
                    continue;
                }
                (claimed, Ok(check))
            }
            // Said as a disagreement naming why, so the test fails with the reason instead of
            // passing unchecked.
            Err(why) => (
                Reported {
                    piece,
                    ..Reported::default()
                },
                Err(why),
            ),
        };
        out.push(Disagreement {
            pair: (i, j),
            names: names(scene, i, j),
            by: by.clone(),
            claimed,
            check,
        });
    }
    out
}

fn names(scene: &Scene, i: usize, j: usize) -> (String, String) {
    (
        scene.shapes[i].display_name(i),
        scene.shapes[j].display_name(j),
    )
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
    verified(text, judge_claims)
}

/// Parse a fixture's text, check its pinned results as [`verify`] does, then ask `engine` for
/// every pinned pair and judge its answers against the pinned exact ones at f32 (the fixture's
/// own claims are not judged: the engine answers again). `Ok` with the number of pairs when
/// every field holds and every answer agrees. The entry point of the tests `collidoscope
/// fixture --rust TEST.rs --engine NAME` writes.
pub fn verify_engine(text: &str, engine: &dyn NarrowPhase) -> Result<usize, FixtureError> {
    verified(text, |scene| judge_engine(scene, engine))
}

fn verified(
    text: &str,
    judge: impl FnOnce(&Scene) -> Vec<Disagreement>,
) -> Result<usize, FixtureError> {
    let scene =
        scene::parse(Path::new("fixture"), text.as_bytes()).map_err(FixtureError::Unreadable)?;
    let mut verification = check(&scene).ok_or(FixtureError::NotAFixture)?;
    if !verification.drifts.is_empty() {
        return Err(FixtureError::Drifted(verification));
    }
    verification.disagreements = judge(&scene);
    if verification.is_ok() {
        Ok(verification.pairs)
    } else {
        Err(FixtureError::Disagreed(verification))
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

/// The engine a generated test asks again for the fixture's pairs
/// (`collidoscope fixture --rust TEST.rs --engine NAME`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TestEngine {
    /// Box2D v3 through `boxdd-sys`: `b2MakePolygon`, `b2Collide*`.
    Box2d,
    /// Rapier's narrow phase: parry's contact manifolds through `rapier2d::parry`, for
    /// rapier2d 0.36 (feature `rapier2d`).
    Rapier2d,
    /// The same for rapier2d 0.35 (feature `rapier2d-0-35`).
    Rapier2d035,
    /// The same for rapier2d 0.34 (feature `rapier2d-0-34`).
    Rapier2d034,
    /// Avian's narrow phase: its `contact_manifolds` (parry's, through `avian2d`).
    Avian2d,
}

impl TestEngine {
    /// Every engine, in the order `--engine` lists them.
    pub const ALL: [TestEngine; 5] = [
        TestEngine::Rapier2d,
        TestEngine::Rapier2d035,
        TestEngine::Rapier2d034,
        TestEngine::Box2d,
        TestEngine::Avian2d,
    ];

    /// The name `--engine` takes, which is also the collidoscope feature the test needs.
    pub fn name(self) -> &'static str {
        match self {
            TestEngine::Box2d => "box2d",
            TestEngine::Rapier2d => "rapier2d",
            TestEngine::Rapier2d035 => "rapier2d-0-35",
            TestEngine::Rapier2d034 => "rapier2d-0-34",
            TestEngine::Avian2d => "avian2d",
        }
    }

    /// The engine named `name`, as `--engine` takes it.
    pub fn named(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|e| e.name() == name)
    }

    /// The engine (and for Rapier the version's feature) that made a capture whose header
    /// names `engine` at `version`, if the test can ask it.
    pub fn of_capture(engine: &str, version: &str) -> Option<Self> {
        match (
            engine,
            version.split('.').take(2).collect::<Vec<_>>().as_slice(),
        ) {
            ("box2d", _) => Some(TestEngine::Box2d),
            ("avian2d", _) => Some(TestEngine::Avian2d),
            ("rapier2d", ["0", "34"]) => Some(TestEngine::Rapier2d034),
            ("rapier2d", ["0", "35"]) => Some(TestEngine::Rapier2d035),
            ("rapier2d", ["0", "36"]) => Some(TestEngine::Rapier2d),
            _ => None,
        }
    }

    /// Whether this is one of the Rapier versions.
    pub fn is_rapier(self) -> bool {
        matches!(
            self,
            TestEngine::Rapier2d | TestEngine::Rapier2d035 | TestEngine::Rapier2d034
        )
    }

    /// The [`NarrowPhase`] the generated test passes to [`verify_engine`].
    fn narrow_phase(self) -> &'static str {
        match self {
            TestEngine::Box2d => "collidoscope::capture::box2d::Box2dNarrowPhase",
            TestEngine::Rapier2d => "collidoscope::capture::rapier::RapierNarrowPhase::default()",
            TestEngine::Rapier2d035 => {
                "collidoscope::capture::rapier_0_35::RapierNarrowPhase::default()"
            }
            TestEngine::Rapier2d034 => {
                "collidoscope::capture::rapier_0_34::RapierNarrowPhase::default()"
            }
            TestEngine::Avian2d => "collidoscope::capture::avian::AvianNarrowPhase::default()",
        }
    }

    /// What the generated test asks of the engine, for its comment.
    fn asks(self) -> &'static str {
        match self {
            TestEngine::Box2d => {
                "//! Each pinned pair is rebuilt in Box2D (b2MakePolygon, b2Circle, b2Capsule, b2Segment,\n\
                 //! b2ChainSegment, from the fixture's numbers rounded to f32) and asked again through\n\
                 //! b2Collide*; its manifold is judged against the pinned exact result at f32."
            }
            TestEngine::Rapier2d | TestEngine::Rapier2d035 | TestEngine::Rapier2d034 => {
                "//! Each pinned pair is rebuilt in parry's shapes (Ball, Cuboid, Capsule, ConvexPolygon,\n\
                 //! Segment, at f32) and asked again for its contact manifolds as Rapier's narrow phase\n\
                 //! asks (rapier2d::parry's default query dispatcher, Rapier's default prediction\n\
                 //! distance); the manifold is judged against the pinned exact result at f32."
            }
            TestEngine::Avian2d => {
                "//! Each pinned pair is rebuilt as Avian colliders (f32) and asked again for its contact\n\
                 //! manifolds through Avian's own narrow-phase query (avian2d::collision::\n\
                 //! contact_query::contact_manifolds, its default speculative margin); the manifold is\n\
                 //! judged against the pinned exact result at f32."
            }
        }
    }
}

/// A Rust test to write beside a fixture: its file, and the engine it asks again, if any.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RustTest<'a> {
    /// The test file.
    pub path: &'a Path,
    /// `None`: the test checks the pinned results and the fixture's own claims ([`verify`]).
    /// `Some`: it asks that engine again for every pinned pair ([`verify_engine`]).
    pub engine: Option<TestEngine>,
}

impl<'a> RustTest<'a> {
    /// A test that checks the fixture through [`verify`].
    pub fn plain(path: &'a Path) -> Self {
        Self { path, engine: None }
    }
}

/// The text of a Rust test that checks the fixture through [`verify`] (or, for an engine,
/// [`verify_engine`]); `name` becomes the test's name.
pub fn rust_test(
    include: &Include,
    name: &str,
    pairs: usize,
    engine: Option<TestEngine>,
) -> String {
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
    let argument = include.argument();
    let source = env!("CARGO_MANIFEST_DIR");
    let Some(engine) = engine else {
        return format!(
            r#"//! Generated by collidoscope (`collidoscope fixture`, or File > Export fixture in its
//! window): {pairs} pair(s) pinned to their exact results.
{found}
//! It fails when a pinned result drifts, or when one of the fixture's claims (what the engine
//! said) disagrees with the exact result: while the contact it pins is wrong.
//! Needs, in Cargo.toml (collidoscope is not on crates.io: point `path` at its source):
//!     [dev-dependencies]
//!     collidoscope = {{ path = {source:?}, default-features = false }}

#[test]
fn fixture_{ident}() {{
    if let Err(problem) = collidoscope::fixture::verify(include_str!({argument})) {{
        panic!("{{problem}}");
    }}
}}
"#
        );
    };
    let feature = engine.name();
    let ident_feature = feature.replace('-', "_");
    let asks = engine.asks();
    let narrow_phase = engine.narrow_phase();
    format!(
        r#"//! Generated by collidoscope (`collidoscope fixture --engine {feature}`): {pairs} pair(s)
//! pinned to their exact results, and asked again of the engine.
{found}
{asks}
//! It fails while the engine disagrees with a pinned pair, and passes once the engine, or the
//! case, is fixed.
//! Needs, in Cargo.toml (collidoscope is not on crates.io: point `path` at its source; the
//! `{feature}` feature links the engine your game already depends on):
//!     [dev-dependencies]
//!     collidoscope = {{ path = {source:?}, default-features = false, features = ["{feature}"] }}

#[test]
fn fixture_{ident}_{ident_feature}() {{
    let fixture = include_str!({argument});
    let engine = {narrow_phase};
    if let Err(problem) = collidoscope::fixture::verify_engine(fixture, &engine) {{
        panic!("{{problem}}");
    }}
}}
"#
    )
}

/// Write the fixture of `scene`'s `pairs` (every pair when `None`) to `output` and, with
/// `rust`, the test that checks it, both atomically. Returns what was written, one line per
/// file; the error names the file.
pub fn export(
    scene: &Scene,
    pairs: Option<&[(usize, usize)]>,
    output: &Path,
    rust: Option<RustTest>,
) -> Result<Vec<String>, String> {
    let made = make(scene, pairs);
    let count = made.expect.as_ref().map_or(0, Vec::len);
    // `-o tests/fixtures/bug.json` in a project with no tests/fixtures yet: make the folders.
    for file in std::iter::once(output).chain(rust.map(|r| r.path)) {
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
    let Some(RustTest { path: rust, engine }) = rust else {
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
    let text = rust_test(&include, &name, count, engine);
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
