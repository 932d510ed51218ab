//! Reading a shape-set file: every rule of the format checked, one message for the first
//! problem, naming the place.
//!
//! The text is parsed to a JSON value first (so a syntax error has its line and column), then
//! walked by hand: that is what lets a message name the shape (index, name, kind) and the
//! field, refuse unknown keys by name, and suggest the key that was probably meant.

use super::{FORMAT, FileError, Problem, Scene, SceneShape, VERSION, shape_label};
use crate::geometry::{
    Capsule, Circle, ConvexPolygon, DVec2, Placed, Pose, Shape, ShapeError, ShapeKind,
};
use serde_json::{Map, Value};
use std::path::Path;

/// Read and check the shape-set file at `path`.
pub fn load(path: &Path) -> Result<Scene, FileError> {
    let bytes = std::fs::read(path)
        .map_err(|e| FileError::new(path, Problem::Io(format!("cannot read the file: {e}"))))?;
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
    check_format_and_version(&top)?;
    if let Some(key) = top
        .keys()
        .find(|k| !["format", "version", "shapes"].contains(&k.as_str()))
    {
        return Err(Problem::Document(format!(
            "unknown key {key:?} at the top level{}",
            suggestion(key, &["format", "version", "shapes"])
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
    let shapes = shapes
        .iter()
        .enumerate()
        .map(|(index, value)| parse_shape(index, value))
        .collect::<Result<_, _>>()?;
    Ok(Scene::from_shapes(shapes))
}

/// serde_json's message without its " at line L column C" tail, which the problem states.
fn syntax_problem(e: serde_json::Error) -> Problem {
    let full = e.to_string();
    let message = match full.rfind(" at line ") {
        Some(i) => full[..i].to_string(),
        None => full,
    };
    Problem::Syntax {
        line: e.line(),
        column: e.column(),
        message,
    }
}

fn check_format_and_version(top: &Map<String, Value>) -> Result<(), Problem> {
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
        Some(v) if v.as_u64() == Some(VERSION) => Ok(()),
        Some(other) => Err(Problem::Document(format!(
            "version {} is not supported: this build reads version {VERSION}",
            describe(other)
        ))),
        None => Err(Problem::Document("missing key \"version\"".into())),
    }
}

/// The keys every shape may have, and those of each kind.
const COMMON_KEYS: [&str; 4] = ["name", "kind", "position", "angle"];

fn kind_keys(kind: ShapeKind) -> &'static [&'static str] {
    match kind {
        ShapeKind::Circle => &["radius"],
        ShapeKind::Capsule => &["a", "b", "radius"],
        ShapeKind::Polygon => &["points"],
    }
}

fn parse_shape(index: usize, value: &Value) -> Result<SceneShape, Problem> {
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
    let allowed: Vec<&str> = COMMON_KEYS.iter().chain(kind_keys(kind)).copied().collect();
    if let Some(key) = fields.keys().find(|k| !allowed.contains(&k.as_str())) {
        return Err(fail(format!(
            "unknown key {key:?}{}",
            suggestion(key, &allowed)
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
        placed: place().map_err(fail)?,
    })
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

/// A shape's fields, read with messages that name the field.
struct Fields<'a>(&'a Map<String, Value>);

impl Fields<'_> {
    fn number(&self, key: &str) -> Result<f64, String> {
        self.optional_number(key)?
            .ok_or_else(|| format!("missing key {key:?}"))
    }

    fn optional_number(&self, key: &str) -> Result<Option<f64>, String> {
        match self.0.get(key) {
            None => Ok(None),
            Some(Value::Number(n)) => Ok(n.as_f64()),
            Some(other) => Err(format!(
                "{key:?} must be a number, found {}",
                describe(other)
            )),
        }
    }

    fn point(&self, key: &str) -> Result<DVec2, String> {
        self.optional_point(key)?
            .ok_or_else(|| format!("missing key {key:?}"))
    }

    fn optional_point(&self, key: &str) -> Result<Option<DVec2>, String> {
        match self.0.get(key) {
            None => Ok(None),
            Some(value) => as_point(value)
                .map(Some)
                .ok_or_else(|| point_error(&format!("{key:?}"), value)),
        }
    }
}

/// `[x, y]`: exactly two numbers.
fn as_point(value: &Value) -> Option<DVec2> {
    match value.as_array()?.as_slice() {
        [x, y] => Some(DVec2::new(x.as_f64()?, y.as_f64()?)),
        _ => None,
    }
}

fn point_error(what: &str, value: &Value) -> String {
    let found = match value.as_array() {
        Some(items) if items.len() != 2 => format!("{} numbers", items.len()),
        _ => describe(value),
    };
    format!("{what} must be [x, y] (two numbers), found {found}")
}

/// A short rendering of a JSON value for messages.
fn describe(value: &Value) -> String {
    let text = value.to_string();
    let kind = match value {
        Value::String(_) => "a string ",
        Value::Array(_) => "an array ",
        Value::Object(_) => "an object ",
        _ => "",
    };
    if text.chars().count() > 40 {
        let cut: String = text.chars().take(37).collect();
        format!("{kind}{cut}...")
    } else {
        format!("{kind}{text}")
    }
}

/// ` (did you mean "radius"?)` when `key` is a small typo of an allowed key.
fn suggestion(key: &str, allowed: &[&str]) -> String {
    allowed
        .iter()
        .map(|candidate| (edit_distance(key, candidate), candidate))
        .filter(|(d, _)| *d <= 2)
        .min()
        .map(|(_, candidate)| format!(" (did you mean {candidate:?}?)"))
        .unwrap_or_default()
}

/// Levenshtein distance, with a swap of two neighbours counting once ("raduis").
fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            d[i][j] = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d[i][j] = d[i][j].min(d[i - 2][j - 2] + 1);
            }
        }
    }
    d[a.len()][b.len()]
}
