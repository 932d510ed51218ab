//! Reading a shape-set file: every rule of the format checked, one message for the first
//! problem, naming the place.
//!
//! The text is parsed to a JSON value first (so a syntax error has its line and column), then
//! walked by hand: that is what lets a message name the shape (index, name, kind) and the
//! field, refuse unknown keys by name, and suggest the key that was probably meant.

use super::read_pairs::{read_claims, read_expect, read_tolerance};
use super::{Body, FORMAT, Motion, Precision, Scene, SceneShape, VERSION, shape_label};
use crate::files::huge;
use crate::files::{
    Fields, FileError, Problem, as_point, describe, point_error, quoted_key, suggestion,
    syntax_problem,
};
use crate::geometry::{
    Capsule, Chain, Circle, ConvexPolygon, DVec2, Placed, Pose, Segment, Shape, ShapeError,
    ShapeKind,
};
use serde_json::{Map, Value};
use std::path::Path;

/// Read and check the shape-set file at `path`.
pub fn load(path: &Path) -> Result<Scene, FileError> {
    let bytes = std::fs::read(path)
        .map_err(|e| FileError::new(path, Problem::io("cannot read the file", e)))?;
    parse(path, &bytes)
}

/// Check the bytes of a shape-set file; `path` only names it in messages.
pub fn parse(path: &Path, bytes: &[u8]) -> Result<Scene, FileError> {
    parse_document(bytes).map_err(|problem| FileError::new(path, problem))
}

/// What reading a capture as a shape set says.
const NOT_A_SHAPE_SET: &str = "a capture (a game's frames, docs/format.md \"Captures\"), not a shape set: `collidoscope diagnose FILE` judges its claims, `collidoscope FILE` opens it in the capture lab, and `collidoscope fixture FILE --frame N -o OUT.json` pins frame N as a shape set";

fn parse_document(bytes: &[u8]) -> Result<Scene, Problem> {
    let text = std::str::from_utf8(bytes).map_err(|e| Problem::NotText {
        offset: e.valid_up_to(),
    })?;
    if text.trim().is_empty() {
        return Err(Problem::Empty);
    }
    let value: Value = serde_json::from_str(text).map_err(|e| {
        // A capture's lines are JSON objects one after another: not a shape set, said so.
        let first = text.lines().next().unwrap_or("");
        let capture = serde_json::from_str::<Value>(first).is_ok_and(|top| {
            top.get("format").and_then(Value::as_str) == Some("collidoscope-capture")
        });
        match capture {
            true => Problem::Document(NOT_A_SHAPE_SET.into()),
            false => syntax_problem(e),
        }
    })?;
    let Value::Object(top) = value else {
        return Err(Problem::Document(format!(
            "expected a JSON object with \"format\", \"version\" and \"shapes\", found {}",
            describe(&value)
        )));
    };
    let version = check_format_and_version(&top)?;
    let allowed = &TOP_KEYS[..TOP_KEYS_UP_TO[version as usize - 1]];
    if let Some(key) = top.keys().find(|k| !allowed.contains(&k.as_str())) {
        return Err(Problem::Document(format!(
            "unknown key {} at the top level{}",
            quoted_key(key),
            suggestion_or_version(key, allowed, top_key_version, version)
        )));
    }
    let shapes = match top.get("shapes") {
        None => return Err(Problem::Document("missing key \"shapes\"".into())),
        Some(Value::Array(shapes)) => shapes,
        Some(other) => {
            return Err(Problem::Document(format!(
                "\"shapes\" must be an array, found {}",
                describe(other)
            )));
        }
    };
    let shapes: Vec<SceneShape> = shapes
        .iter()
        .enumerate()
        .map(|(index, value)| parse_shape(index, value, version))
        .collect::<Result<_, _>>()?;
    let count = shapes.len();
    let mut scene = Scene::from_shapes(shapes);
    scene.claims = read_claims(top.get("claims"), count)?;
    scene.expect = read_expect(top.get("expect"), count)?;
    scene.tolerance = read_tolerance(top.get("tolerance"))?;
    check_pieces(&scene)?;
    let fields = Fields(&top);
    scene.gravity = fields
        .optional_point("gravity")
        .map_err(|m| Problem::Document(m.replacen("\"gravity\"", "top-level \"gravity\"", 1)))?;
    scene.precision = match top.get("precision") {
        None => None,
        Some(Value::String(p)) if p == "f64" => Some(Precision::F64),
        Some(Value::String(p)) if p == "f32" => Some(Precision::F32),
        Some(other) => {
            return Err(Problem::Document(format!(
                "\"precision\" must be \"f64\" or \"f32\", found {}",
                describe(other)
            )));
        }
    };
    Ok(scene)
}

