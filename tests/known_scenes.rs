//! Named scenes from SAT tutorials and textbooks, with the verdicts and numbers they must give.

mod common;

use collidoscope::geometry::{DVec2, Placed, Pose, left_perp, right_perp};
use collidoscope::query::{
    AxisSource, NaiveMtv, Side, Verdict, collide, distance, naive_report, pair_report, sat_report,
};
use common::*;

/// The obstacle that shows the MTV direction bug: a parallelogram given clockwise.
fn clockwise_obstacle() -> Placed {
    polygon(
        &[v(50.0, 100.0), v(100.0, 75.0), v(50.0, 0.0), v(0.0, 25.0)],
        Pose::IDENTITY,
    )
}

/// Side `i` of the clockwise obstacle (given order) and its outward unit normal. The points are
/// clockwise, so outward is the left-hand normal of each given edge.
fn obstacle_side(i: usize) -> (DVec2, DVec2, DVec2) {
    let p = [v(50.0, 100.0), v(100.0, 75.0), v(50.0, 0.0), v(0.0, 25.0)];
    let (a, b) = (p[i], p[(i + 1) % 4]);
    (a, b, left_perp(b - a).normalize())
}

/// A circle of radius 5 entering side `i` of the obstacle at its middle, 1 unit deep.
fn circle_entering_side(i: usize) -> Placed {
    let (a, b, outward) = obstacle_side(i);
    circle(5.0, (a + b) * 0.5 + outward * 4.0)
}

#[test]
fn circle_entering_each_side_of_the_clockwise_obstacle_is_pushed_back_out_through_that_side() {
    for side in 0..4 {
        let (_, _, outward) = obstacle_side(side);
        let report = sat_report(&clockwise_obstacle(), &circle_entering_side(side));
        let mtv = report.mtv.expect("the circle is 1 unit inside");
        assert_close(mtv.depth, 1.0, 1e-9);
        assert_vec_close(mtv.normal, outward, 1e-9);
        // The deciding axis is the normal of that side or of the parallel side opposite it
        // (one line, equal overlap): the direction, not the edge, is what must be right.
        let AxisSource::EdgeNormal { of: Side::A, edge } = report.axes[mtv.axis].source else {
            panic!("decided by {:?}", report.axes[mtv.axis].source)
        };
        assert!(edge == side || edge == (side + 2) % 4);
        // Applying it separates them.
        let mut moved = circle_entering_side(side);
        moved.pose.position += mtv.translation() * (1.0 + 1e-9);
        assert!(collide(&clockwise_obstacle(), &moved).is_none());
    }
}

#[test]
fn with_the_circle_first_the_normal_points_into_the_obstacle() {
    for side in 0..4 {
        let (_, _, outward) = obstacle_side(side);
        let contact = collide(&circle_entering_side(side), &clockwise_obstacle()).unwrap();
        assert_close(contact.depth, 1.0, 1e-9);
        assert_vec_close(contact.normal, -outward, 1e-9);
    }
}

/// The naive rule's bug: opposite sides of the parallelogram give one axis with equal
/// overlap; the naive rule takes the first such edge's normal as it comes, which for a
/// clockwise polygon points inward. Entering through side 0 or 1, the first edge of the pair is
/// that very side, so the circle is pushed in; through side 2 or 3 the first edge is the
/// opposite side, whose inward normal happens to point out.
#[test]
fn the_naive_rule_pushes_the_circle_into_the_clockwise_obstacle_through_two_sides() {
    for side in 0..4 {
        let (_, _, outward) = obstacle_side(side);
        let (a, b) = (clockwise_obstacle(), circle_entering_side(side));
        let report = sat_report(&a, &b);
        let naive = NaiveMtv::of(&naive_report(&a, &b)).unwrap();
        assert_eq!(naive.axis, report.mtv.unwrap().axis);
        assert_close(naive.depth, 1.0, 1e-9);
        if side < 2 {
            assert_vec_close(naive.normal, -outward, 1e-9);
            assert!(naive.pushes_inward, "side {side}");
        } else {
            assert_vec_close(naive.normal, outward, 1e-9);
            assert!(!naive.pushes_inward, "side {side}");
        }
    }
}

#[test]
fn the_naive_rule_agrees_on_a_counter_clockwise_obstacle() {
    let ccw = polygon(
        &[v(0.0, 25.0), v(50.0, 0.0), v(100.0, 75.0), v(50.0, 100.0)],
        Pose::IDENTITY,
    );
    let circle = circle_entering_side(1);
    let report = sat_report(&ccw, &circle);
    let naive = NaiveMtv::of(&naive_report(&ccw, &circle)).unwrap();
    assert!(!naive.pushes_inward);
    assert_vec_close(naive.normal, report.mtv.unwrap().normal, 1e-12);
}

