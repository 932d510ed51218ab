//! Invariants of the queries, each over 10,000 random pairs of every kind in either order,
//! rotated, polygons in either winding.

mod common;

use collidoscope::geometry::{DVec2, Placed, Pose};
use collidoscope::query::{collide, distance, pair_report, sat_report};
use common::*;
use proptest::prelude::*;

const CASES: u32 = 10_000;

fn rigidly_moved(p: &Placed, offset: DVec2, angle: f64, pivot: DVec2) -> Placed {
    Placed {
        shape: p.shape.clone(),
        pose: p.pose.moved(offset, angle, pivot),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(CASES))]

    /// Moving B by a hair more than the MTV leaves the pair apart.
    #[test]
    fn moving_b_by_the_mtv_separates(a in arb_placed(), b in arb_placed()) {
        if let Some(contact) = collide(&a, &b) {
            let mut moved = b.clone();
            moved.pose.position += contact.normal * (contact.depth + 1e-9);
            prop_assert!(collide(&a, &moved).is_none(), "still intersecting after {:?}", contact);
            prop_assert!(contact.depth > 0.0);
            prop_assert!((contact.normal.length() - 1.0).abs() < 1e-12);
        }
    }

    /// Swapping A and B keeps depth and distance and flips the normal.
    #[test]
    fn swapping_flips_the_normal(a in arb_placed(), b in arb_placed()) {
        let (ab, ba) = (sat_report(&a, &b), sat_report(&b, &a));
        match (ab.mtv, ba.mtv) {
            (Some(x), Some(y)) => {
                prop_assert!((x.depth - y.depth).abs() <= 1e-9 * (1.0 + x.depth));
                if unique_least(&ab, 1e-9) && unique_least(&ba, 1e-9) {
                    prop_assert!(x.normal.distance(-y.normal) <= 1e-9, "{:?} vs {:?}", x, y);
                }
            }
            (None, None) => {
                let (dx, dy) = (distance(&a, &b), distance(&b, &a));
                prop_assert!((dx.distance - dy.distance).abs() <= 1e-9);
                if let (Some(p), Some(q)) = (dx.closest, dy.closest) {
                    prop_assert!(p.point_a.distance(q.point_b) <= 1e-9);
                    prop_assert!(p.point_b.distance(q.point_a) <= 1e-9);
                }
            }
            (x, y) => {
                // Only a pair within rounding of touching may disagree.
                let depth = x.or(y).unwrap().depth;
                prop_assert!(depth < 1e-12, "one order intersects by {depth}, the other not");
            }
        }
    }

    /// Moving and turning both shapes together changes nothing but the frame.
    #[test]
    fn a_rigid_motion_of_both_changes_only_the_frame(
        a in arb_placed(),
        b in arb_placed(),
        offset in (-50.0..50.0f64, -50.0..50.0f64),
        angle in -3.2..3.2f64,
        pivot in (-5.0..5.0f64, -5.0..5.0f64),
    ) {
        let (offset, pivot) = (v(offset.0, offset.1), v(pivot.0, pivot.1));
        let (ma, mb) = (rigidly_moved(&a, offset, angle, pivot), rigidly_moved(&b, offset, angle, pivot));
        let (before, after) = (pair_report(&a, &b), pair_report(&ma, &mb));
        let turn = DVec2::from_angle(angle);
        match (&before.contact, &after.contact) {
            (Some(x), Some(y)) => {
                prop_assert!((x.depth - y.depth).abs() <= 1e-9 * (1.0 + x.depth));
                if unique_least(&before.sat, 1e-9) && unique_least(&after.sat, 1e-9) {
                    prop_assert!(turn.rotate(x.normal).distance(y.normal) <= 1e-9);
                }
            }
            (None, None) => {
                prop_assert!((before.proximity.distance - after.proximity.distance).abs() <= 1e-9);
                if let (Some(p), Some(q)) = (before.proximity.closest, after.proximity.closest) {
                    let moved = Pose::IDENTITY.moved(offset, angle, pivot);
                    let _ = moved;
                    let map = |x: DVec2| turn.rotate(x + offset - pivot) + pivot;
                    prop_assert!(map(p.point_a).distance(q.point_a) <= 1e-8);
                    prop_assert!(map(p.point_b).distance(q.point_b) <= 1e-8);
                }
            }
            (x, y) => {
                let depth = x.as_ref().or(y.as_ref()).unwrap().depth;
                prop_assert!(depth < 1e-9, "motion changed the verdict (depth {depth})");
            }
        }
    }

    /// The fast path and the report agree exactly.
    #[test]
    fn collide_agrees_with_explain(a in arb_placed(), b in arb_placed()) {
        let full = pair_report(&a, &b);
        let fast = collide(&a, &b);
        prop_assert_eq!(&fast, &full.contact);
        prop_assert_eq!(fast.as_ref().map(|c| c.depth), full.sat.mtv.map(|m| m.depth));
        prop_assert_eq!(fast.is_some(), full.sat.intersecting());
        // explain's per-pair shortcuts (two circles) give the general walk's report exactly.
        prop_assert_eq!(sat_report(&a, &b), full.sat);
    }

    /// `distance` decides "intersecting" as `collide` does (its closest points come first,
    /// the separating-axis test only near touching), and measures what the report measures.
    #[test]
    fn distance_agrees_with_collide_and_the_report(a in arb_placed(), b in arb_placed()) {
        let fast = distance(&a, &b);
        let full = pair_report(&a, &b);
        prop_assert_eq!(fast.closest.is_none(), collide(&a, &b).is_some());
        let scale = 1.0 + full.proximity.distance;
        prop_assert!((fast.distance - full.proximity.distance).abs() <= 1e-12 * scale,
            "{} vs {}", fast.distance, full.proximity.distance);
    }

    /// Contact points lie in both shapes' reach, and the depth never exceeds the MTV's.
    #[test]
    fn contact_points_are_between_the_surfaces(a in arb_placed(), b in arb_placed()) {
        if let Some(contact) = collide(&a, &b) {
            prop_assert!(!contact.points.is_empty() && contact.points.len() <= 2);
            for p in &contact.points {
                prop_assert!(p.depth > 0.0 && p.depth <= contact.depth + 1e-9);
                // A point halfway between the surfaces is at most depth/2 outside either shape.
                for shape in [&a, &b] {
                    let probe = Placed::new(collidoscope::geometry::Circle::new(1e-9).unwrap(), Pose::at(p.point));
                    let d = distance(shape, &probe).distance;
                    prop_assert!(d <= 0.5 * contact.depth + 1e-7, "{d} from {:?}", shape.shape.kind());
                }
            }
        }
    }
}