/// Claims on a pair with a chain name one of its pieces; others name none; two chains have
/// no claims.
fn check_pieces(scene: &Scene) -> Result<(), Problem> {
    let label = |i: usize| {
        let s = &scene.shapes[i];
        shape_label(i, s.name.as_deref(), Some(s.placed.shape.kind()))
    };
    for (k, claim) in scene.claims.iter().enumerate() {
        let (i, j) = (claim.a.0 as usize, claim.b.0 as usize);
        let shape = |i: usize| (&scene.shapes[i].placed.shape, label(i));
        piece_problem(claim.reported.piece, shape(i), shape(j))
            .map_err(|message| Problem::Document(format!("claim {k}: {message}")))?;
    }
    Ok(())
}

/// Whether a claim's `piece` fits its pair (each shape with its label for the message): a
/// pair with a chain names one of its pieces, any other pair none, and two chains are no pair.
pub(crate) fn piece_problem(
    piece: Option<usize>,
    (a, label_a): (&Shape, String),
    (b, label_b): (&Shape, String),
) -> Result<(), String> {
    let (label, of) = match (a.as_chain(), b.as_chain()) {
        (Some(_), Some(_)) => {
            return Err(format!(
                "{label_a} and {label_b} are both chains: two chains never collide"
            ));
        }
        (Some(c), None) => (label_a, c),
        (None, Some(c)) => (label_b, c),
        (None, None) => {
            return match piece {
                Some(piece) => Err(format!(
                    "\"piece\": {piece} is only for a pair with a chain, and neither {label_a} nor {label_b} is one"
                )),
                None => Ok(()),
            };
        }
    };
    let pieces = of.piece_numbers();
    let range = format!("{} to {}", pieces.start, pieces.end - 1);
    match piece {
        None => Err(format!(
            "{label} is a chain: say which piece (\"piece\": {range})"
        )),
        Some(piece) if !of.has_piece(piece) => Err(format!(
            "\"piece\": {piece} is not a piece of {label} (its pieces are {range})"
        )),
        Some(_) => Ok(()),
    }
}

/// The top-level keys, in the order versions added them.
const TOP_KEYS: [&str; 8] = [
    "format",
    "version",
    "shapes",
    "claims",
    "expect",
    "tolerance",
    "gravity",
    "precision",
];

/// How many of [`TOP_KEYS`] each version (1, 2, 3, 4) has.
const TOP_KEYS_UP_TO: [usize; 4] = [3, 6, 8, 8];

/// ` (did you mean ...?)`, or, for a key of a newer version (`needs` tells which version a
/// key came with), which version it needs.
fn suggestion_or_version(
    key: &str,
    allowed: &[&str],
    needs: impl Fn(&str) -> Option<u64>,
    version: u64,
) -> String {
    match needs(key) {
        Some(needed) if needed > version => {
            format!(" (a version-{needed} key: this file says \"version\": {version})")
        }
        _ => suggestion(key, allowed),
    }
}

/// The version that added top-level `key`.
fn top_key_version(key: &str) -> Option<u64> {
    let at = TOP_KEYS.iter().position(|k| *k == key)?;
    let before = TOP_KEYS_UP_TO.iter().position(|&up_to| at < up_to)?;
    Some(before as u64 + 1)
}