/// Polygon vs circle, as SAT tutorials tell it: near a corner every edge axis overlaps, only the axis
/// from the nearest corner toward the centre shows the gap.
#[test]
fn corner_false_positive_is_caught_by_the_vertex_to_centre_axis() {
    let square = polygon(
        &[v(-1.0, -1.0), v(1.0, -1.0), v(1.0, 1.0), v(-1.0, 1.0)],
        Pose::IDENTITY,
    );
    let ball = circle(0.5, v(1.4, 1.4));
    let report = sat_report(&square, &ball);
    let edge_axes: Vec<_> = report
        .axes
        .iter()
        .filter(|t| matches!(t.source, AxisSource::EdgeNormal { .. }))
        .collect();
    assert_eq!(edge_axes.len(), 4);
    assert!(
        edge_axes.iter().all(|t| !t.separating),
        "every edge axis overlaps"
    );
    let Verdict::Separated { first, widest, gap } = report.verdict else {
        panic!("expected separated, got {:?}", report.verdict)
    };
    assert_eq!(first, widest);
    assert_eq!(
        report.axes[first].source,
        AxisSource::VertexToCentre {
            polygon: Side::A,
            vertex: 2
        }
    );
    // The gap on that axis is the true distance: |(1.4,1.4) - (1,1)| - 0.5.
    let expected = 0.4 * 2f64.sqrt() - 0.5;
    assert_close(gap, expected, 1e-12);
    assert_close(distance(&square, &ball).distance, expected, 1e-12);
}

/// Two triangles whose only separating axis is the slanted edge's normal.
#[test]
fn triangles_separated_only_by_a_slanted_edge_normal() {
    let a = polygon(&[v(0.0, 0.0), v(4.0, 0.0), v(0.0, 4.0)], Pose::IDENTITY);
    let b = polygon(&[v(2.2, 2.2), v(4.5, 0.5), v(3.5, 5.0)], Pose::IDENTITY);
    let report = sat_report(&a, &b);
    let separating: Vec<_> = report
        .axes
        .iter()
        .enumerate()
        .filter(|(_, t)| t.separating)
        .map(|(i, _)| i)
        .collect();
    assert_eq!(separating.len(), 1, "{:#?}", report.axes);
    assert_eq!(
        report.axes[separating[0]].source,
        AxisSource::EdgeNormal {
            of: Side::A,
            edge: 1
        }
    );
    // Gap along (1,1)/sqrt 2 between the line x + y = 4 and the corner (2.2, 2.2).
    let Verdict::Separated { gap, .. } = report.verdict else {
        panic!("expected separated")
    };
    assert_close(gap, 0.4 / 2f64.sqrt(), 1e-12);
    assert!(collide(&a, &b).is_none());
}

#[test]
fn circle_over_the_middle_of_a_capsule_is_pushed_along_the_segment_normal() {
    let rail = capsule(v(-2.0, 0.0), v(2.0, 0.0), 0.5, Pose::IDENTITY);
    let ball = circle(0.5, v(0.3, 0.8));
    let contact = collide(&rail, &ball).unwrap();
    assert_close(contact.depth, 0.2, 1e-12);
    assert_vec_close(contact.normal, v(0.0, 1.0), 1e-12);
    assert_eq!(contact.points.len(), 1);
    // Halfway between the surfaces: y from 0.3 (ball's bottom) to 0.5 (rail's top).
    assert_vec_close(contact.points[0].point, v(0.3, 0.4), 1e-12);
}

#[test]
fn circle_beyond_a_capsule_end_is_pushed_along_the_end_to_centre_axis() {
    let rail = capsule(v(-2.0, 0.0), v(2.0, 0.0), 0.5, Pose::IDENTITY);
    let ball = circle(0.5, v(2.6, 0.3));
    let report = sat_report(&rail, &ball);
    let mtv = report.mtv.unwrap();
    let d = v(0.6, 0.3).length();
    assert_close(mtv.depth, 1.0 - d, 1e-12);
    assert_vec_close(mtv.normal, v(0.6, 0.3) / d, 1e-12);
    assert!(matches!(
        report.axes[mtv.axis].source,
        AxisSource::ClosestFeatures { .. }
    ));
    // And apart, the distance is measured to the end cap.
    let far = circle(0.5, v(3.2, 0.0));
    assert_close(distance(&rail, &far).distance, 0.2, 1e-12);
}

