//! Box2D's narrow phase on collidoscope's shapes: a pair rebuilt as Box2D holds it
//! (`b2MakePolygon` of the corners' hull, `b2Circle`, `b2Capsule`, `b2Segment`,
//! `b2ChainSegment` with its ghost points, every number rounded to f32) and collided by the
//! `b2Collide*` function Box2D's `b2UpdateContact` calls for the pair's kinds, with B's pose in
//! A's frame composed in f32 as Box2D composes it (`b2InvMulTransforms`). What an engine
//! fixture test asks ([`Box2dNarrowPhase`]), and what the repository's differential tests and
//! benchmarks compare with.
//!
//! Conventions, Box2D's: a manifold's normal points from A to B and a point's `separation` is
//! negative when penetrating; it reports speculative points up to `B2_SPECULATIVE_DISTANCE`
//! (4 linear slops, 0.02 m) apart.

use boxdd_sys::ffi::*;
use collidoscope::Reported;
use collidoscope::capture::adapters::narrow_phase::{NarrowPhase, asked_piece, engine_answer};
use collidoscope::capture::{Manifold, ManifoldPoint};
use collidoscope::geometry::{DVec2, Placed, Pose, Shape};

/// One shape as Box2D holds it, with its pose (`b2Transform`).
#[derive(Clone, Copy)]
pub struct B2Shape {
    /// The shape, in its own frame.
    pub kind: B2Kind,
    /// Its pose, as collidoscope has it (f64).
    pub pose: Pose,
    /// Its pose rounded to f32, as a Box2D body's transform.
    pub transform: b2Transform,
    /// The core points and radius Box2D's distance and time of impact take.
    pub proxy: b2ShapeProxy,
}

/// Box2D's shape types, as its collide functions take them.
#[derive(Clone, Copy)]
pub enum B2Kind {
    /// `b2Circle`, centred on the pose.
    Circle(b2Circle),
    /// `b2Capsule`.
    Capsule(b2Capsule),
    /// `b2Polygon` (with the polygon's radius).
    Polygon(b2Polygon),
    /// `b2Segment`, two-sided.
    Segment(b2Segment),
    /// `b2ChainSegment`: one piece of a chain, one-sided, with its ghost points.
    ChainSegment(b2ChainSegment),
}

/// A point in f32, as Box2D holds it.
pub fn vec2(v: DVec2) -> b2Vec2 {
    b2Vec2 {
        x: v.x as f32,
        y: v.y as f32,
    }
}

/// A Box2D point in f64.
pub fn dvec(v: b2Vec2) -> DVec2 {
    DVec2::new(v.x as f64, v.y as f64)
}

/// A pose as a Box2D body's transform: position and (cos, sin) each rounded to f32.
pub fn transform(pose: Pose) -> b2Transform {
    let r = pose.rotation();
    b2Transform {
        p: vec2(pose.position),
        q: b2Rot {
            c: r.x as f32,
            s: r.y as f32,
        },
    }
}

/// `placed` as Box2D's shape (for a chain, its piece `piece`), or why Box2D cannot hold it.
/// Polygons go through `b2ComputeHull` and `b2MakePolygon` (with the polygon's radius), as a
/// game makes them: refused when they have more than `B2_MAX_POLYGON_VERTICES` (8) corners or
/// Box2D's hull merges some (nearly collinear within its linear slop).
pub fn to_box2d(placed: &Placed, piece: Option<usize>) -> Result<B2Shape, String> {
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
        Shape::Segment(s) => (
            B2Kind::Segment(b2Segment {
                point1: vec2(s.a()),
                point2: vec2(s.b()),
            }),
            vec![s.a(), s.b()],
            0.0,
        ),
        Shape::Chain(c) => {
            let p = asked_piece(c, piece)?;
            (
                B2Kind::ChainSegment(b2ChainSegment {
                    ghost1: vec2(p.g0),
                    segment: b2Segment {
                        point1: vec2(p.p1),
                        point2: vec2(p.p2),
                    },
                    ghost2: vec2(p.g3),
                    chainId: 0,
                }),
                vec![p.p1, p.p2],
                0.0,
            )
        }
        Shape::Polygon(p) => {
            let points: Vec<b2Vec2> = p.points().iter().map(|q| vec2(*q)).collect();
            if points.len() > 8 {
                return Err(format!(
                    "a polygon of {} corners: Box2D's polygons have at most 8",
                    points.len()
                ));
            }
            // SAFETY: plain data in, plain data out; the hull is checked before use.
            let hull = unsafe { b2ComputeHull(points.as_ptr(), points.len() as i32) };
            if hull.count as usize != points.len() {
                return Err(format!(
                    "Box2D's hull of the polygon's {} corners keeps {} (it merges corners \
                     within its linear slop of a line)",
                    points.len(),
                    hull.count
                ));
            }
            // SAFETY: a hull of 3 or more points, as b2ComputeHull made it.
            let polygon = unsafe { b2MakePolygon(&hull, p.radius() as f32) };
            let kept = (0..polygon.count as usize)
                .map(|i| dvec(polygon.vertices[i]))
                .collect();
            (B2Kind::Polygon(polygon), kept, p.radius())
        }
    };
    let points: Vec<b2Vec2> = points.iter().map(|q| vec2(*q)).collect();
    // SAFETY: `points` lives across the call, which copies it.
    let proxy = unsafe { b2MakeProxy(points.as_ptr(), points.len() as i32, radius as f32) };
    Ok(B2Shape {
        kind,
        pose: placed.pose,
        transform: transform(placed.pose),
        proxy,
    })
}