/// The file's version, once the format is right.
fn check_format_and_version(top: &Map<String, Value>) -> Result<u64, Problem> {
    match top.get("format") {
        Some(Value::String(f)) if f == FORMAT => {}
        Some(other) => {
            return Err(Problem::Document(format!(
                "\"format\" must be {FORMAT:?}, found {}",
                describe(other)
            )));
        }
        None => {
            return Err(Problem::Document(format!(
                "missing key \"format\" (a shape-set file says \"format\": {FORMAT:?})"
            )));
        }
    }
    match top.get("version") {
        Some(v) if matches!(v.as_u64(), Some(1..=VERSION)) => Ok(v.as_u64().unwrap_or(1)),
        Some(other) => Err(Problem::Document(format!(
            "version {} is not supported: this build reads versions 1 to {VERSION}",
            describe(other)
        ))),
        None => Err(Problem::Document("missing key \"version\"".into())),
    }
}

/// The keys every shape may have, and those of each kind; version 2 adds the motion keys.
const COMMON_KEYS: [&str; 4] = ["name", "kind", "position", "angle"];
const MOTION_KEYS: [&str; 3] = ["body", "velocity", "angular_velocity"];

fn kind_keys(kind: ShapeKind) -> &'static [&'static str] {
    match kind {
        ShapeKind::Circle => &["radius"],
        ShapeKind::Capsule => &["a", "b", "radius"],
        ShapeKind::Polygon => &["points", "radius"],
        ShapeKind::Segment => &["a", "b"],
        ShapeKind::Chain => &["points", "loop"],
    }
}

/// A packet log's player: a shape in the shape-set format without `position`, `angle` or
/// motion keys. Messages name it as `player 2 "p3" (circle)`.
pub(crate) fn parse_player(
    index: usize,
    value: &Value,
) -> Result<(Option<String>, Shape), Problem> {
    let as_player = |problem: Problem| match problem {
        Problem::Shape {
            index,
            label,
            message,
            field,
        } => Problem::Shape {
            index,
            label: label.replacen("shape", "player", 1),
            message,
            field,
        },
        other => other,
    };
    if let Value::Object(fields) = value
        && let Some(key) = ["position", "angle"]
            .iter()
            .chain(&MOTION_KEYS)
            .find(|k| fields.contains_key(**k))
    {
        let name = fields.get("name").and_then(Value::as_str);
        return Err(as_player(Problem::Shape {
            index,
            label: shape_label(index, name, None),
            message: format!("a player has no {key:?}: its poses come from its packets"),
            field: None,
        }));
    }
    let shape = parse_shape(index, value, 1).map_err(as_player)?;
    Ok((shape.name, shape.placed.shape))
}

