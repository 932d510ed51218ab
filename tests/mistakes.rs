//! The known mistakes reproduce their classic scenes, each as a report shaped like the correct
//! test's, and `diagnose` names them when another engine's claim is what they produce.

mod common;

use collidoscope::diagnose::diagnose_claim;
use collidoscope::geometry::{DVec2, Placed, Pose};
use collidoscope::query::{
    AxisSource, Mistake, Outcome, Verdict, mistaken_outcome, mistaken_report, sat_report, summarize,
};
use collidoscope::scene::{Claim, Scene, SceneShape, ShapeId};
use common::*;
use proptest::prelude::*;

/// `a` and `b` as a scene with one claim: what `mistake` reports about them.
fn claim_of(a: &Placed, b: &Placed, outcome: Outcome) -> (Scene, Claim) {
    let scene = Scene::from_shapes(vec![
        SceneShape::named("a", a.clone()),
        SceneShape::named("b", b.clone()),
    ]);
    let claim = if outcome.intersecting {
        Claim::intersecting(
            ShapeId(0),
            ShapeId(1),
            outcome.depth,
            outcome.normal.unwrap(),
        )
    } else {
        Claim::apart(ShapeId(0), ShapeId(1), None)
    };
    (scene, claim)
}

/// The mistakes `diagnose` names for the claim that `mistake`'s code would make.
fn named_for(mistake: Mistake, a: &Placed, b: &Placed) -> Vec<Mistake> {
    let (scene, claim) = claim_of(a, b, mistaken_outcome(mistake, a, b));
    let d = diagnose_claim(&scene, &claim).unwrap();
    assert!(!d.agrees(), "{mistake} agrees with the exact result here");
    d.check.matches
}

/// A clockwise square wall, side 2, at the origin.
fn clockwise_wall() -> Placed {
    polygon(
        &[v(-1.0, 1.0), v(1.0, 1.0), v(1.0, -1.0), v(-1.0, -1.0)],
        Pose::IDENTITY,
    )
}

/// The four sides of the wall as (outward normal), in the wall's edge order: top, right,
/// bottom, left.
const SIDES: [(f64, f64); 4] = [(0.0, 1.0), (1.0, 0.0), (0.0, -1.0), (-1.0, 0.0)];

#[test]
fn naive_smallest_overlap_pushes_into_a_clockwise_wall_through_the_sides_its_edges_list_first() {
    for (side, (x, y)) in SIDES.into_iter().enumerate() {
        let outward = v(x, y);
        // A ball 0.2 deep into this side.
        let ball = circle(0.5, outward * 1.3);
        let wall = clockwise_wall();
        let exact = sat_report(&wall, &ball).mtv.unwrap();
        assert_close(exact.depth, 0.2, 1e-12);
        assert_vec_close(exact.normal, outward, 1e-12);
        let naive = mistaken_report(Mistake::NaiveSmallestOverlap, &wall, &ball);
        assert_eq!(naive.mistake, Some(Mistake::NaiveSmallestOverlap));
        // Its axes, in its order: the four edges, then the four corners toward the centre.
        assert_eq!(naive.axes.len(), 8);
        assert!(matches!(
            naive.axes[5].source,
            AxisSource::VertexToCentre { vertex: 1, .. }
        ));
        let mtv = naive.mtv.unwrap();
        assert_close(mtv.depth, 0.2, 1e-12);
        // Opposite edges give one line and one overlap: the first listed wins, and its
        // right-hand normal points inward. Top and right come before bottom and left.
        if side < 2 {
            assert_vec_close(mtv.normal, -outward, 1e-12);
            assert_eq!(
                named_for(Mistake::NaiveSmallestOverlap, &wall, &ball),
                [Mistake::NormalReversed, Mistake::NaiveSmallestOverlap],
                "side {side}"
            );
        } else {
            assert_vec_close(mtv.normal, outward, 1e-12);
        }
    }
}

#[test]
fn edge_normals_only_reports_a_ball_off_a_corner_as_a_contact() {
    let block = polygon(
        &[v(-1.0, -1.0), v(1.0, -1.0), v(1.0, 1.0), v(-1.0, 1.0)],
        Pose::IDENTITY,
    );
    // Off the corner (1, 1): 0.566 from it, radius 0.5; 0.08 and 0.12 into the edge lines.
    let ball = circle(0.5, v(1.42, 1.38));
    assert!(summarize(&block, &ball).distance > 0.06);
    let report = mistaken_report(Mistake::EdgeNormalsOnly, &block, &ball);
    assert_eq!(report.axes.len(), 4, "no corner axis");
    let mtv = report.mtv.unwrap();
    assert_close(mtv.depth, 0.08, 1e-12);
    assert_vec_close(mtv.normal, DVec2::X, 1e-12);
    assert_eq!(
        named_for(Mistake::EdgeNormalsOnly, &block, &ball),
        [Mistake::EdgeNormalsOnly]
    );
}

