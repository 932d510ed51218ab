//! Writing a shape-set file: one shape per line (so a diff shows which shapes changed), numbers
//! in their shortest exact form (they read back bit-identical), polygons in the winding they
//! were given, and the file replaced atomically.

use super::{Body, Claim, Expected, FORMAT, Scene, SceneShape};
use crate::files::{FileError, Problem, write_atomically};
use crate::geometry::{DVec2, Shape};
use crate::query::{ChainRule, PairSummary, TwoSided};
use serde::Serialize;
use std::path::Path;

#[derive(Serialize)]
struct ShapeOut<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<&'a str>,
    kind: &'static str,
    /// Always there for a shape; a packet log's player has none.
    #[serde(skip_serializing_if = "Option::is_none")]
    position: Option<[f64; 2]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    angle: Option<f64>,
    #[serde(flatten)]
    geometry: GeometryOut,
    #[serde(skip_serializing_if = "Option::is_none")]
    body: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    velocity: Option<[f64; 2]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    angular_velocity: Option<f64>,
}

#[derive(Serialize)]
struct ClaimOut {
    a: usize,
    b: usize,
    intersecting: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    depth: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    normal: Option<[f64; 2]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    contacts: Option<Vec<[f64; 2]>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    distance: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    piece: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    separation: Option<f64>,
}

#[derive(Serialize)]
struct ExpectedOut<'a> {
    a: usize,
    b: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    piece: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rule: Option<ChainRule>,
    #[serde(flatten)]
    result: &'a PairSummary,
    #[serde(skip_serializing_if = "Option::is_none")]
    two_sided: Option<TwoSided>,
}

#[derive(Serialize)]
#[serde(untagged)]
enum GeometryOut {
    Circle {
        radius: f64,
    },
    Capsule {
        a: [f64; 2],
        b: [f64; 2],
        radius: f64,
    },
    Polygon {
        /// A rounded polygon's radius (version 4); a plain polygon writes none.
        #[serde(skip_serializing_if = "is_zero")]
        radius: f64,
        points: Vec<[f64; 2]>,
    },
    Segment {
        a: [f64; 2],
        b: [f64; 2],
    },
    Chain {
        points: Vec<[f64; 2]>,
        /// Written only for a loop (`false` is the default).
        #[serde(rename = "loop", skip_serializing_if = "std::ops::Not::not")]
        looped: bool,
    },
}

fn is_zero(x: &f64) -> bool {
    *x == 0.0
}

fn pair(p: DVec2) -> [f64; 2] {
    [p.x, p.y]
}

/// The text of a shape-set file for `scene`, in the lowest version that holds it. Claims and
/// expectations about shapes no longer in the scene are left out.
pub fn to_json(scene: &Scene) -> String {
    let version = scene.version_needed();
    let mut text = format!("{{\n  \"format\": {FORMAT:?},\n  \"version\": {version}");
    if let Some(g) = scene.gravity {
        text.push_str(&format!(
            ",\n  \"gravity\": [{}, {}]",
            number(g.x),
            number(g.y)
        ));
    }
    if let Some(precision) = scene.precision {
        text.push_str(&format!(",\n  \"precision\": {:?}", precision.name()));
    }
    let shapes: Vec<String> = scene.shapes.iter().map(shape_line).collect();
    push_list(&mut text, "shapes", &shapes, true);
    let index = |a, b| scene.pair_of(a, b);
    let claims: Vec<String> = scene
        .claims
        .iter()
        .filter_map(|c| index(c.a, c.b).map(|pair| claim_line(c, pair)))
        .collect();
    push_list(&mut text, "claims", &claims, !claims.is_empty());
    if let Some(expect) = &scene.expect {
        let lines: Vec<String> = expect
            .iter()
            .filter_map(|e| index(e.a, e.b).map(|pair| expected_line(e, pair)))
            .collect();
        push_list(&mut text, "expect", &lines, true);
    }
    if let Some(tolerance) = scene.tolerance {
        text.push_str(&format!(",\n  \"tolerance\": {}", number(tolerance)));
    }
    text.push_str("\n}\n");
    text
}

/// `,\n  "key": [` one item per line `]`, when `present`.
fn push_list(text: &mut String, key: &str, items: &[String], present: bool) {
    if !present {
        return;
    }
    text.push_str(&format!(",\n  {key:?}: ["));
    for (i, item) in items.iter().enumerate() {
        text.push_str(if i == 0 { "\n    " } else { ",\n    " });
        text.push_str(item);
    }
    text.push_str(if items.is_empty() { "]" } else { "\n  ]" });
}

/// A number as JSON writes it (shortest form that reads back exactly).
fn number(x: f64) -> String {
    serde_json::to_string(&x).expect("finite numbers serialise")
}

fn geometry_out(shape: &Shape) -> GeometryOut {
    match shape {
        Shape::Circle(c) => GeometryOut::Circle { radius: c.radius() },
        Shape::Capsule(c) => GeometryOut::Capsule {
            a: pair(c.a()),
            b: pair(c.b()),
            radius: c.radius(),
        },
        Shape::Polygon(p) => GeometryOut::Polygon {
            radius: p.radius(),
            points: p.points_as_given().into_iter().map(pair).collect(),
        },
        Shape::Segment(s) => GeometryOut::Segment {
            a: pair(s.a()),
            b: pair(s.b()),
        },
        Shape::Chain(c) => GeometryOut::Chain {
            points: c.points().iter().copied().map(pair).collect(),
            looped: c.is_loop(),
        },
    }
}

/// A shape's geometry keys (`radius`, `a`, `b`, `points`, `loop`) as JSON.
pub(crate) fn geometry_value(shape: &Shape) -> serde_json::Value {
    serde_json::to_value(geometry_out(shape)).expect("geometry serialises")
}

