//! Box2D v3.2 (through `boxdd-sys`, built from its C source) on collidoscope's shapes: the
//! engine most 2D games ship, in f32, for the differential test and the benchmarks.
//!
//! The shapes and the collide calls are the `box2d` adapter's own narrow phase
//! (`src/capture/adapters/box2d/narrow.rs`, compiled here from its source so `cargo test` needs no
//! feature): Box2D's conventions (normal from A to B, `separation` negative when penetrating,
//! speculative points up to 4 linear slops apart), B's pose in A's frame composed in f32 as
//! Box2D composes it.

#[path = "../../src/capture/adapters/box2d/narrow.rs"]
mod narrow;

use boxdd_sys::ffi::*;
use collidoscope::geometry::{DVec2, Placed, Pose, Shape, ShapeKind};
pub use narrow::{B2Kind, B2Shape, dvec, vec2};

/// `placed` (a circle, capsule or polygon Box2D takes) as Box2D's shape.
pub fn to_box2d(placed: &Placed) -> B2Shape {
    narrow::to_box2d(placed, None).expect("Box2D takes the shape")
}

/// Whether Box2D takes `placed` as it is: at most 8 polygon corners
/// (`B2_MAX_POLYGON_VERTICES`), and not a polygon whose hull Box2D merges (nearly collinear
/// corners within its linear slop).
pub fn has_box2d(placed: &Placed) -> bool {
    narrow::to_box2d(placed, None).is_ok()
}

/// B's pose in A's frame, as Box2D composes it (f32).
fn b_in_a(a: &B2Shape, b: &B2Shape) -> b2Transform {
    narrow::b_in_a(&a.transform, &b.transform)
}

/// Box2D's manifold for A and B (normal from A to B in A's frame).
pub fn box2d_manifold(a: &B2Shape, b: &B2Shape) -> b2LocalManifold {
    narrow::box2d_manifold(a, b).expect("Box2D collides the pair")
}

/// Box2D's verdict and depth: `Some((depth, world normal A -> B))` when some manifold point
/// penetrates (the deepest one's depth), else `None`.
pub fn box2d_collide(a: &B2Shape, b: &B2Shape) -> Option<(f64, DVec2)> {
    let m = box2d_manifold(a, b);
    let deepest = m.points[..m.pointCount as usize]
        .iter()
        .map(|p| p.separation as f64)
        .fold(f64::INFINITY, f64::min);
    (deepest < 0.0).then(|| (-deepest, a.pose.rotation().rotate(dvec(m.normal))))
}

/// Box2D's closest points of A and B (`b2ShapeDistance` with radii): distance and the world
/// points (0 when overlapping).
pub fn box2d_distance(a: &B2Shape, b: &B2Shape) -> (f64, DVec2, DVec2) {
    let input = b2DistanceInput {
        proxyA: a.proxy,
        proxyB: b.proxy,
        transform: b_in_a(a, b),
        useRadii: true,
    };
    let mut cache = b2SimplexCache {
        count: 0,
        indexA: [0; 3],
        indexB: [0; 3],
    };
    // SAFETY: no simplexes are asked for (capacity 0, null pointer).
    let out = unsafe { b2ShapeDistance(&input, &mut cache, std::ptr::null_mut(), 0) };
    let world = |p: b2Vec2| a.pose.apply(dvec(p));
    (out.distance as f64, world(out.pointA), world(out.pointB))
}