#[test]
fn zero_length_capsule_behaves_as_a_circle() {
    let dot = capsule(v(0.0, 0.0), v(0.0, 0.0), 1.0, Pose::at(v(3.0, 1.0)));
    let disc = circle(1.0, v(3.0, 1.0));
    let others = [
        circle(1.0, v(4.5, 1.0)),
        capsule(v(-1.0, 0.0), v(1.0, 0.0), 0.5, Pose::new(v(3.5, 2.2), 0.3)),
        polygon(
            &[v(0.0, 0.0), v(2.0, 0.0), v(1.0, 2.0)],
            Pose::new(v(3.2, 0.1), 1.0),
        ),
        polygon(
            &[v(0.0, 0.0), v(2.0, 0.0), v(1.0, 2.0)],
            Pose::new(v(7.0, 0.1), 1.0),
        ),
    ];
    for other in &others {
        let (x, y) = (pair_report(&dot, other), pair_report(&disc, other));
        assert_eq!(x.sat.verdict, y.sat.verdict);
        assert_eq!(x.contact.map(|c| c.depth), y.contact.map(|c| c.depth));
        assert_close(x.proximity.distance, y.proximity.distance, 1e-12);
    }
}

#[test]
fn shapes_near_a_million_units_from_the_origin_give_the_same_answers() {
    let scenes = [
        (clockwise_obstacle(), circle_entering_side(2)),
        (
            capsule(v(-2.0, 0.0), v(2.0, 0.0), 0.5, Pose::new(v(0.0, 0.0), 0.4)),
            polygon(
                &[v(0.0, 0.0), v(2.0, 0.0), v(1.0, 2.0)],
                Pose::new(v(0.5, 0.2), 1.0),
            ),
        ),
        (circle(1.0, v(0.0, 0.0)), circle(0.5, v(1.6, 0.2))),
    ];
    let far = v(1.0e6, -1.0e6);
    for (a, b) in scenes {
        let near = pair_report(&a, &b);
        let (mut fa, mut fb) = (a.clone(), b.clone());
        fa.pose.position += far;
        fb.pose.position += far;
        let moved = pair_report(&fa, &fb);
        assert_eq!(
            near.sat.verdict.clone_kind(),
            moved.sat.verdict.clone_kind()
        );
        match (near.contact, moved.contact) {
            (Some(x), Some(y)) => {
                assert_close(x.depth, y.depth, 1e-9);
                assert_vec_close(x.normal, y.normal, 1e-9);
                for (p, q) in x.points.iter().zip(&y.points) {
                    assert_vec_close(p.point + far, q.point, 1e-8);
                }
            }
            (None, None) => assert_close(near.proximity.distance, moved.proximity.distance, 1e-9),
            other => panic!("verdicts differ: {other:?}"),
        }
    }
}

/// The verdict without its numbers.
trait VerdictKind {
    fn clone_kind(&self) -> &'static str;
}

impl VerdictKind for Verdict {
    fn clone_kind(&self) -> &'static str {
        match self {
            Verdict::Separated { .. } => "separated",
            Verdict::Touching { .. } => "touching",
            Verdict::Shallow { .. } => "shallow",
            Verdict::Intersecting { .. } => "intersecting",
        }
    }
}

#[test]
fn two_boxes_overlapping_face_to_face_have_two_contact_points() {
    let floor = polygon(
        &[v(-5.0, -1.0), v(5.0, -1.0), v(5.0, 0.0), v(-5.0, 0.0)],
        Pose::IDENTITY,
    );
    let crate_ = polygon(
        &[v(-1.0, -1.0), v(1.0, -1.0), v(1.0, 1.0), v(-1.0, 1.0)],
        Pose::at(v(0.5, 0.9)),
    );
    let contact = collide(&floor, &crate_).unwrap();
    assert_close(contact.depth, 0.1, 1e-12);
    assert_vec_close(contact.normal, v(0.0, 1.0), 1e-12);
    assert_eq!(contact.points.len(), 2);
    let mut xs: Vec<f64> = contact.points.iter().map(|p| p.point.x).collect();
    xs.sort_by(f64::total_cmp);
    assert_close(xs[0], -0.5, 1e-12);
    assert_close(xs[1], 1.5, 1e-12);
    for p in &contact.points {
        assert_close(p.point.y, -0.05, 1e-12);
        assert_close(p.depth, 0.1, 1e-12);
    }
}