pub(crate) fn parse_shape(
    index: usize,
    value: &Value,
    version: u64,
) -> Result<SceneShape, Problem> {
    let fail_with =
        |name: Option<&str>, kind: Option<ShapeKind>, problem: KeyProblem| Problem::Shape {
            index,
            label: shape_label(index, name, kind),
            message: problem.message,
            field: problem.field,
        };
    let fail = |name: Option<&str>, kind: Option<ShapeKind>, message: String| {
        fail_with(name, kind, message.into())
    };
    let Value::Object(fields) = value else {
        return Err(fail(
            None,
            None,
            format!("expected an object, found {}", describe(value)),
        ));
    };
    let name = match fields.get("name") {
        None => None,
        Some(Value::String(name)) => Some(name.as_str()),
        Some(other) => {
            return Err(fail(
                None,
                None,
                format!("\"name\" must be a string, found {}", describe(other)),
            ));
        }
    };
    let kind = match fields.get("kind") {
        Some(Value::String(k)) => ShapeKind::ALL
            .into_iter()
            .find(|kind| kind.name() == k)
            .ok_or_else(|| {
                fail(
                    name,
                    None,
                    format!("\"kind\" must be {KIND_NAMES}, found {k:?}"),
                )
            })?,
        Some(other) => {
            return Err(fail(
                name,
                None,
                format!("\"kind\" must be a string, found {}", describe(other)),
            ));
        }
        None => {
            return Err(fail(
                name,
                None,
                format!("missing key \"kind\" ({KIND_NAMES})"),
            ));
        }
    };
    let fail = |problem: KeyProblem| fail_with(name, Some(kind), problem);
    if kind.is_static_only() && version < 3 {
        return Err(fail(
            format!(
                "kind {:?} needs version 3 (this file is version {version})",
                kind.name()
            )
            .into(),
        ));
    }
    // A polygon's radius (a rounded polygon) came with version 4.
    let rounded = |k: &str| kind == ShapeKind::Polygon && k == "radius";
    let mut allowed: Vec<&str> = COMMON_KEYS
        .iter()
        .chain(kind_keys(kind))
        .copied()
        .filter(|k| version >= 4 || !rounded(k))
        .collect();
    let with_motion: Vec<&str> = allowed.iter().chain(&MOTION_KEYS).copied().collect();
    if version >= 2 {
        allowed = with_motion.clone();
    }
    if let Some(key) = fields.keys().find(|k| !allowed.contains(&k.as_str())) {
        let hint = if kind == ShapeKind::Segment && key == "radius" {
            " (a segment has no radius; a capsule does)".to_string()
        } else if rounded(key) {
            format!(
                " (a rounded polygon's radius is a version-4 key: this file says \"version\": {version})"
            )
        } else {
            let motion = |k: &str| MOTION_KEYS.contains(&k).then_some(2);
            suggestion_or_version(key, &allowed, motion, version)
        };
        return Err(fail(
            format!("unknown key {}{hint}", quoted_key(key)).into(),
        ));
    }
    let fields = Fields(fields);
    let place = || -> Result<Placed, KeyProblem> {
        let position = fields.optional_point("position")?.unwrap_or(DVec2::ZERO);
        let angle = fields.optional_number("angle")?.unwrap_or(0.0);
        let placed = Placed::new(build_shape(kind, &fields)?, Pose::new(position, angle));
        // Each number finite is not enough: placed, the shape must stay within finite numbers
        // (a polygon at 1e308 would reach infinity, and every query on it give NaN).
        let (lo, hi) = placed.aabb();
        if !(lo.is_finite() && hi.is_finite() && (hi - lo).is_finite()) {
            return Err(KeyProblem::about(
                "position",
                format!(
                    "\"position\" [{}, {}]: placed there, the shape reaches beyond the largest finite number (its bounding box is [{}, {}] to [{}, {}]): move it nearer the origin",
                    huge(position.x),
                    huge(position.y),
                    huge(lo.x),
                    huge(lo.y),
                    huge(hi.x),
                    huge(hi.y)
                ),
            ));
        }
        Ok(placed)
    };
    let placed = place().map_err(&fail)?;
    let motion = read_motion(&fields, kind).map_err(fail)?;
    Ok(SceneShape {
        id: super::ShapeId(index as u32),
        name: name.map(str::to_string),
        placed,
        motion,
    })
}

/// `body`, `velocity` and `angular_velocity` (absent in version 1, so the defaults). Segments
/// and chains are static geometry: any other body, or motion, is refused.
fn read_motion(fields: &Fields, kind: ShapeKind) -> Result<Motion, KeyProblem> {
    let body = match fields.0.get("body") {
        None => Body::Static,
        Some(Value::String(b)) => Body::ALL
            .into_iter()
            .find(|body| body.name() == b)
            .ok_or_else(|| {
                format!("\"body\" must be \"static\", \"kinematic\" or \"dynamic\", found {b:?}")
            })?,
        Some(other) => {
            return Err(format!("\"body\" must be a string, found {}", describe(other)).into());
        }
    };
    let motion = Motion {
        body,
        velocity: fields.optional_point("velocity")?.unwrap_or(DVec2::ZERO),
        angular_velocity: fields.optional_number("angular_velocity")?.unwrap_or(0.0),
    };
    if kind.is_static_only() && (body != Body::Static || motion.moves()) {
        let what = if body != Body::Static {
            format!("body {:?}", body.name())
        } else {
            format!(
                "velocity [{}, {}] and angular_velocity {}",
                motion.velocity.x, motion.velocity.y, motion.angular_velocity
            )
        };
        return Err(KeyProblem::about(
            if body != Body::Static {
                "body"
            } else {
                moving_key(&motion)
            },
            format!("a {kind} is static geometry: it cannot have {what} or move"),
        ));
    }
    if body == Body::Static && motion.moves() {
        return Err(KeyProblem::about(
            moving_key(&motion),
            format!(
                "a static body cannot move, but it has velocity [{}, {}] and angular_velocity {}: \
                 say \"body\": \"kinematic\" or \"dynamic\", or remove the velocity",
                motion.velocity.x, motion.velocity.y, motion.angular_velocity
            ),
        ));
    }
    Ok(motion)
}

