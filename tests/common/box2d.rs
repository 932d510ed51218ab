//! Box2D v3.2 (through `boxdd-sys`, built from its C source) on collidoscope's shapes: the
//! engine most 2D games ship, in f32, for the differential test and the benchmarks.
//!
//! Conventions, Box2D's: a manifold's normal points from A to B and a point's `separation` is
//! negative when penetrating; it reports speculative points up to a few linear slops (0.005)
//! apart. Shapes are given in their own frames and B's pose in A's frame (`b2InvMulTransforms`
//! done here in f64, then rounded once).

use boxdd_sys::ffi::*;
use collidoscope::geometry::{DVec2, Placed, Pose, Shape, ShapeKind};

/// One shape as Box2D holds it, with its pose (`b2Transform`).
#[derive(Clone, Copy)]
pub struct B2Shape {
    pub kind: B2Kind,
    pub pose: Pose,
    pub transform: b2Transform,
    /// The core points and radius Box2D's distance and time of impact take.
    pub proxy: b2ShapeProxy,
}

/// Box2D's shape types used here.
#[derive(Clone, Copy)]
pub enum B2Kind {
    Circle(b2Circle),
    Capsule(b2Capsule),
    Polygon(b2Polygon),
}

pub fn vec2(v: DVec2) -> b2Vec2 {
    b2Vec2 {
        x: v.x as f32,
        y: v.y as f32,
    }
}

pub fn dvec(v: b2Vec2) -> DVec2 {
    DVec2::new(v.x as f64, v.y as f64)
}

fn transform(pose: Pose) -> b2Transform {
    let r = pose.rotation();
    b2Transform {
        p: vec2(pose.position),
        q: b2Rot {
            c: r.x as f32,
            s: r.y as f32,
        },
    }
}

/// `placed` as Box2D's shape. Polygons go through `b2ComputeHull` and `b2MakePolygon` (radius
/// 0), as a game makes them.
pub fn to_box2d(placed: &Placed) -> B2Shape {
    let (kind, points, radius) = match &placed.shape {
        Shape::Circle(c) => (
            B2Kind::Circle(b2Circle {
                center: b2Vec2 { x: 0.0, y: 0.0 },
                radius: c.radius() as f32,
            }),
            vec![DVec2::ZERO],
            c.radius(),
        ),
        Shape::Capsule(c) => (
            B2Kind::Capsule(b2Capsule {
                center1: vec2(c.a()),
                center2: vec2(c.b()),
                radius: c.radius() as f32,
            }),
            vec![c.a(), c.b()],
            c.radius(),
        ),
        Shape::Segment(_) | Shape::Chain(_) => {
            panic!("segments and chains meet Box2D through its segment and chain routines")
        }
        Shape::Polygon(p) => {
            let points: Vec<b2Vec2> = p.points().iter().map(|q| vec2(*q)).collect();
            // SAFETY: plain data in, plain data out; the hull is checked before use.
            let polygon = unsafe {
                let hull = b2ComputeHull(points.as_ptr(), points.len() as i32);
                assert!(hull.count >= 3, "Box2D accepts the polygon");
                b2MakePolygon(&hull, 0.0)
            };
            let kept = (0..polygon.count as usize)
                .map(|i| dvec(polygon.vertices[i]))
                .collect();
            (B2Kind::Polygon(polygon), kept, 0.0)
        }
    };
    let points: Vec<b2Vec2> = points.iter().map(|q| vec2(*q)).collect();
    // SAFETY: `points` lives across the call, which copies it.
    let proxy = unsafe { b2MakeProxy(points.as_ptr(), points.len() as i32, radius as f32) };
    B2Shape {
        kind,
        pose: placed.pose,
        transform: transform(placed.pose),
        proxy,
    }
}

/// Whether Box2D takes `placed` as it is: at most 8 polygon corners
/// (`B2_MAX_POLYGON_VERTICES`), and not a polygon whose hull Box2D merges (nearly collinear
/// corners within its linear slop).
pub fn has_box2d(placed: &Placed) -> bool {
    match &placed.shape {
        Shape::Polygon(p) => {
            let points: Vec<b2Vec2> = p.points().iter().map(|q| vec2(*q)).collect();
            points.len() <= 8 && {
                // SAFETY: as in `to_box2d`.
                let hull = unsafe { b2ComputeHull(points.as_ptr(), points.len() as i32) };
                hull.count as usize == points.len()
            }
        }
        _ => true,
    }
}

/// B's pose in A's frame, composed in f64 and rounded once.
fn b_in_a(a: &B2Shape, b: &B2Shape) -> b2Transform {
    let pa = a.pose;
    let pb = b.pose;
    let ra = pa.rotation();
    let rb = pb.rotation();
    // inverse(A) * B: rotation conj(ra) * rb, position conj(ra) * (pb - pa).
    let d = pb.position - pa.position;
    let p = DVec2::new(ra.x * d.x + ra.y * d.y, -ra.y * d.x + ra.x * d.y);
    let q = DVec2::new(ra.x * rb.x + ra.y * rb.y, ra.x * rb.y - ra.y * rb.x);
    b2Transform {
        p: vec2(p),
        q: b2Rot {
            c: q.x as f32,
            s: q.y as f32,
        },
    }
}

/// Box2D's manifold for A and B (normal from A to B in A's frame), calling the function for
/// the pair's kinds; pairs Box2D has only one order of are swapped and the normal flipped.
pub fn box2d_manifold(a: &B2Shape, b: &B2Shape) -> b2LocalManifold {
    use B2Kind::*;
    let xf = b_in_a(a, b);
    // SAFETY: each call reads the two shapes and returns plain data.
    unsafe {
        match (&a.kind, &b.kind) {
            (Circle(x), Circle(y)) => b2CollideCircles(x, y, xf),
            (Capsule(x), Circle(y)) => b2CollideCapsuleAndCircle(x, y, xf),
            (Capsule(x), Capsule(y)) => b2CollideCapsules(x, y, xf),
            (Polygon(x), Circle(y)) => b2CollidePolygonAndCircle(x, y, xf),
            (Polygon(x), Capsule(y)) => b2CollidePolygonAndCapsule(x, y, xf),
            (Polygon(x), Polygon(y)) => b2CollidePolygons(x, y, xf),
            (Circle(_), _) | (Capsule(_), Polygon(_)) => flipped(box2d_manifold(b, a), b, a),
        }
    }
}

/// A manifold of (B, A) given in B's frame, turned into one of (A, B) in A's frame.
fn flipped(m: b2LocalManifold, b: &B2Shape, a: &B2Shape) -> b2LocalManifold {
    let xf = b_in_a(a, b);
    let rotate = |v: b2Vec2| b2Vec2 {
        x: xf.q.c * v.x - xf.q.s * v.y,
        y: xf.q.s * v.x + xf.q.c * v.y,
    };
    let mut out = m;
    let n = rotate(m.normal);
    out.normal = b2Vec2 { x: -n.x, y: -n.y };
    for (i, p) in m.points.iter().enumerate() {
        let r = rotate(p.point);
        out.points[i].point = b2Vec2 {
            x: r.x + xf.p.x,
            y: r.y + xf.p.y,
        };
    }
    out
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