#[test]
fn touching_is_not_intersecting() {
    let a = polygon(
        &[v(0.0, 0.0), v(1.0, 0.0), v(1.0, 1.0), v(0.0, 1.0)],
        Pose::IDENTITY,
    );
    let b = polygon(
        &[v(0.0, 0.0), v(1.0, 0.0), v(1.0, 1.0), v(0.0, 1.0)],
        Pose::at(v(1.0, 0.5)),
    );
    let r = pair_report(&a, &b);
    assert!(matches!(r.sat.verdict, Verdict::Touching { .. }));
    assert!(r.contact.is_none());
    assert_eq!(r.proximity.distance, 0.0);
    let closest = r.proximity.closest.unwrap();
    assert_close(closest.point_a.x, 1.0, 1e-12);
    assert_vec_close(closest.point_a, closest.point_b, 1e-12);
}

#[test]
fn intersection_region_of_two_squares_is_exact() {
    let a = polygon(
        &[v(0.0, 0.0), v(2.0, 0.0), v(2.0, 2.0), v(0.0, 2.0)],
        Pose::IDENTITY,
    );
    let b = polygon(
        &[v(0.0, 0.0), v(2.0, 0.0), v(2.0, 2.0), v(0.0, 2.0)],
        Pose::at(v(1.0, 1.5)),
    );
    let r = pair_report(&a, &b);
    assert_eq!(r.region.tolerance, 0.0);
    let area = shoelace(&r.region.outline);
    assert_close(area, 1.0 * 0.5, 1e-12);
}

#[test]
fn intersection_region_of_rounded_shapes_is_within_its_tolerance() {
    // Two unit circles one radius apart: the lens has area 2 pi / 3 - sqrt(3) / 2.
    let r = pair_report(&circle(1.0, v(0.0, 0.0)), &circle(1.0, v(1.0, 0.0)));
    let exact = 2.0 * std::f64::consts::PI / 3.0 - 3f64.sqrt() / 2.0;
    let area = shoelace(&r.region.outline);
    assert!(
        area <= exact && area >= exact - r.region.tolerance * 4.0,
        "{area} vs {exact}"
    );
}

#[test]
fn the_lens_of_two_discs_is_drawn_on_their_arcs() {
    // Radii and gaps over overlapping, nested and nearly touching discs: every corner lies on
    // the boundary of the true lens (inside both discs, on one circle), the outline turns
    // counter-clockwise, and its area falls short of the exact lens by at most the chords'
    // tolerance along the lens's perimeter.
    let mut lenses = 0;
    for (ra, rb) in [
        (1.0, 1.0),
        (1.0, 0.25),
        (0.3, 2.0),
        (1e-3, 1e-3),
        (50.0, 49.0),
    ] {
        for k in 1..40 {
            let d = (ra + rb) * f64::from(k) / 40.0;
            let angle = f64::from(k) * 0.37;
            let ca = v(3.0, -2.0);
            let cb = ca + DVec2::from_angle(angle) * d;
            let r = pair_report(&circle(ra, ca), &circle(rb, cb));
            let outline = &r.region.outline;
            assert!(outline.len() >= 3, "{ra} {rb} {d}");
            let slack = 1e-12 * (ra + rb + ca.length());
            for p in outline {
                let (da, db) = (p.distance(ca), p.distance(cb));
                assert!(da <= ra + slack && db <= rb + slack, "{p} off the lens");
                assert!(
                    (da - ra).abs() <= slack || (db - rb).abs() <= slack,
                    "{p} on neither circle"
                );
            }
            let (exact, perimeter) = if d <= (ra - rb).abs() {
                let r = ra.min(rb);
                (std::f64::consts::PI * r * r, std::f64::consts::TAU * r)
            } else {
                lenses += 1;
                let half_a = ((d * d + ra * ra - rb * rb) / (2.0 * d * ra)).acos();
                let half_b = ((d * d + rb * rb - ra * ra) / (2.0 * d * rb)).acos();
                let kite =
                    0.5 * ((-d + ra + rb) * (d + ra - rb) * (d - ra + rb) * (d + ra + rb)).sqrt();
                (
                    ra * ra * half_a + rb * rb * half_b - kite,
                    2.0 * (ra * half_a + rb * half_b),
                )
            };
            let area = shoelace(outline);
            assert!(area > 0.0, "clockwise outline");
            assert!(
                area <= exact * (1.0 + 1e-9) && area >= exact - r.region.tolerance * perimeter,
                "{ra} {rb} {d}: {area} vs {exact}"
            );
        }
    }
    assert!(lenses > 100, "{lenses} lenses");
}

fn shoelace(points: &[DVec2]) -> f64 {
    let n = points.len();
    (0..n)
        .map(|i| points[i].perp_dot(points[(i + 1) % n]))
        .sum::<f64>()
        * 0.5
}

