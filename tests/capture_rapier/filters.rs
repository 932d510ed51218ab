//! Rapier's collision groups and rigid bodies reach the capture, with its prediction distance
//! as the speculative margin, and name the stage that left a pair out.

use crate::common::{METRES, World, cuboid};
use crate::rapier_capture::{RapierCapture, header};
use collidoscope::capture::{CaptureReader, Filter, FilterVerdict, LeftOut, Margin};
use rapier2d::prelude::*;
use std::io::Cursor;

/// Two crates whose groups leave each other out fall through each other onto the floor; a
/// body of two overlapping colliders has no claim between them; every collider's groups
/// (with Rapier's test mode) and body are in the capture.
#[test]
fn rapier_groups_and_bodies_name_the_stage_that_left_a_pair_out() {
    let mut world = World::new(METRES, false);
    world.fixed("floor", cuboid(&METRES, 6.0, 0.5), (0.0, -0.5), 0.0);
    let ghosts = InteractionGroups::new(Group::GROUP_2, !Group::GROUP_2, InteractionTestMode::And);
    for (name, x, y) in [("ghost a", -3.0, 0.25), ("ghost b", -3.1, 0.6)] {
        world.dynamic(
            name,
            cuboid(&METRES, 0.25, 0.25).collision_groups(ghosts),
            (x, y),
            0.0,
        );
    }
    let either = InteractionGroups::new(Group::GROUP_3, Group::GROUP_1, InteractionTestMode::Or);
    world.dynamic(
        "loose",
        cuboid(&METRES, 0.25, 0.25).collision_groups(either),
        (3.0, 0.25),
        0.0,
    );
    let compound = world
        .bodies
        .insert(RigidBodyBuilder::dynamic().translation(METRES.p(0.0, 0.25)));
    for (name, dx) in [("left half", 0.0), ("right half", 0.2)] {
        let collider = cuboid(&METRES, 0.25, 0.25).translation(METRES.p(dx, 0.0));
        let handle = world
            .colliders
            .insert_with_parent(collider, compound, &mut world.bodies);
        world.names.push((handle, name.into()));
    }
    let head = header(&world.params, "m", true);
    let mut capture = RapierCapture::new(Vec::new(), &head).unwrap();
    for (handle, name) in &world.names {
        capture.name(*handle, name.clone());
    }
    for step in 0..60 {
        capture
            .before_step(&world.bodies, &world.colliders)
            .unwrap();
        world.step();
        let contacts = capture.contacts(&world.narrow_phase).unwrap();
        capture.write(step as f64 / 60.0, &contacts).unwrap();
    }
    let bytes = capture.finish().unwrap();
    let mut reader =
        CaptureReader::new("rapier.capture.jsonl".as_ref(), Cursor::new(bytes)).unwrap();
    let mut last = None;
    while let Some(frame) = reader.next_frame().unwrap() {
        last = Some(frame);
    }
    let frame = last.unwrap();
    let margin = Margin::of_settings(&reader.header().engine.settings);
    assert_eq!(
        margin,
        Margin::Given(f64::from(world.params.prediction_distance()))
    );
    let shape = |name: &str| {
        reader
            .shapes()
            .find(|s| s.name.as_deref() == Some(name))
            .unwrap()
    };
    let claimed = |a: u64, b: u64| {
        frame
            .claims
            .iter()
            .any(|c| (c.a, c.b) == (a, b) || (c.b, c.a) == (a, b))
    };
    let (a, b) = (shape("ghost a"), shape("ghost b"));
    assert_eq!(a.pairing.filter, Some(Filter::layers(0b10, !0b10)));
    assert_eq!(
        shape("loose").pairing.filter,
        Some(Filter::layers(0b100, 0b1).with_either(true))
    );
    assert_eq!(
        shape("floor").pairing.filter,
        Some(Filter::layers(u32::MAX, u32::MAX))
    );
    assert!(!claimed(a.id, b.id));
    assert!(
        collidoscope::query::collide(&a.placed, &b.placed).is_some(),
        "they overlap"
    );
    match collidoscope::capture::left_out(a.side(), b.side(), margin) {
        LeftOut::Filtered { verdict, .. } => assert_eq!(verdict, FilterVerdict::Neither),
        other => panic!("ghosts: {other:?}"),
    }
    // Each ghost still lands on the floor: its groups take the floor's.
    let floor = shape("floor");
    assert_eq!(
        floor
            .pairing
            .filter
            .unwrap()
            .test(a.pairing.filter.unwrap()),
        FilterVerdict::Passes
    );
    let (l, r) = (shape("left half"), shape("right half"));
    assert_eq!(l.pairing.body_id, r.pairing.body_id);
    assert!(l.pairing.body_id.is_some() && l.pairing.body_id != a.pairing.body_id);
    assert!(!claimed(l.id, r.id));
    assert!(matches!(
        collidoscope::capture::left_out(l.side(), r.side(), margin),
        LeftOut::SameBody(_)
    ));
}
