//! Segments and chains in the window: added from the shapes panel, a chain's points edited and
//! its side flipped, and the built-in Ghost bumps scene in the motion lab.

use super::common::*;
use collidoscope::geometry::Shape;
use collidoscope::motion::{EventKind, Resolver};
use collidoscope::query::Mistake;

/// File > Examples > Ghost bumps opens the scene in the motion lab with internal-edge as the
/// ghost: the run on the chain slides, the ghost catches at the seam, and `caught` is on the
/// timeline.
#[test]
fn the_ghost_bumps_example_opens_in_the_motion_lab_with_internal_edge_beside_sat() {
    let mut h = harness(app(None));
    click_menu(&mut h, "File", "Examples");
    h.get_by_label("Ghost bumps: a crate over tile seams")
        .click();
    h.run_steps(3);
    assert!(
        !h.state().is_dirty(),
        "an example unchanged has nothing to save"
    );
    assert_eq!(h.state().scene().shapes.len(), 11);
    assert_eq!(h.state().pair(), Some((0, 9)), "the chain and its crate");
    let lab = h.state().motion_lab();
    assert_eq!(lab.settings().resolver, Resolver::Sat);
    assert_eq!(
        lab.settings().ghost,
        Some(Resolver::Mistake(Mistake::InternalEdge))
    );
    let caught =
        |events: &[collidoscope::motion::Event]| -> Vec<(u64, usize, usize, Option<usize>)> {
            events
                .iter()
                .filter(|e| e.kind() == EventKind::Caught)
                .map(|e| (e.step(), e.a, e.b, e.what.piece()))
                .collect()
        };
    // With the chain rule only the crate on the separate segments catches (tile 2 is shape 7).
    assert_eq!(caught(lab.events()), [(12, 7, 10, None)]);
    assert_eq!(
        caught(lab.ghost_events()),
        [(12, 0, 9, Some(7)), (12, 7, 10, None)]
    );
    h.get_by_label_contains("1 caught");
    h.get_by_label_contains("2 caught");
    // Next event: the catch.
    h.get_by_label("Next event").click();
    h.run_steps(2);
    assert_eq!(h.state().motion_lab().frame(), 12);
}

/// "+ Segment" and "+ Chain" add static shapes; a chain's points are inserted, deleted and
/// reversed from the numbers panel, each one undo step.
#[test]
fn segments_and_chains_are_added_and_a_chains_points_edited() {
    let mut h = harness(app(None));
    let before = h.state().scene().shapes.len();
    h.get_by_label("+ Segment").click();
    h.run_steps(2);
    h.get_by_label("+ Chain").click();
    h.run_steps(2);
    let shapes = &h.state().scene().shapes;
    assert_eq!(shapes.len(), before + 2);
    assert!(matches!(shapes[before].placed.shape, Shape::Segment(_)));
    let chain = |h: &Harness<'static, App>| -> Vec<collidoscope::geometry::DVec2> {
        let shapes = &h.state().scene().shapes;
        shapes
            .last()
            .unwrap()
            .placed
            .shape
            .as_chain()
            .unwrap()
            .points()
            .to_vec()
    };
    let points = chain(&h);
    assert_eq!(points.len(), 7);
    assert_eq!(points[0].x, 3.0, "right to left: the solid side is up");
    // The chain's numbers are below the fold of the shapes panel: clicked as a screen
    // reader would.
    h.get_by_label("Chain points");
    // Insert after point 0: halfway to point 1.
    h.get_all_by_label("+").next().unwrap().click_accesskit();
    h.run_steps(2);
    let points = chain(&h);
    assert_eq!(points.len(), 8);
    assert_eq!(points[1].x, 2.5);
    // Delete it again.
    h.get_all_by_label("−").nth(1).unwrap().click_accesskit();
    h.run_steps(2);
    assert_eq!(chain(&h).len(), 7);
    // Flip: the points reversed.
    h.get_by_label("Flip side").click_accesskit();
    h.run_steps(2);
    assert_eq!(chain(&h)[0].x, -3.0);
    // Undo takes back the flip alone.
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(2);
    assert_eq!(chain(&h)[0].x, 3.0);
}