#[test]
fn edge_normals_only_reports_a_capsule_end_near_a_corner_as_a_contact() {
    let block = polygon(
        &[v(-1.0, -1.0), v(1.0, -1.0), v(1.0, 1.0), v(-1.0, 1.0)],
        Pose::IDENTITY,
    );
    // A horizontal rail whose left end cap sits off the block's corner (1, 1).
    let rail = capsule(v(0.0, 0.0), v(3.0, 0.0), 0.3, Pose::at(v(1.25, 1.25)));
    let exact = summarize(&block, &rail);
    assert!(!exact.intersecting && exact.distance > 0.05);
    let report = mistaken_report(Mistake::EdgeNormalsOnly, &block, &rail);
    assert!(
        report
            .axes
            .iter()
            .all(|t| !matches!(t.source, AxisSource::ClosestFeatures { .. }))
    );
    assert!(report.mtv.is_some());
    assert_eq!(
        named_for(Mistake::EdgeNormalsOnly, &block, &rail),
        [Mistake::EdgeNormalsOnly]
    );
}

#[test]
fn shallow_ignored_calls_a_penetration_of_5e_5_apart() {
    let shelf = polygon(
        &[v(-2.0, -0.5), v(2.0, -0.5), v(2.0, 0.5), v(-2.0, 0.5)],
        Pose::IDENTITY,
    );
    let book = polygon(
        &[v(-0.5, -0.5), v(0.5, -0.5), v(0.5, 0.5), v(-0.5, 0.5)],
        Pose::at(v(0.0, 0.99995)),
    );
    let exact = summarize(&shelf, &book);
    assert!(exact.intersecting);
    assert_close(exact.depth, 5e-5, 1e-12);
    let report = mistaken_report(Mistake::ShallowIgnored, &shelf, &book);
    let Verdict::Shallow {
        depth, threshold, ..
    } = report.verdict
    else {
        panic!("{:?}", report.verdict)
    };
    assert_close(depth, 5e-5, 1e-12);
    assert_eq!(threshold, 1e-4);
    assert_eq!(report.mtv, None);
    let outcome = mistaken_outcome(Mistake::ShallowIgnored, &shelf, &book);
    assert_eq!(outcome.distance, Some(0.0));
    // The naive rule's threshold hides it too.
    assert_eq!(
        named_for(Mistake::ShallowIgnored, &shelf, &book),
        [Mistake::NaiveSmallestOverlap, Mistake::ShallowIgnored]
    );
    // One tenth of a unit deeper, both see it.
    let deeper = polygon(
        &[v(-0.5, -0.5), v(0.5, -0.5), v(0.5, 0.5), v(-0.5, 0.5)],
        Pose::at(v(0.0, 0.9)),
    );
    assert!(mistaken_outcome(Mistake::ShallowIgnored, &shelf, &deeper).intersecting);
}

#[test]
fn normal_reversed_is_the_claim_of_an_engine_that_swapped_the_pair() {
    // Counter-clockwise, top edge first: the naive rule gets this one right.
    let floor = polygon(
        &[v(5.0, 0.0), v(-5.0, 0.0), v(-5.0, -1.0), v(5.0, -1.0)],
        Pose::IDENTITY,
    );
    let crate_ = polygon(
        &[v(-1.0, -1.0), v(1.0, -1.0), v(1.0, 1.0), v(-1.0, 1.0)],
        Pose::at(v(0.5, 0.9)),
    );
    // The engine answered for (crate, floor) and reported it as (floor, crate).
    let swapped = summarize(&crate_, &floor);
    let (scene, _) = claim_of(
        &floor,
        &crate_,
        mistaken_outcome(Mistake::NormalReversed, &floor, &crate_),
    );
    let claim = Claim::intersecting(
        ShapeId(0),
        ShapeId(1),
        swapped.depth,
        swapped.normal.unwrap(),
    );
    let d = diagnose_claim(&scene, &claim).unwrap();
    assert!(!d.agrees());
    assert_eq!(d.check.matches, [Mistake::NormalReversed]);
    assert_close(
        d.check.differences.normal_angle.unwrap(),
        std::f64::consts::PI,
        1e-12,
    );
}

