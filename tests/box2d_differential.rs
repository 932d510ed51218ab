//! collidoscope against Box2D v3.2 (the C library, through `boxdd-sys`) on 10,000 random pairs
//! of every kind whose boxes overlap, every coordinate rounded to f32 so both see the same
//! shapes.
//!
//! - Verdicts agree, except where the pair is within f32 rounding of touching (Box2D computes
//!   in f32: a depth or gap under `TOUCHING` may go either way). Those are counted.
//! - Where both say intersecting and Box2D's normal lies on collidoscope's MTV axis, the depths
//!   agree to f32 precision. Where Box2D picks another face (its polygon rules prefer a face of
//!   A within a linear slop, 0.005, of the best, and its capsule rule a polygon face), the
//!   test counts it and prints the largest depth difference there.
//! - Where both say apart, the distances agree to f32 precision.
//!
//! Run with `--nocapture` to see the counts.

mod common;

use collidoscope::geometry::{Placed, ShapeKind};
use collidoscope::query::{collide, distance};
use common::box2d::{box2d_collide, box2d_distance, has_box2d, rounded_to_f32, to_box2d};
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;

const PAIRS: usize = 10_000;
/// Depths and gaps under this are within Box2D's f32 rounding of touching (coordinates up to
/// ~10 units: an f32 ulp there is ~1e-6, and Box2D's rotations and clipping add a few).
const TOUCHING: f64 = 1e-4;
/// f32 agreement of a depth or distance at these coordinates (measured: within 7.4e-7 on the
/// same axis, every kind).
const F32: f64 = 2e-5;
/// Box2D's normal on collidoscope's MTV axis: within this angle (rad). Box2D's f32 normal is
/// off by about an f32 ulp of the coordinates over the distance it is taken across (centres
/// 0.01 apart: 1e-4 rad), so "the same axis" allows that much.
const SAME_AXIS: f64 = 1e-4;

/// The pairs of kinds (a, b), as the test's generator makes them.
fn pairs(a: ShapeKind, b: ShapeKind) -> Vec<(Placed, Placed)> {
    let mut runner = TestRunner::deterministic();
    let strategy = (common::arb_placed_of(a), common::arb_placed_of(b));
    let mut pairs = Vec::with_capacity(PAIRS);
    while pairs.len() < PAIRS {
        let (x, y) = strategy.new_tree(&mut runner).unwrap().current();
        let (Some(x), Some(y)) = (rounded_to_f32(&x), rounded_to_f32(&y)) else {
            continue;
        };
        if !(has_box2d(&x) && has_box2d(&y)) {
            continue;
        }
        let ((x_min, x_max), (y_min, y_max)) = (x.aabb(), y.aabb());
        if x_min.cmple(y_max).all() && y_min.cmple(x_max).all() {
            pairs.push((x, y));
        }
    }
    pairs
}

#[derive(Debug, Default)]
struct Counts {
    intersecting: usize,
    apart: usize,
    near_touching: usize,
    same_axis: usize,
    /// The largest |depth - Box2D's depth| on the same axis.
    same_axis_depth_difference: f64,
    other_face: usize,
    /// The largest |depth - Box2D's depth| where Box2D chose another face.
    other_face_depth_difference: f64,
}

#[test]
fn verdicts_depths_and_distances_agree_with_box2d_on_ten_thousand_pairs_per_kind() {
    for (ka, kb) in common::KIND_PAIRS {
        let mut counts = Counts::default();
        for (i, (a, b)) in pairs(ka, kb).iter().enumerate() {
            let (ba, bb) = (to_box2d(a), to_box2d(b));
            let ours = collide(a, b);
            let theirs = box2d_collide(&ba, &bb);
            let gap = distance(a, b).distance;
            let near = ours.as_ref().map_or(gap, |c| c.depth) < TOUCHING;
            let context = || format!("{ka}-{kb} pair {i}: {a:?} / {b:?}");
            match (&ours, theirs) {
                _ if near => counts.near_touching += 1,
                (Some(c), Some((depth, normal))) => {
                    counts.intersecting += 1;
                    // The angle between the normals (Box2D's is unit only to f32).
                    let angle = c.normal.perp_dot(normal).atan2(c.normal.dot(normal)).abs();
                    if angle <= SAME_AXIS {
                        counts.same_axis += 1;
                        counts.same_axis_depth_difference = counts
                            .same_axis_depth_difference
                            .max((c.depth - depth).abs());
                        assert!(
                            (c.depth - depth).abs() <= F32,
                            "{}: depth {} vs Box2D {depth}",
                            context(),
                            c.depth
                        );
                    } else {
                        // Another face, by Box2D's own rules (a preferred face within a slop,
                        // clipped points): said and counted, not judged.
                        counts.other_face += 1;
                        counts.other_face_depth_difference = counts
                            .other_face_depth_difference
                            .max((c.depth - depth).abs());
                    }
                }
                (None, None) => {
                    counts.apart += 1;
                    let (d, ..) = box2d_distance(&ba, &bb);
                    assert!(
                        (gap - d).abs() <= F32,
                        "{}: distance {gap} vs Box2D {d}",
                        context()
                    );
                }
                (Some(c), None) => panic!(
                    "{}: collidoscope says intersecting by {}, Box2D apart",
                    context(),
                    c.depth
                ),
                (None, Some((depth, _))) => panic!(
                    "{}: collidoscope says apart by {gap}, Box2D intersecting by {depth}",
                    context()
                ),
            }
        }
        println!("{ka}-{kb}: {counts:?}");
        let judged = counts.intersecting + counts.apart;
        assert!(
            judged >= PAIRS * 9 / 10,
            "{ka}-{kb}: most pairs are judged, not near touching: {counts:?}"
        );
        assert!(counts.intersecting > PAIRS / 10 && counts.apart > PAIRS / 10);
    }
}