/// A packet log's player as one JSON object: its name, kind and geometry, no pose or motion.
pub(crate) fn player_line(name: Option<&str>, shape: &Shape) -> String {
    let out = ShapeOut {
        name,
        kind: shape.kind().name(),
        position: None,
        angle: None,
        geometry: geometry_out(shape),
        body: None,
        velocity: None,
        angular_velocity: None,
    };
    serde_json::to_string(&out).expect("shapes serialise")
}

fn shape_out(shape: &SceneShape) -> ShapeOut<'_> {
    let pose = shape.placed.pose;
    let geometry = geometry_out(&shape.placed.shape);
    let motion = shape.motion;
    ShapeOut {
        name: shape.name.as_deref(),
        kind: shape.placed.shape.kind().name(),
        position: Some(pair(pose.position)),
        // Omitted when it is the default; -0.0 is written, so it reads back as itself.
        angle: (pose.angle().to_bits() != 0).then_some(pose.angle()),
        geometry,
        body: (motion.body != Body::Static).then_some(motion.body.name()),
        velocity: (motion.velocity.x.to_bits() != 0 || motion.velocity.y.to_bits() != 0)
            .then_some(pair(motion.velocity)),
        angular_velocity: (motion.angular_velocity.to_bits() != 0)
            .then_some(motion.angular_velocity),
    }
}

fn shape_line(shape: &SceneShape) -> String {
    serde_json::to_string(&shape_out(shape)).expect("shapes serialise")
}

/// A shape's keys as a JSON object, as a shape-set file writes them (a capture merges a
/// change into them).
pub(crate) fn shape_object(shape: &SceneShape) -> serde_json::Map<String, serde_json::Value> {
    match serde_json::to_value(shape_out(shape)) {
        Ok(serde_json::Value::Object(map)) => map,
        _ => unreachable!("a shape serialises to an object"),
    }
}

fn claim_line(claim: &Claim, (a, b): (usize, usize)) -> String {
    let claim = &claim.reported;
    let out = ClaimOut {
        a,
        b,
        intersecting: claim.intersecting,
        depth: claim.depth,
        normal: claim.normal.map(pair),
        contacts: claim
            .contacts
            .as_ref()
            .map(|points| points.iter().copied().map(pair).collect()),
        distance: claim.distance,
        piece: claim.piece,
        separation: claim.separation,
    };
    serde_json::to_string(&out).expect("claims serialise")
}

fn expected_line(expected: &Expected, (a, b): (usize, usize)) -> String {
    let out = ExpectedOut {
        a,
        b,
        piece: expected.piece.map(|p| p.piece),
        rule: expected.piece.map(|p| p.rule),
        result: &expected.result,
        two_sided: expected.piece.map(|p| p.two_sided),
    };
    serde_json::to_string(&out).expect("expectations serialise")
}

/// Write `scene` to `path` atomically (see [`write_atomically`]). Refused, with nothing
/// written, when a number of it is not finite (JSON has no spelling for it: it would be written
/// `null`, and the file refused when read back), naming where.
pub fn save(scene: &Scene, path: &Path) -> Result<(), FileError> {
    if let Some(place) = not_finite(scene) {
        return Err(FileError::new(
            path,
            Problem::Document(format!(
                "cannot save: {place} is not a finite number (a shape-set file holds finite numbers only)"
            )),
        ));
    }
    write_atomically(path, to_json(scene).as_bytes())
        .map_err(|e| FileError::new(path, Problem::io("cannot save", e)))
}

/// Where `scene` holds a number that is not finite, named as a file's reader names it
/// (`shape 3 ("crate"): "position"`), if it does.
pub fn not_finite(scene: &Scene) -> Option<String> {
    let point = |p: DVec2| p.is_finite();
    let points = |ps: &[DVec2]| ps.iter().all(|p| p.is_finite());
    if scene.gravity.is_some_and(|g| !point(g)) {
        return Some("\"gravity\"".into());
    }
    if scene.tolerance.is_some_and(|t| !t.is_finite()) {
        return Some("\"tolerance\"".into());
    }
    for (i, shape) in scene.shapes.iter().enumerate() {
        let (low, high) = shape.placed.aabb();
        let field = if !point(shape.placed.pose.position) || !shape.placed.pose.angle().is_finite()
        {
            Some("\"position\" or \"angle\"")
        } else if !(point(low) && point(high)) {
            Some("its placed geometry")
        } else if !point(shape.motion.velocity) || !shape.motion.angular_velocity.is_finite() {
            Some("\"velocity\" or \"angular_velocity\"")
        } else {
            None
        };
        if let Some(field) = field {
            let name = shape
                .name
                .as_deref()
                .map(|n| format!(" ({n:?})"))
                .unwrap_or_default();
            return Some(format!("shape {i}{name}: {field}"));
        }
    }
    for (i, c) in scene.claims.iter().enumerate() {
        let c = &c.reported;
        let numbers = [c.depth, c.distance, c.separation];
        if numbers.iter().flatten().any(|x| !x.is_finite())
            || c.normal.is_some_and(|n| !point(n))
            || c.contacts.as_deref().is_some_and(|ps| !points(ps))
        {
            return Some(format!("claim {i}"));
        }
    }
    for (i, e) in scene.expect.iter().flatten().enumerate() {
        let r = &e.result;
        if !r.depth.is_finite()
            || !r.distance.is_finite()
            || r.normal.is_some_and(|n| !point(n))
            || r.closest.is_some_and(|c| !points(&c))
            || !points(&r.contacts)
        {
            return Some(format!("expected result {i}"));
        }
    }
    None
}