#[test]
fn the_naive_rule_measures_the_intervals_common_part_with_its_threshold() {
    // A small ball wholly inside a big one's shadow on the centre line: the common part is
    // the small ball's diameter, not the shorter push.
    let big = circle(2.0, v(0.0, 0.0));
    let small = circle(0.25, v(1.0, 0.0));
    let report = mistaken_report(Mistake::NaiveSmallestOverlap, &big, &small);
    assert_eq!(report.axes.len(), 1);
    assert_close(report.axes[0].overlap, 0.5, 1e-12);
    assert_close(report.mtv.unwrap().depth, 0.5, 1e-12);
    assert_close(sat_report(&big, &small).mtv.unwrap().depth, 1.25, 1e-12);
    // Capsule against a circle: the segment's normal, then both ends toward the centre.
    let rail = capsule(v(-1.0, 0.0), v(1.0, 0.0), 0.25, Pose::IDENTITY);
    let ball = circle(0.5, v(1.5, 0.2));
    let report = mistaken_report(Mistake::NaiveSmallestOverlap, &rail, &ball);
    let sources: Vec<AxisSource> = report.axes.iter().map(|t| t.source).collect();
    assert!(matches!(sources[0], AxisSource::SegmentNormal { .. }));
    assert!(matches!(sources[1], AxisSource::EndToCentre { end: 0, .. }));
    assert!(matches!(sources[2], AxisSource::EndToCentre { end: 1, .. }));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// What each mistake keeps of the correct test.
    #[test]
    fn each_mistake_differs_from_the_correct_test_only_where_it_should(
        a in arb_placed(),
        b in arb_placed(),
    ) {
        let exact = sat_report(&a, &b);
        let reversed = mistaken_report(Mistake::NormalReversed, &a, &b);
        prop_assert_eq!(&reversed.axes, &exact.axes);
        prop_assert_eq!(reversed.mtv.map(|m| (m.depth, -m.normal)), exact.mtv.map(|m| (m.depth, m.normal)));

        let shallow = mistaken_report(Mistake::ShallowIgnored, &a, &b);
        match exact.mtv {
            Some(m) if m.depth >= 1e-4 => prop_assert_eq!(shallow.mtv, Some(m)),
            _ => prop_assert_eq!(shallow.mtv, None),
        }

        // Fewer axes can miss a gap, never invent one, and never find a shallower overlap.
        let edges = mistaken_report(Mistake::EdgeNormalsOnly, &a, &b);
        prop_assert!(edges.axes.len() <= exact.axes.len());
        if let Some(m) = exact.mtv {
            let e = edges.mtv.expect("intersecting for the correct test is intersecting here");
            prop_assert!(e.depth >= m.depth - 1e-12 * (1.0 + m.depth));
        }
        let naive = mistaken_report(Mistake::NaiveSmallestOverlap, &a, &b);
        prop_assert!(!naive.axes.is_empty());
        if let Some(m) = naive.mtv {
            prop_assert!(m.depth >= 1e-4);
            prop_assert_eq!(m.normal, naive.axes[m.axis].axis);
        }
    }
}

#[test]
fn contacts_far_off_are_told_even_when_the_claim_agrees() {
    let rail = capsule(v(-2.0, 0.0), v(2.0, 0.0), 0.25, Pose::IDENTITY);
    let bead = circle(0.5, v(0.5, 0.6));
    let scene = Scene::from_shapes(vec![
        SceneShape::named("rail", rail),
        SceneShape::named("bead", bead),
    ]);
    let mut claim = Claim::intersecting(ShapeId(0), ShapeId(1), 0.15, DVec2::Y);
    claim.reported.contacts = Some(vec![v(1.0, 2.0), v(3.0, 4.0)]);
    let d = diagnose_claim(&scene, &claim).unwrap();
    assert!(d.agrees(), "contacts do not enter `agrees` (FORMAT.md)");
    let off = collidoscope::contacts_off(&d.check).unwrap();
    assert!(off > 3.0, "{off}");
    claim.reported.contacts = Some(vec![v(0.5, 0.175)]);
    let d = diagnose_claim(&scene, &claim).unwrap();
    assert_eq!(collidoscope::contacts_off(&d.check), None);
}

/// The front door a game's own test calls, with no scene and no ids, says what `diagnose` says
/// of the same claim, and words it for a failing test's message.
#[test]
fn check_contact_judges_a_claim_as_diagnose_does() {
    use collidoscope::{Reported, check_contact};
    let scene = collidoscope::scene::load(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("shapes/claimed-contacts.json"),
    )
    .unwrap();
    let diagnoses = collidoscope::diagnose::diagnose(&scene);
    assert_eq!(diagnoses.len(), 4);
    for (claim, d) in scene.claims.iter().zip(&diagnoses) {
        let (i, j) = d.exact().indices();
        let (a, b) = (&scene.shapes[i].placed, &scene.shapes[j].placed);
        let check = check_contact(a, b, &claim.reported);
        assert_eq!(check, d.check);
        let said = check.to_string();
        if d.agrees() {
            assert!(said.starts_with("agrees with the exact result"), "{said}");
        } else {
            assert!(said.starts_with("differs from the exact result"), "{said}");
            for m in &d.check.matches {
                assert!(said.contains(&format!("reproduced by {m}: ")), "{said}");
            }
        }
    }
    // wall / ball claimed with the normal reversed.
    let said = check_contact(
        &scene.shapes[0].placed,
        &scene.shapes[1].placed,
        &Reported::intersecting(0.2, collidoscope::geometry::DVec2::new(-1.0, 0.0)),
    )
    .to_string();
    assert!(
        said.starts_with(
            "differs from the exact result (intersecting, depth 0.2, normal (1, 0)): normal by 180 degrees"
        ),
        "{said}"
    );
}
