//! Chains against Box2D v3.2 (`boxdd-sys`): thousands of random pieces with flat, nearly
//! flat, convex and concave corners at either end, each against a random polygon near it,
//! every coordinate rounded to f32 so both see the same shapes.
//!
//! - The piece alone, two-sided: collidoscope's `two_sided` against `b2CollideSegmentAndPolygon`,
//!   as the main differential judges a pair: the same verdict away from touching, the same
//!   depth to f32 on the same axis (another face of Box2D's choosing is counted).
//! - The chain rule against `b2CollideChainSegmentAndPolygon`: the same verdict and, on the
//!   same normal, the same depth, except in the deliberate differences docs/format.md names,
//!   each counted and checked by its kind:
//!   - `clipped`: Box2D measures a face or snapped contact at the points clipped to the piece
//!     (none when the polygon's deepest corner lies past the piece's end); collidoscope takes
//!     the polygon's whole push. Checked: the deepest corner along the normal is past an end,
//!     and Box2D's depth is less (or it has none).
//!   - `neighbour incident`: inside a convex corner's range Box2D leaves a polygon's face
//!     contact to the neighbour whose normal is closer; collidoscope lets both pieces report
//!     it. Checked: the normal is nearer that convex neighbour's normal than the piece's own.
//!   - `sin tolerance`: Box2D admits a normal up to sin 0.01 past a convex corner's range
//!     where collidoscope's range is exact. Checked: Box2D's normal is outside the range by
//!     at most 0.01 (and f32 rounding).
//!
//! Anything else fails the test.
//!
//! Run with `--nocapture` to see the counts.

mod common;

use boxdd_sys::ffi::*;
use collidoscope::geometry::{Chain, DVec2, Placed, Pose, Shape, ShapeKind};
use collidoscope::query::{ChainRule, PieceResult, chain_piece};
use common::box2d::{B2Kind, dvec, has_box2d, rounded_to_f32, to_box2d, vec2};
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;

const PIECES: usize = 4_000;
/// Depths under this are within Box2D's f32 rounding of touching.
const TOUCHING: f64 = 1e-4;
/// f32 agreement of a depth at these coordinates.
const F32: f64 = 2e-5;
/// The same normal, to f32.
const SAME_AXIS: f64 = 1e-4;
/// Box2D's `sinTol` in `b2ClassifyNormal`.
const SIN_TOL: f64 = 0.01;

/// A corner's turn (radians, left positive): flat, bent less than the convex tolerance,
/// convex, or concave.
fn turn(choice: u8, amount: f64) -> f64 {
    match choice % 4 {
        0 => 0.0,
        1 => (amount - 0.5) * 0.01,
        2 => 0.05 + amount * 1.2,
        _ => -(0.05 + amount * 1.2),
    }
}

fn rotate(v: DVec2, angle: f64) -> DVec2 {
    DVec2::from_angle(angle).rotate(v)
}

/// A one-piece chain (ghost, p1, p2, ghost) at the identity pose, rounded to f32, and a polygon.
fn cases() -> Vec<(Placed, Placed)> {
    let mut runner = TestRunner::deterministic();
    let strategy = (
        (-2.0..2.0f64, -2.0..2.0f64, -3.2..3.2f64, 0.3..3.0f64),
        (
            0u8..4,
            0.0..1.0f64,
            0u8..4,
            0.0..1.0f64,
            0.2..2.0f64,
            0.2..2.0f64,
        ),
        common::arb_placed_of(ShapeKind::Polygon),
    );
    let mut cases = Vec::with_capacity(PIECES);
    while cases.len() < PIECES {
        let ((x, y, angle, length), (ct, at, ch, ah, l0, l2), polygon) =
            strategy.new_tree(&mut runner).unwrap().current();
        let p1 = DVec2::new(x, y);
        let e1 = DVec2::from_angle(angle);
        let p2 = p1 + e1 * length;
        let g0 = p1 - rotate(e1, -turn(ct, at)) * l0;
        let g3 = p2 + rotate(e1, turn(ch, ah)) * l2;
        let Ok(chain) = Chain::new(vec![g0, p1, p2, g3], false) else {
            continue;
        };
        let (Some(chain), Some(polygon)) = (
            rounded_to_f32(&Placed::new(chain, Pose::IDENTITY)),
            rounded_to_f32(&polygon),
        ) else {
            continue;
        };
        if !has_box2d(&polygon) {
            continue;
        }
        // Near the piece: the polygon's box overlaps the piece's, grown by 0.5.
        let points = chain.shape.as_chain().unwrap().points().to_vec();
        let (lo, hi) = (points[1].min(points[2]), points[1].max(points[2]));
        let (pmin, pmax) = polygon.aabb();
        if pmin.cmple(hi + 0.5).all() && (lo - 0.5).cmple(pmax).all() {
            cases.push((chain, polygon));
        }
    }
    cases
}

/// Box2D's deepest penetration and normal of a manifold (`None` when no point penetrates).
fn penetration(m: &b2LocalManifold) -> Option<(f64, DVec2)> {
    let deepest = m.points[..m.pointCount as usize]
        .iter()
        .map(|p| p.separation as f64)
        .fold(f64::INFINITY, f64::min);
    (deepest < 0.0).then(|| (-deepest, dvec(m.normal)))
}

fn angle(a: DVec2, b: DVec2) -> f64 {
    a.perp_dot(b).atan2(a.dot(b)).abs()
}

#[derive(Debug, Default)]
struct Counts {
    agree_contact: usize,
    agree_none: usize,
    near_touching: usize,
    clipped: usize,
    neighbour_incident: usize,
    sin_tolerance: usize,
    two_sided_same_axis: usize,
    two_sided_other_face: usize,
    two_sided_apart: usize,
}

