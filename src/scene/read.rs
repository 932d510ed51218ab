//! Reading a shape-set file: every rule of the format checked, one message for the first
//! problem, naming the place.
//!
//! The text is parsed to a JSON value first (so a syntax error has its line and column), then
//! walked by hand: that is what lets a message name the shape (index, name, kind) and the
//! field, refuse unknown keys by name, and suggest the key that was probably meant.

use super::read_pairs::{read_claims, read_expect, read_tolerance};
use super::{Body, FORMAT, Motion, Scene, SceneShape, VERSION, shape_label};
use crate::files::{
    Fields, FileError, Problem, as_point, describe, point_error, suggestion, syntax_problem,
};
use crate::geometry::{
    Capsule, Circle, ConvexPolygon, DVec2, Placed, Pose, Shape, ShapeError, ShapeKind,
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

fn parse_document(bytes: &[u8]) -> Result<Scene, Problem> {
    let text = std::str::from_utf8(bytes).map_err(|e| Problem::NotText {
        offset: e.valid_up_to(),
    })?;
    if text.trim().is_empty() {
        return Err(Problem::Empty);
    }
    let value: Value = serde_json::from_str(text).map_err(syntax_problem)?;
    let Value::Object(top) = value else {
        return Err(Problem::Document(format!(
            "expected a JSON object with \"format\", \"version\" and \"shapes\", found {}",
            describe(&value)
        )));
    };
    let version = check_format_and_version(&top)?;
    let allowed: &[&str] = if version == 1 {
        &TOP_KEYS[..3]
    } else {
        &TOP_KEYS
    };
    if let Some(key) = top.keys().find(|k| !allowed.contains(&k.as_str())) {
        return Err(Problem::Document(format!(
            "unknown key {key:?} at the top level{}",
            suggestion_or_version(key, allowed, &TOP_KEYS)
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
    Ok(scene)
}

/// The top-level keys: version 1 has the first three.
const TOP_KEYS: [&str; 6] = [
    "format",
    "version",
    "shapes",
    "claims",
    "expect",
    "tolerance",
];

/// ` (did you mean ...?)`, or, for a key of a newer version, which version it needs.
fn suggestion_or_version(key: &str, allowed: &[&str], newer: &[&str]) -> String {
    if !allowed.contains(&key) && newer.contains(&key) {
        " (a version-2 key: this file says \"version\": 1)".to_string()
    } else {
        suggestion(key, allowed)
    }
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
            "version {} is not supported: this build reads versions 1 and {VERSION}",
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
        ShapeKind::Polygon => &["points"],
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
        } => Problem::Shape {
            index,
            label: label.replacen("shape", "player", 1),
            message,
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
        }));
    }
    let shape = parse_shape(index, value, 1).map_err(as_player)?;
    Ok((shape.name, shape.placed.shape))
}

fn parse_shape(index: usize, value: &Value, version: u64) -> Result<SceneShape, Problem> {
    let fail = |name: Option<&str>, kind: Option<ShapeKind>, message: String| Problem::Shape {
        index,
        label: shape_label(index, name, kind),
        message,
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
                    format!("\"kind\" must be \"circle\", \"capsule\" or \"polygon\", found {k:?}"),
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
                "missing key \"kind\" (\"circle\", \"capsule\" or \"polygon\")".into(),
            ));
        }
    };
    let fail = |message: String| fail(name, Some(kind), message);
    let mut allowed: Vec<&str> = COMMON_KEYS.iter().chain(kind_keys(kind)).copied().collect();
    let with_motion: Vec<&str> = allowed.iter().chain(&MOTION_KEYS).copied().collect();
    if version >= 2 {
        allowed = with_motion.clone();
    }
    if let Some(key) = fields.keys().find(|k| !allowed.contains(&k.as_str())) {
        return Err(fail(format!(
            "unknown key {key:?}{}",
            suggestion_or_version(key, &allowed, &with_motion)
        )));
    }
    let fields = Fields(fields);
    let place = || -> Result<Placed, String> {
        let position = fields.optional_point("position")?.unwrap_or(DVec2::ZERO);
        let angle = fields.optional_number("angle")?.unwrap_or(0.0);
        Ok(Placed::new(
            build_shape(kind, &fields)?,
            Pose::new(position, angle),
        ))
    };
    Ok(SceneShape {
        id: super::ShapeId(index as u32),
        name: name.map(str::to_string),
        placed: place().map_err(&fail)?,
        motion: read_motion(&fields).map_err(fail)?,
    })
}

/// `body`, `velocity` and `angular_velocity` (absent in version 1, so the defaults).
fn read_motion(fields: &Fields) -> Result<Motion, String> {
    let body = match fields.0.get("body") {
        None => Body::Static,
        Some(Value::String(b)) => Body::ALL
            .into_iter()
            .find(|body| body.name() == b)
            .ok_or_else(|| {
                format!("\"body\" must be \"static\", \"kinematic\" or \"dynamic\", found {b:?}")
            })?,
        Some(other) => {
            return Err(format!(
                "\"body\" must be a string, found {}",
                describe(other)
            ));
        }
    };
    let motion = Motion {
        body,
        velocity: fields.optional_point("velocity")?.unwrap_or(DVec2::ZERO),
        angular_velocity: fields.optional_number("angular_velocity")?.unwrap_or(0.0),
    };
    if body == Body::Static && motion.moves() {
        return Err(format!(
            "a static body cannot move, but it has velocity [{}, {}] and angular_velocity {}: \
             say \"body\": \"kinematic\" or \"dynamic\", or remove the velocity",
            motion.velocity.x, motion.velocity.y, motion.angular_velocity
        ));
    }
    Ok(motion)
}

fn build_shape(kind: ShapeKind, fields: &Fields) -> Result<Shape, String> {
    let shape_error = |e: ShapeError| e.to_string();
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
            let points = match fields.0.get("points") {
                Some(Value::Array(points)) => points
                    .iter()
                    .enumerate()
                    .map(|(i, p)| as_point(p).ok_or_else(|| point_error(&format!("point {i}"), p)))
                    .collect::<Result<Vec<_>, _>>()?,
                Some(other) => {
                    return Err(format!(
                        "\"points\" must be an array of [x, y] points, found {}",
                        describe(other)
                    ));
                }
                None => return Err("missing key \"points\"".into()),
            };
            ConvexPolygon::new(points).map_err(shape_error)?.into()
        }
    })
}