#[test]
fn right_perp_of_a_counter_clockwise_edge_points_outward() {
    // The convention the naive rule relies on.
    assert_eq!(right_perp(v(1.0, 0.0)), v(0.0, -1.0));
}

#[test]
fn every_pair_of_kinds_in_both_orders_gives_a_consistent_report() {
    let shapes = [
        circle(1.0, v(0.0, 0.0)),
        capsule(v(-1.0, 0.0), v(1.0, 0.0), 0.4, Pose::new(v(0.8, 0.6), 0.5)),
        polygon(
            &[v(-1.0, -1.0), v(1.0, -1.0), v(0.0, 1.2)],
            Pose::new(v(-0.5, 0.9), -0.3),
        ),
    ];
    for a in &shapes {
        for b in &shapes {
            if std::ptr::eq(a, b) {
                continue;
            }
            let ab = pair_report(a, b);
            let ba = pair_report(b, a);
            let (x, y) = (ab.contact.unwrap(), ba.contact.unwrap());
            assert_close(x.depth, y.depth, 1e-12);
            assert_vec_close(x.normal, -y.normal, 1e-12);
            assert!(!ab.region.outline.is_empty());
        }
    }
}

#[test]
fn distance_to_a_point_is_zero_inside_and_measured_outside() {
    use collidoscope::query::distance_to_point;
    let rail = capsule(v(-2.0, 0.0), v(2.0, 0.0), 0.5, Pose::new(v(10.0, 0.0), 0.0));
    assert_eq!(distance_to_point(&rail, v(10.0, 0.2)), 0.0);
    assert_close(distance_to_point(&rail, v(10.0, 1.5)), 1.0, 1e-12);
    assert_close(distance_to_point(&rail, v(13.0, 0.0)), 0.5, 1e-12);
    let square = polygon(
        &[v(-1.0, -1.0), v(1.0, -1.0), v(1.0, 1.0), v(-1.0, 1.0)],
        Pose::IDENTITY,
    );
    assert_eq!(distance_to_point(&square, v(0.5, -0.5)), 0.0);
    assert_close(distance_to_point(&square, v(2.0, 2.0)), 2f64.sqrt(), 1e-12);
}

/// Where overlaps tie, a walk in another order would pick another axis. `collide` compares
/// overlaps in the report's order; here it must still give the report's contact exactly:
/// axis-aligned boxes and hexagons (opposite edges are one line, so their overlaps are equal),
/// given in both windings and starting at each corner, against each other, capsules and
/// circles placed on a grid so that depths repeat.
#[test]
fn collide_agrees_with_explain_where_overlaps_tie() {
    let square = [v(-1.0, -1.0), v(1.0, -1.0), v(1.0, 1.0), v(-1.0, 1.0)];
    let hexagon = [
        v(-1.0, -1.0),
        v(1.0, -1.0),
        v(1.5, 0.0),
        v(1.0, 1.0),
        v(-1.0, 1.0),
        v(-1.5, 0.0),
    ];
    let mut boxes = Vec::new();
    for corners in [&square[..], &hexagon[..]] {
        let n = corners.len();
        for start in 0..n {
            let mut points: Vec<DVec2> = (0..n).map(|k| corners[(start + k) % n]).collect();
            boxes.push(points.clone());
            points.reverse();
            boxes.push(points);
        }
    }
    let mut ties = 0;
    let mut pairs = 0;
    for x in -3..=3 {
        for y in -3..=3 {
            let at = v(f64::from(x) * 0.5, f64::from(y) * 0.5);
            let others = boxes
                .iter()
                .map(|points| polygon(points, Pose::at(at)))
                .chain([
                    capsule(v(-1.0, 0.0), v(1.0, 0.0), 0.5, Pose::at(at)),
                    circle(1.0, at),
                ]);
            for other in others.collect::<Vec<_>>() {
                for points in &boxes {
                    let fixed = polygon(points, Pose::IDENTITY);
                    for (a, b) in [(&fixed, &other), (&other, &fixed)] {
                        let full = pair_report(a, b);
                        assert_eq!(collide(a, b), full.contact, "{a:?} {b:?}");
                        pairs += 1;
                        if let Some(mtv) = full.sat.mtv {
                            let tied = full
                                .sat
                                .axes
                                .iter()
                                .enumerate()
                                .any(|(i, t)| i != mtv.axis && t.overlap == mtv.depth);
                            ties += usize::from(tied);
                        }
                    }
                }
            }
        }
    }
    // The scenes really do tie, most of them.
    assert!(ties * 2 > pairs, "{ties} ties in {pairs} pairs");
}
