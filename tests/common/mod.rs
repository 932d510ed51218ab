//! Scene builders and random shapes shared by the tests.
#![allow(dead_code)]

pub mod box2d;
pub mod reference;

/// criterion's mean estimate (ns per iteration) for benchmark `id` of `group`, if it ran:
/// what the benchmarks read back to print their ratio tables. `id` is the function name, or
/// `function/parameter` for a `BenchmarkId` with a parameter.
pub fn criterion_mean_ns(group: &str, id: &str) -> Option<f64> {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target"));
    let path = target
        .join("criterion")
        .join(group.replace('/', "_"))
        .join(id)
        .join("new/estimates.json");
    let text = std::fs::read_to_string(path).ok()?;
    let json: serde_json::Value = serde_json::from_str(&text).ok()?;
    json["mean"]["point_estimate"].as_f64()
}

use collidoscope::geometry::{
    Capsule, Circle, ConvexPolygon, DVec2, Placed, Pose, Segment, ShapeKind,
};
use collidoscope::query::SatReport;
use proptest::prelude::*;

pub fn v(x: f64, y: f64) -> DVec2 {
    DVec2::new(x, y)
}

pub fn circle(radius: f64, at: DVec2) -> Placed {
    Placed::new(Circle::new(radius).unwrap(), Pose::at(at))
}

pub fn capsule(a: DVec2, b: DVec2, radius: f64, pose: Pose) -> Placed {
    Placed::new(Capsule::new(a, b, radius).unwrap(), pose)
}

pub fn polygon(points: &[DVec2], pose: Pose) -> Placed {
    Placed::new(ConvexPolygon::new(points.to_vec()).unwrap(), pose)
}

/// `|a - b| <= tolerance`, with a message that shows both.
#[track_caller]
pub fn assert_close(a: f64, b: f64, tolerance: f64) {
    assert!(
        (a - b).abs() <= tolerance,
        "{a} != {b} (tolerance {tolerance})"
    );
}

#[track_caller]
pub fn assert_vec_close(a: DVec2, b: DVec2, tolerance: f64) {
    assert!(
        a.distance(b) <= tolerance,
        "{a} != {b} (tolerance {tolerance})"
    );
}

/// A random convex polygon: 3 to 8 corners on an ellipse at sorted random angles, in either
/// winding.
pub fn arb_polygon_points() -> impl Strategy<Value = Vec<DVec2>> {
    (
        prop::collection::vec(0.0..std::f64::consts::TAU, 3..=8),
        0.3..3.0f64,
        0.3..3.0f64,
        any::<bool>(),
    )
        .prop_filter_map(
            "a valid convex polygon",
            |(mut angles, rx, ry, clockwise)| {
                angles.sort_by(f64::total_cmp);
                let mut points: Vec<DVec2> = angles
                    .iter()
                    .map(|t| v(rx * t.cos(), ry * t.sin()))
                    .collect();
                if clockwise {
                    points.reverse();
                }
                // Keep well-conditioned polygons: no sliver corners or tiny edges.
                let n = points.len();
                let sound = (0..n).all(|i| points[i].distance(points[(i + 1) % n]) > 0.05);
                let poly = ConvexPolygon::new(points.clone()).ok()?;
                (sound && poly.area() > 0.05).then_some(points)
            },
        )
}

pub fn arb_pose() -> impl Strategy<Value = Pose> {
    (-4.0..4.0f64, -4.0..4.0f64, -3.2..3.2f64).prop_map(|(x, y, angle)| Pose::new(v(x, y), angle))
}

/// Every unordered pair of kinds, as the benchmarks report them.
pub const KIND_PAIRS: [(ShapeKind, ShapeKind); 6] = [
    (ShapeKind::Circle, ShapeKind::Circle),
    (ShapeKind::Circle, ShapeKind::Capsule),
    (ShapeKind::Circle, ShapeKind::Polygon),
    (ShapeKind::Capsule, ShapeKind::Capsule),
    (ShapeKind::Capsule, ShapeKind::Polygon),
    (ShapeKind::Polygon, ShapeKind::Polygon),
];

pub fn arb_kind() -> impl Strategy<Value = ShapeKind> {
    prop_oneof![
        Just(ShapeKind::Circle),
        Just(ShapeKind::Capsule),
        Just(ShapeKind::Polygon)
    ]
}

/// A random shape of `kind` at a random pose.
pub fn arb_placed_of(kind: ShapeKind) -> BoxedStrategy<Placed> {
    match kind {
        ShapeKind::Circle => (0.1..2.5f64, arb_pose())
            .prop_map(|(r, pose)| Placed::new(Circle::new(r).unwrap(), pose))
            .boxed(),
        ShapeKind::Capsule => (
            -2.0..2.0f64,
            -2.0..2.0f64,
            -2.0..2.0f64,
            -2.0..2.0f64,
            0.1..1.5f64,
            arb_pose(),
        )
            .prop_filter("a capsule with a length", |(ax, ay, bx, by, ..)| {
                v(*ax, *ay).distance(v(*bx, *by)) > 0.05
            })
            .prop_map(|(ax, ay, bx, by, r, pose)| capsule(v(ax, ay), v(bx, by), r, pose))
            .boxed(),
        ShapeKind::Polygon => (arb_polygon_points(), arb_pose())
            .prop_map(|(points, pose)| polygon(&points, pose))
            .boxed(),
        ShapeKind::Segment => (
            -2.0..2.0f64,
            -2.0..2.0f64,
            -2.0..2.0f64,
            -2.0..2.0f64,
            arb_pose(),
        )
            .prop_filter("a segment with a length", |(ax, ay, bx, by, _)| {
                v(*ax, *ay).distance(v(*bx, *by)) > 0.05
            })
            .prop_map(|(ax, ay, bx, by, pose)| {
                Placed::new(Segment::new(v(ax, ay), v(bx, by)).unwrap(), pose)
            })
            .boxed(),
        ShapeKind::Chain => panic!("chains are built by the chain tests themselves"),
    }
}

/// A random shape of a random kind.
pub fn arb_placed() -> BoxedStrategy<Placed> {
    arb_kind().prop_flat_map(arb_placed_of).boxed()
}

/// Whether the least overlap is unique: no other axis within `tolerance` of it points another
/// way. Where it is not, more than one normal is correct.
pub fn unique_least(report: &SatReport, tolerance: f64) -> bool {
    let Some(mtv) = report.mtv else { return true };
    report
        .axes
        .iter()
        .all(|t| t.overlap > mtv.depth + tolerance || t.normal.distance(mtv.normal) <= 1e-9)
}

/// The names of the entries of `dir`.
pub fn names_in(dir: &std::path::Path) -> Vec<std::ffi::OsString> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect()
}