/// The motion key that makes `motion` move: `velocity`, else `angular_velocity`.
fn moving_key(motion: &Motion) -> &'static str {
    if motion.velocity != DVec2::ZERO {
        "velocity"
    } else {
        "angular_velocity"
    }
}

/// What is wrong with one key of a shape: the message, and the key when the message leaves
/// it unquoted (a capture's messages quote it).
pub(crate) struct KeyProblem {
    message: String,
    field: Option<&'static str>,
}

impl KeyProblem {
    fn about(field: &'static str, message: String) -> Self {
        Self {
            message,
            field: Some(field),
        }
    }
}

impl From<String> for KeyProblem {
    /// A message that quotes its own key.
    fn from(message: String) -> Self {
        Self {
            message,
            field: None,
        }
    }
}

impl From<ShapeError> for KeyProblem {
    fn from(e: ShapeError) -> Self {
        Self {
            message: e.to_string(),
            field: e.field(),
        }
    }
}

fn build_shape(kind: ShapeKind, fields: &Fields) -> Result<Shape, KeyProblem> {
    let shape_error = KeyProblem::from;
    Ok(match kind {
        ShapeKind::Circle => Circle::new(fields.number("radius")?)
            .map_err(shape_error)?
            .into(),
        ShapeKind::Capsule => {
            let (a, b) = (fields.point("a")?, fields.point("b")?);
            Capsule::new(a, b, fields.number("radius")?)
                .map_err(shape_error)?
                .into()
        }
        ShapeKind::Polygon => {
            let polygon = ConvexPolygon::new(points_of(fields)?).map_err(shape_error)?;
            match fields.optional_number("radius")? {
                Some(r) => polygon.with_radius(r).map_err(shape_error)?,
                None => polygon,
            }
            .into()
        }
        ShapeKind::Segment => {
            let (a, b) = (fields.point("a")?, fields.point("b")?);
            Segment::new(a, b).map_err(shape_error)?.into()
        }
        ShapeKind::Chain => {
            let looped = match fields.0.get("loop") {
                None => false,
                Some(Value::Bool(b)) => *b,
                Some(other) => {
                    return Err(format!(
                        "\"loop\" must be true or false, found {}",
                        describe(other)
                    )
                    .into());
                }
            };
            Chain::new(points_of(fields)?, looped)
                .map_err(shape_error)?
                .into()
        }
    })
}

/// The `points` list of a polygon or chain.
fn points_of(fields: &Fields) -> Result<Vec<DVec2>, String> {
    match fields.0.get("points") {
        Some(Value::Array(points)) => points
            .iter()
            .enumerate()
            .map(|(i, p)| as_point(p).ok_or_else(|| point_error(&format!("point {i}"), p)))
            .collect(),
        Some(other) => Err(format!(
            "\"points\" must be an array of [x, y] points, found {}",
            describe(other)
        )),
        None => Err("missing key \"points\"".into()),
    }
}

/// The kinds a file may name, in words.
const KIND_NAMES: &str = "\"circle\", \"capsule\", \"polygon\", \"segment\" or \"chain\"";