#[test]
fn the_chain_rule_agrees_with_box2d_except_where_the_contract_says_it_differs() {
    let mut counts = Counts::default();
    let mut rules = [0usize; 5];
    for (i, (chain, polygon)) in cases().iter().enumerate() {
        let piece: PieceResult = chain_piece(chain, polygon, 1).expect("piece 1");
        rules[ChainRule::ALL
            .iter()
            .position(|r| *r == piece.rule)
            .unwrap()] += 1;
        let points = chain.shape.as_chain().unwrap().points().to_vec();
        let b2 = to_box2d(polygon);
        let B2Kind::Polygon(b2_polygon) = b2.kind else {
            unreachable!()
        };
        let segment = b2Segment {
            point1: vec2(points[1]),
            point2: vec2(points[2]),
        };
        let chain_segment = b2ChainSegment {
            ghost1: vec2(points[0]),
            segment,
            ghost2: vec2(points[3]),
            chainId: 0,
        };
        let mut cache = b2SimplexCache {
            count: 0,
            indexA: [0; 3],
            indexB: [0; 3],
        };
        // SAFETY: plain data in and out; the chain is at the identity, so B's transform is
        // B in A's frame.
        let (two, one) = unsafe {
            (
                b2CollideSegmentAndPolygon(&segment, &b2_polygon, b2.transform),
                b2CollideChainSegmentAndPolygon(
                    &chain_segment,
                    &b2_polygon,
                    b2.transform,
                    &mut cache,
                ),
            )
        };
        let context = || format!("case {i}: {chain:?} / {polygon:?}: {piece:?}");

        // The piece alone, two-sided.
        let ours_two = piece.two_sided;
        let near_two = ours_two.intersecting && ours_two.depth < TOUCHING;
        match (ours_two.intersecting, penetration(&two)) {
            _ if near_two => {}
            (true, Some((depth, normal))) => {
                let n = ours_two.normal.unwrap();
                if angle(n, normal) <= SAME_AXIS {
                    counts.two_sided_same_axis += 1;
                    assert!(
                        (ours_two.depth - depth).abs() <= F32,
                        "{}: two-sided depth {} vs Box2D {depth}",
                        context(),
                        ours_two.depth
                    );
                } else {
                    counts.two_sided_other_face += 1;
                }
            }
            (false, None) => counts.two_sided_apart += 1,
            (false, Some((depth, _))) if depth < TOUCHING => {}
            (ours, theirs) => panic!("{}: two-sided {ours} vs Box2D {theirs:?}", context()),
        }

        // The chain rule.
        let ours = piece
            .summary
            .normal
            .filter(|_| piece.summary.intersecting)
            .map(|n| (piece.summary.depth, n));
        let theirs = penetration(&one);
        let shallow = |x: Option<(f64, DVec2)>| x.is_some_and(|(d, _)| d < TOUCHING);
        if shallow(ours) || shallow(theirs) || near_two {
            counts.near_touching += 1;
            continue;
        }
        let (e1, n1) = {
            let e = (points[2] - points[1]).normalize();
            (e, DVec2::new(e.y, -e.x))
        };
        // The polygon's deepest corner along `n` (from the piece toward it) lies past an end.
        let past_an_end = |n: DVec2| {
            let Shape::Polygon(p) = &polygon.shape else {
                unreachable!()
            };
            let deepest = p
                .points()
                .iter()
                .map(|q| polygon.pose.apply(*q))
                .min_by(|a, b| a.dot(n).total_cmp(&b.dot(n)))
                .unwrap();
            let t = (deepest - points[1]).dot(e1);
            t < 0.0 || t > (points[2] - points[1]).length()
        };
        let admissible = piece.admissible;
        match (ours, theirs) {
            (Some((d, n)), Some((bd, bn))) if angle(n, bn) <= SAME_AXIS => {
                if (d - bd).abs() <= F32 {
                    counts.agree_contact += 1;
                } else if bd < d && past_an_end(n) {
                    counts.clipped += 1;
                } else {
                    panic!("{}: depth {d} vs Box2D {bd} along {n}", context());
                }
            }
            (None, None) => counts.agree_none += 1,
            (Some((_, n)), None) => {
                let nearer = |m: Option<DVec2>| m.is_some_and(|m| m.dot(n) > n1.dot(n));
                if nearer(admissible.tail) || nearer(admissible.head) {
                    counts.neighbour_incident += 1;
                } else if past_an_end(n) {
                    counts.clipped += 1;
                } else {
                    panic!("{}: contact along {n}, Box2D none", context());
                }
            }
            (None, Some((_, bn))) => {
                // Past a convex end's neighbour normal by at most Box2D's tolerance.
                let past = |m: Option<DVec2>| {
                    m.is_some_and(|m| angle(m, bn) <= SIN_TOL * 1.001 + SAME_AXIS)
                };
                if piece.rule == ChainRule::Skip && (past(admissible.tail) || past(admissible.head))
                {
                    counts.sin_tolerance += 1;
                } else {
                    panic!(
                        "{}: no contact ({:?}), Box2D along {bn}",
                        context(),
                        piece.rule
                    );
                }
            }
            (Some((_, n)), Some((_, bn))) => {
                panic!("{}: normal {n} vs Box2D {bn}", context());
            }
        }
    }
    println!("rules (apart, behind, skip, admit, snap): {rules:?}");
    println!("{counts:#?}");
    assert!(
        rules.iter().all(|&k| k > PIECES / 50),
        "every rule is exercised: {rules:?}"
    );
    let agreed = counts.agree_contact + counts.agree_none;
    assert!(agreed > PIECES * 3 / 4, "{counts:?}");
    assert!(counts.agree_contact > PIECES / 10, "{counts:?}");
}
