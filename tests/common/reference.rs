//! parry2d-f64, the independent reference engine, seen through collidoscope's conventions.
//! Used by the differential test and the benchmarks; never by the library.

use collidoscope::geometry::{DVec2, Placed, Rounded, Shape};
use parry2d_f64::math::{Pose, Vector};
use parry2d_f64::query;
use parry2d_f64::shape::{Ball, Capsule, ConvexPolygon, SharedShape};

/// A shape and its pose in parry's types.
pub struct ReferenceShape {
    pub pose: Pose,
    pub shape: SharedShape,
}

fn vector(p: DVec2) -> Vector {
    Vector::new(p.x, p.y)
}

fn dvec(p: Vector) -> DVec2 {
    DVec2::new(p.x, p.y)
}

/// The same shape for parry: same local geometry (polygons counter-clockwise, as parry wants),
/// same pose.
pub fn to_reference(placed: &Placed) -> ReferenceShape {
    let shape = match &placed.shape {
        Shape::Circle(c) => SharedShape::new(Ball::new(c.radius())),
        Shape::Capsule(c) => {
            SharedShape::new(Capsule::new(vector(c.a()), vector(c.b()), c.radius()))
        }
        Shape::Segment(s) => SharedShape::new(parry2d_f64::shape::Segment::new(
            vector(s.a()),
            vector(s.b()),
        )),
        Shape::Chain(_) => panic!("a chain is compared piece by piece"),
        Shape::Polygon(p) => {
            let core = ConvexPolygon::from_convex_polyline_unmodified(
                p.points().iter().map(|q| vector(*q)).collect(),
            )
            .expect("a valid convex polygon");
            if p.is_rounded() {
                // parry's RoundConvexPolygon: the same core grown by the same radius.
                SharedShape::new(parry2d_f64::shape::RoundShape {
                    inner_shape: core,
                    border_radius: p.radius(),
                })
            } else {
                SharedShape::new(core)
            }
        }
    };
    ReferenceShape {
        pose: Pose::new(vector(placed.pose.position), placed.pose.angle()),
        shape,
    }
}

/// What parry says of a pair.
#[derive(Debug)]
pub struct ReferenceAnswer {
    /// Signed: negative is penetration depth, positive the distance.
    pub signed_distance: f64,
    /// From A toward B when penetrating.
    pub normal: Option<DVec2>,
    /// `point_b - point_a` of the closest points when apart.
    pub closest_difference: Option<DVec2>,
}

/// parry's contact (penetration), distance and closest points.
pub fn reference_answer(a: &ReferenceShape, b: &ReferenceShape) -> ReferenceAnswer {
    let contact = query::contact(&a.pose, &*a.shape.0, &b.pose, &*b.shape.0, 0.0)
        .expect("parry supports every pair used here");
    if let Some(c) = contact
        && c.dist < 0.0
    {
        return ReferenceAnswer {
            signed_distance: c.dist,
            normal: Some(dvec(c.normal1)),
            closest_difference: None,
        };
    }
    let distance = query::distance(&a.pose, &*a.shape.0, &b.pose, &*b.shape.0)
        .expect("supported")
        .distance;
    let closest = query::closest_points(&a.pose, &*a.shape.0, &b.pose, &*b.shape.0, f64::MAX)
        .expect("supported");
    let closest_difference = match closest {
        query::ClosestPoints::WithinMargin(p, q) => Some(dvec(q) - dvec(p)),
        _ => None,
    };
    ReferenceAnswer {
        signed_distance: distance,
        normal: None,
        closest_difference,
    }
}

/// parry's contact query alone (what the benchmark times).
pub fn reference_contact(a: &ReferenceShape, b: &ReferenceShape) -> Option<f64> {
    query::contact(&a.pose, &*a.shape.0, &b.pose, &*b.shape.0, 0.0)
        .ok()
        .flatten()
        .map(|c| c.dist)
}

/// Whether `placed` is a capsule with a real segment (parry's capsule needs one).
pub fn has_reference(placed: &Placed) -> bool {
    Rounded::new(placed, DVec2::ZERO).points.len() != 1
        || !matches!(placed.shape, Shape::Capsule(_))
}

/// parry's time of impact of `a` and `b` translating at `va` and `vb` over [0, `horizon`]
/// (`cast_shapes`, stopping at penetration): the time, or `None` when they do not meet.
pub fn reference_cast(
    a: &ReferenceShape,
    va: DVec2,
    b: &ReferenceShape,
    vb: DVec2,
    horizon: f64,
) -> Option<f64> {
    let options = query::ShapeCastOptions {
        max_time_of_impact: horizon,
        stop_at_penetration: true,
        ..query::ShapeCastOptions::default()
    };
    query::cast_shapes(
        &a.pose,
        vector(va),
        &*a.shape.0,
        &b.pose,
        vector(vb),
        &*b.shape.0,
        options,
    )
    .expect("parry supports every pair used here")
    .map(|hit| hit.time_of_impact)
}