/// B's transform in A's frame, in f32: Box2D's `b2InvMulTransforms`.
pub fn b_in_a(a: &b2Transform, b: &b2Transform) -> b2Transform {
    let (q, r) = (a.q, b.q);
    let d = b2Vec2 {
        x: b.p.x - a.p.x,
        y: b.p.y - a.p.y,
    };
    b2Transform {
        q: b2Rot {
            c: q.c * r.c + q.s * r.s,
            s: q.c * r.s - q.s * r.c,
        },
        p: b2Vec2 {
            x: q.c * d.x + q.s * d.y,
            y: -q.s * d.x + q.c * d.y,
        },
    }
}

/// Box2D's manifold for A and B (normal from A to B, points in A's frame), calling the
/// function `b2UpdateContact` calls for the pair's kinds; a pair Box2D has only one order of
/// is asked the other way and turned back (normal flipped). `None` for two shapes Box2D never
/// collides (segments and chain pieces are static geometry).
pub fn box2d_manifold(a: &B2Shape, b: &B2Shape) -> Option<b2LocalManifold> {
    use B2Kind::*;
    let xf = b_in_a(&a.transform, &b.transform);
    let mut cache = b2SimplexCache {
        count: 0,
        indexA: [0; 3],
        indexB: [0; 3],
    };
    // SAFETY: each call reads the two shapes (and a fresh cache) and returns plain data.
    let m = unsafe {
        match (&a.kind, &b.kind) {
            (Circle(x), Circle(y)) => b2CollideCircles(x, y, xf),
            (Capsule(x), Circle(y)) => b2CollideCapsuleAndCircle(x, y, xf),
            (Capsule(x), Capsule(y)) => b2CollideCapsules(x, y, xf),
            (Polygon(x), Circle(y)) => b2CollidePolygonAndCircle(x, y, xf),
            (Polygon(x), Capsule(y)) => b2CollidePolygonAndCapsule(x, y, xf),
            (Polygon(x), Polygon(y)) => b2CollidePolygons(x, y, xf),
            (Segment(x), Circle(y)) => b2CollideSegmentAndCircle(x, y, xf),
            (Segment(x), Capsule(y)) => b2CollideSegmentAndCapsule(x, y, xf),
            (Segment(x), Polygon(y)) => b2CollideSegmentAndPolygon(x, y, xf),
            (ChainSegment(x), Circle(y)) => b2CollideChainSegmentAndCircle(x, y, xf),
            (ChainSegment(x), Capsule(y)) => b2CollideChainSegmentAndCapsule(x, y, xf, &mut cache),
            (ChainSegment(x), Polygon(y)) => b2CollideChainSegmentAndPolygon(x, y, xf, &mut cache),
            (Segment(_) | ChainSegment(_), Segment(_) | ChainSegment(_)) => return None,
            (Circle(_), _)
            | (Capsule(_), Polygon(_) | Segment(_) | ChainSegment(_))
            | (Polygon(_), Segment(_) | ChainSegment(_)) => {
                return box2d_manifold(b, a).map(|m| flipped(m, b, a));
            }
        }
    };
    Some(m)
}

/// A manifold of (B, A) given in B's frame, turned into one of (A, B) in A's frame.
fn flipped(m: b2LocalManifold, b: &B2Shape, a: &B2Shape) -> b2LocalManifold {
    let xf = b_in_a(&a.transform, &b.transform);
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

/// Box2D's manifold for A and B in world coordinates, as a capture holds it (ids 0 and 1;
/// `piece` the chain's piece), or `None` for two shapes Box2D never collides.
pub fn world_manifold(a: &B2Shape, b: &B2Shape, piece: Option<usize>) -> Option<Manifold> {
    let m = box2d_manifold(a, b)?;
    let points = m.points[..m.pointCount.clamp(0, 2) as usize]
        .iter()
        .map(|p| ManifoldPoint {
            point: a.pose.apply(dvec(p.point)),
            separation: p.separation as f64,
            impulse: None,
        })
        .collect();
    Some(Manifold {
        a: 0,
        b: 1,
        normal: a.pose.rotation().rotate(dvec(m.normal)),
        points,
        piece,
    })
}

/// Box2D's narrow phase, for engine fixture tests
/// (`collidoscope fixture --rust TEST.rs --engine box2d`): each pair rebuilt as Box2D holds it
/// and collided by its `b2Collide*` function (see the module's comment).
#[derive(Clone, Copy, Debug, Default)]
pub struct Box2dNarrowPhase;

impl NarrowPhase for Box2dNarrowPhase {
    fn name(&self) -> String {
        // SAFETY: b2GetVersion reads constants.
        let v = unsafe { b2GetVersion() };
        format!("Box2D {}.{}.{} (b2Collide*)", v.major, v.minor, v.revision)
    }

    fn contact(&self, a: &Placed, b: &Placed, piece: Option<usize>) -> Result<Reported, String> {
        let (x, y) = (to_box2d(a, piece)?, to_box2d(b, piece)?);
        let m = world_manifold(&x, &y, piece)
            .ok_or("Box2D collides no two static shapes (segments and chains)")?;
        // No manifold point: Box2D reports the pair apart.
        engine_answer(std::slice::from_ref(&m), piece)
    }
}