/// Box2D's time of impact of A and B moving from their poses at `va`/`vb` (and turning at
/// `wa`/`wb` rad/s about their positions) over `[0, horizon]`: the time, or `None` when they
/// do not meet (or start overlapped).
pub fn box2d_toi(
    a: &B2Shape,
    (va, wa): (DVec2, f64),
    b: &B2Shape,
    (vb, wb): (DVec2, f64),
    horizon: f64,
) -> Option<f64> {
    let sweep = |s: &B2Shape, v: DVec2, w: f64| {
        let q2 = Pose::new(s.pose.position, s.pose.angle() + w * horizon).rotation();
        b2Sweep {
            localCenter: b2Vec2 { x: 0.0, y: 0.0 },
            c1: vec2(s.pose.position),
            c2: vec2(s.pose.position + v * horizon),
            q1: s.transform.q,
            q2: b2Rot {
                c: q2.x as f32,
                s: q2.y as f32,
            },
        }
    };
    let input = b2TOIInput {
        proxyA: a.proxy,
        proxyB: b.proxy,
        sweepA: sweep(a, va, wa),
        sweepB: sweep(b, vb, wb),
        maxFraction: 1.0,
    };
    // SAFETY: plain data in and out.
    let out = unsafe { b2TimeOfImpact(&input) };
    (out.state == b2TOIState_b2_toiStateHit).then_some(out.fraction as f64 * horizon)
}

/// Box2D's ray cast of the segment `from -> to` against `shape`: the fraction and the world
/// normal, when it hits.
pub fn box2d_ray(shape: &B2Shape, from: DVec2, to: DVec2) -> Option<(f64, DVec2)> {
    let inverse = |p: DVec2| shape.pose.inverse_apply(p);
    let origin = inverse(from);
    let input = b2RayCastInput {
        origin: vec2(origin),
        translation: vec2(inverse(to) - origin),
        maxFraction: 1.0,
    };
    // SAFETY: plain data in and out.
    let out = unsafe {
        match &shape.kind {
            B2Kind::Circle(c) => b2RayCastCircle(c, &input),
            B2Kind::Capsule(c) => b2RayCastCapsule(c, &input),
            B2Kind::Polygon(p) => b2RayCastPolygon(p, &input),
            B2Kind::Segment(s) => b2RayCastSegment(s, &input, false),
            B2Kind::ChainSegment(s) => b2RayCastSegment(&s.segment, &input, true),
        }
    };
    out.hit.then(|| {
        (
            out.fraction as f64,
            shape.pose.rotation().rotate(dvec(out.normal)),
        )
    })
}

/// The kinds Box2D's `collide` functions take.
pub fn kind_of(shape: &B2Shape) -> ShapeKind {
    match shape.kind {
        B2Kind::Circle(_) => ShapeKind::Circle,
        B2Kind::Capsule(_) => ShapeKind::Capsule,
        B2Kind::Polygon(_) => ShapeKind::Polygon,
        B2Kind::Segment(_) => ShapeKind::Segment,
        B2Kind::ChainSegment(_) => ShapeKind::Chain,
    }
}

/// `placed` with every number rounded to f32 (radius, corners, position, angle), so that
/// Box2D and collidoscope see the same shape up to Box2D's own rotation rounding.
pub fn rounded_to_f32(placed: &Placed) -> Option<Placed> {
    use collidoscope::geometry::{Capsule, Circle, ConvexPolygon};
    let r = |x: f64| x as f32 as f64;
    let rv = |v: DVec2| DVec2::new(r(v.x), r(v.y));
    let shape: Shape = match &placed.shape {
        Shape::Circle(c) => Circle::new(r(c.radius())).ok()?.into(),
        Shape::Capsule(c) => Capsule::new(rv(c.a()), rv(c.b()), r(c.radius()))
            .ok()?
            .into(),
        Shape::Polygon(p) => ConvexPolygon::new(p.points().iter().map(|q| rv(*q)).collect())
            .ok()?
            .with_radius(r(p.radius()))
            .ok()?
            .into(),
        Shape::Segment(s) => collidoscope::geometry::Segment::new(rv(s.a()), rv(s.b()))
            .ok()?
            .into(),
        Shape::Chain(c) => collidoscope::geometry::Chain::new(
            c.points().iter().map(|q| rv(*q)).collect(),
            c.is_loop(),
        )
        .ok()?
        .into(),
    };
    let pose = Pose::new(rv(placed.pose.position), r(placed.pose.angle()));
    Some(Placed::new(shape, pose))
}
