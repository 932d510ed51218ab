//! The adapter's contract on small real worlds: the normal's direction, ids, shapes, poses,
//! velocities, refusals and the header.

use crate::common;

use crate::rapier_capture::{
    RAPIER_VERSION, RapierCapture, collider_id, fresh_narrow_phase, header,
};
use collidoscope::capture::{CaptureReader, judge_frame};
use collidoscope::geometry::{DVec2, Shape};
use collidoscope::scene::{Body, Precision};
use common::{METRES, Record, World, judge, run};
use rapier2d::prelude::*;
use std::io::Cursor;
use std::path::Path;

fn reader(bytes: Vec<u8>) -> CaptureReader {
    CaptureReader::new(Path::new("rapier.capture.jsonl"), Cursor::new(bytes))
        .unwrap_or_else(|e| panic!("{e}"))
}

/// Two balls thrown at each other and a box dropped on a ball: in Rapier's manifolds the
/// normal points from `collider1` toward `collider2`, whatever the order the colliders were
/// made in, and the captured claims agree.
#[test]
fn the_manifold_normal_points_from_collider1_toward_collider2() {
    for first_is_left in [true, false] {
        let mut world = World::new(METRES, false).with_fresh_manifolds();
        world.gravity = Vector::ZERO;
        let ball = |world: &mut World, name: &str, x: f32, vx: f32| {
            world.attach(
                name,
                RigidBodyBuilder::dynamic()
                    .translation(Vector::new(x, 0.3 * x))
                    .linvel(Vector::new(vx, 0.0)),
                ColliderBuilder::ball(0.5),
            )
        };
        if first_is_left {
            ball(&mut world, "left", -2.0, 3.0);
            ball(&mut world, "right", 2.0, -3.0);
        } else {
            ball(&mut world, "right", 2.0, -3.0);
            ball(&mut world, "left", -2.0, 3.0);
        }
        world.fixed("floor", ColliderBuilder::cuboid(5.0, 0.5), (0.0, -3.0), 0.0);
        world.dynamic("box", ColliderBuilder::cuboid(0.4, 0.4), (0.0, -2.0), 0.3);
        let mut checked = 0;
        let mut capture =
            RapierCapture::new(Vec::new(), &header(&world.params, "m", true)).unwrap();
        for step in 0..90 {
            capture
                .before_step(&world.bodies, &world.colliders)
                .unwrap();
            let centres: std::collections::HashMap<ColliderHandle, Vector> = world
                .colliders
                .iter()
                .map(|(h, c)| (h, c.translation()))
                .collect();
            world.step();
            for pair in world.narrow_phase.contact_pairs() {
                for m in pair.manifolds() {
                    if m.points.iter().any(|p| p.dist < 0.0) {
                        let towards = centres[&pair.collider2] - centres[&pair.collider1];
                        assert!(
                            m.data.normal.dot(towards) > 0.0,
                            "step {step}: normal {:?}, collider1 -> collider2 {towards:?}",
                            m.data.normal
                        );
                        checked += 1;
                    }
                }
            }
            capture
                .after_step(step as f64 / 60.0, &world.narrow_phase)
                .unwrap();
        }
        assert!(checked > 20, "{checked}");
        let run = judge(capture.finish().unwrap(), &[]);
        assert!(run.intersecting > 20);
        assert_eq!(run.agreeing, run.claims, "{:?}", run.examples);
    }
}

/// Every kind of shape the capture holds, on offset and turned colliders of each body type:
/// the capture reads back with Rapier's geometry, the colliders' own poses, the body types and
/// the body's velocity at each collider's position.
#[test]
fn shapes_poses_bodies_and_velocities_read_back_as_rapier_has_them() {
    let mut world = World::new(METRES, false);
    let offset = Pose::new(Vector::new(0.7, -0.2), 0.4);
    let dynamic = world.bodies.insert(
        RigidBodyBuilder::dynamic()
            .translation(Vector::new(1.0, 2.0))
            .rotation(0.3)
            .linvel(Vector::new(1.5, -0.5))
            .angvel(2.0),
    );
    let kinematic = world.bodies.insert(
        RigidBodyBuilder::kinematic_velocity_based()
            .translation(Vector::new(-4.0, 1.0))
            .linvel(Vector::new(0.0, 1.0))
            .angvel(-1.0),
    );
    let fixed = world.bodies.insert(
        RigidBodyBuilder::fixed()
            .translation(Vector::new(0.0, -5.0))
            .rotation(0.1),
    );
    let insert = |world: &mut World, collider: ColliderBuilder, body| {
        world
            .colliders
            .insert_with_parent(collider.position(offset), body, &mut world.bodies)
    };
    let ball = insert(&mut world, ColliderBuilder::ball(0.25), dynamic);
    let cuboid = world.colliders.insert_with_parent(
        ColliderBuilder::cuboid(0.5, 0.3).position(Pose::new(Vector::new(-0.5, 0.3), -0.2)),
        dynamic,
        &mut world.bodies,
    );
    let capsule = insert(
        &mut world,
        ColliderBuilder::capsule_from_endpoints(
            Vector::new(-0.2, 0.1),
            Vector::new(0.3, 0.4),
            0.15,
        ),
        kinematic,
    );
    let hull = [
        Vector::new(0.0, 0.0),
        Vector::new(1.0, 0.0),
        Vector::new(1.2, 0.8),
        Vector::new(0.1, 1.0),
    ];
    let polygon = insert(
        &mut world,
        ColliderBuilder::convex_hull(&hull).unwrap(),
        kinematic,
    );
    let triangle = insert(
        &mut world,
        ColliderBuilder::triangle(
            Vector::new(0.0, 0.0),
            Vector::new(1.0, 0.0),
            Vector::new(0.0, 1.0),
        ),
        fixed,
    );
    let segment = insert(
        &mut world,
        ColliderBuilder::segment(Vector::new(-3.0, 0.0), Vector::new(3.0, 0.5)),
        fixed,
    );
    let loose = world
        .colliders
        .insert(ColliderBuilder::cuboid(0.2, 0.2).position(Pose::new(Vector::new(9.0, 9.0), -0.6)));

    let mut capture = RapierCapture::new(Vec::new(), &header(&world.params, "m", true)).unwrap();
    capture
        .before_step(&world.bodies, &world.colliders)
        .unwrap();
    // What the step will use (and what the colliders hold, the world being unchanged since they
    // were inserted).
    let poses: Vec<(ColliderHandle, Pose)> = world
        .colliders
        .iter()
        .map(|(h, c)| (h, *c.position()))
        .collect();
    let centres_of_mass: std::collections::HashMap<ColliderHandle, Vector> = world
        .colliders
        .iter()
        .filter_map(|(h, c)| {
            let body = &world.bodies[c.parent()?];
            Some((h, *body.position() * body.local_center_of_mass()))
        })
        .collect();
    world.step();
    capture.after_step(0.0, &world.narrow_phase).unwrap();
    let mut reader = reader(capture.finish().unwrap());
    reader.next_frame().unwrap().unwrap();

    for (handle, pose) in poses {
        let id = collider_id(handle).unwrap();
        let (index, generation) = handle.into_raw_parts();
        assert_eq!(id, u64::from(index) | u64::from(generation) << 32);
        let shape = reader.shape(id).unwrap();
        let p = &shape.placed.pose;
        assert_eq!(p.position.x, f64::from(pose.translation.x));
        assert_eq!(p.position.y, f64::from(pose.translation.y));
        assert_eq!(
            p.angle(),
            f64::from(pose.rotation.sin()).atan2(f64::from(pose.rotation.cos()))
        );
        let collider = &world.colliders[handle];
        let body = collider.parent().map(|b| &world.bodies[b]);
        let expected_body = match body.map(|b| b.body_type()) {
            Some(RigidBodyType::Dynamic) => Body::Dynamic,
            Some(RigidBodyType::KinematicVelocityBased) => Body::Kinematic,
            _ => Body::Static,
        };
        assert_eq!(shape.motion.body, expected_body, "{handle:?}");
        if expected_body != Body::Static {
            // The velocity before the step: v + w x r, r from the body's centre of mass.
            let (v, w) = if handle == capsule || handle == polygon {
                (DVec2::new(0.0, 1.0), -1.0)
            } else {
                (DVec2::new(1.5, -0.5), 2.0)
            };
            assert_eq!(shape.motion.angular_velocity, w);
            let com = centres_of_mass[&handle];
            let r = DVec2::new(
                f64::from(pose.translation.x - com.x),
                f64::from(pose.translation.y - com.y),
            );
            assert!(r.length() > 0.1 || handle != ball, "{r}");
            let expected = v + w * r.perp();
            assert!(
                shape.motion.velocity.abs_diff_eq(expected, 1e-5),
                "{handle:?}: {} vs {expected}",
                shape.motion.velocity
            );
        }
        let f = |v: Vector| DVec2::new(f64::from(v.x), f64::from(v.y));
        match (&shape.placed.shape, collider.shape().as_typed_shape()) {
            (Shape::Circle(c), TypedShape::Ball(b)) => {
                assert_eq!(handle, ball);
                assert_eq!(c.radius(), f64::from(b.radius));
            }
            (Shape::Polygon(p), TypedShape::Cuboid(b)) => {
                assert!(handle == cuboid || handle == loose);
                let h = f(b.half_extents);
                assert_eq!(
                    p.points_as_given(),
                    vec![
                        DVec2::new(-h.x, -h.y),
                        DVec2::new(h.x, -h.y),
                        DVec2::new(h.x, h.y),
                        DVec2::new(-h.x, h.y)
                    ]
                );
            }
            (Shape::Capsule(c), TypedShape::Capsule(r)) => {
                assert_eq!(handle, capsule);
                assert_eq!((c.a(), c.b()), (f(r.segment.a), f(r.segment.b)));
                assert_eq!(c.radius(), f64::from(r.radius));
            }
            (Shape::Polygon(p), TypedShape::ConvexPolygon(r)) => {
                assert_eq!(handle, polygon);
                let points: Vec<DVec2> = r.points().iter().copied().map(f).collect();
                assert_eq!(p.points_as_given(), points);
            }
            (Shape::Polygon(p), TypedShape::Triangle(t)) => {
                assert_eq!(handle, triangle);
                assert_eq!(p.points_as_given(), vec![f(t.a), f(t.b), f(t.c)]);
            }
            (Shape::Segment(s), TypedShape::Segment(r)) => {
                assert_eq!(handle, segment);
                assert_eq!((s.a(), s.b()), (f(r.a), f(r.b)));
            }
            (ours, theirs) => panic!("{handle:?}: {ours:?} for {theirs:?}"),
        }
    }
    assert_eq!(reader.shapes().count(), 7);
}

/// A shape the capture cannot hold is refused, naming the collider and the shape; on a sensor
/// (which makes no contact) it is left out instead.
#[test]
fn a_shape_the_capture_cannot_hold_is_refused_with_the_collider_named() {
    let oriented = rapier2d::parry::shape::Polyline::with_flags(
        vec![Vector::ZERO, Vector::X, Vector::Y],
        None,
        rapier2d::parry::shape::PolylineFlags::ORIENTED,
    );
    let cases: Vec<(ColliderBuilder, bool, &str)> = vec![
        (
            ColliderBuilder::new(SharedShape::halfspace(Vector::Y)),
            true,
            "collider 1 (generation 0) \"odd\": its shape is a HalfSpace, which a capture cannot hold (it holds Ball, Cuboid, Capsule, ConvexPolygon, Triangle, their Round forms, Segment, Polyline and HeightField on a fixed body, TriMesh, and Compound of these)",
        ),
        (
            ColliderBuilder::new(SharedShape::new(oriented)),
            true,
            "collider 1 (generation 0) \"odd\": its shape is a Polyline with PolylineFlags::ORIENTED: its contact normals are clamped by pseudo-normals of the whole surface",
        ),
        (
            ColliderBuilder::polyline(vec![Vector::ZERO, Vector::X, Vector::Y], None),
            false,
            "collider 1 (generation 0) \"odd\": its shape is a Polyline on a dynamic body: its segments are captured as segments, which a capture holds on fixed bodies only",
        ),
        (
            ColliderBuilder::compound(vec![
                (Pose::IDENTITY, SharedShape::ball(0.5)),
                (
                    Pose::IDENTITY,
                    SharedShape::segment(Vector::ZERO, Vector::X),
                ),
            ]),
            false,
            "collider 1 (generation 0) \"odd\": its part 1: its shape is a Segment on a dynamic body",
        ),
        (
            ColliderBuilder::segment(Vector::ZERO, Vector::X),
            false,
            "collider 1 (generation 0) \"odd\": its shape is a Segment on a dynamic body, but a capture holds segments on fixed bodies only: use a Capsule, or put the segment on a fixed body",
        ),
        (
            ColliderBuilder::ball(0.0),
            false,
            "collider 1 (generation 0) \"odd\": its ball: radius must be > 0, found 0",
        ),
    ];
    for (collider, fixed, message) in cases {
        for sensor in [false, true] {
            let mut world = World::new(METRES, false);
            world.fixed("floor", ColliderBuilder::cuboid(5.0, 0.5), (0.0, -1.0), 0.0);
            let collider = collider.clone().sensor(sensor);
            let odd = if fixed {
                world.fixed("odd", collider, (0.0, 2.0), 0.0)
            } else {
                world.dynamic("odd", collider, (0.0, 2.0), 0.0)
            };
            let mut capture =
                RapierCapture::new(Vec::new(), &header(&world.params, "m", true)).unwrap();
            capture.name(odd, "odd");
            let result = capture.before_step(&world.bodies, &world.colliders);
            if sensor {
                result.unwrap();
                world.step();
                capture.after_step(0.0, &world.narrow_phase).unwrap();
                let mut reader = reader(capture.finish().unwrap());
                reader.next_frame().unwrap().unwrap();
                assert_eq!(reader.shapes().count(), 1);
            } else {
                let error = result.unwrap_err();
                let collidoscope::capture::CaptureError::Unsupported { what, .. } = &error else {
                    panic!("not an unsupported shape: {error}");
                };
                let (index, generation) = odd.into_raw_parts();
                assert_eq!(
                    what,
                    &format!("collider {index} (generation {generation}) \"odd\"")
                );
                assert!(error.to_string().starts_with(message), "{error}");
            }
        }
    }
}

/// A collider removed and another inserted in its slot gets the next generation, and so a new
/// id; a handle whose id would not be below 2^53 has none.
#[test]
fn ids_follow_the_handles_generation() {
    let mut world = World::new(METRES, false);
    world.fixed("floor", ColliderBuilder::cuboid(5.0, 0.5), (0.0, -0.5), 0.0);
    let first = world.dynamic("ball", ColliderBuilder::ball(0.5), (0.0, 0.49), 0.0);
    let mut capture = RapierCapture::new(Vec::new(), &header(&world.params, "m", true)).unwrap();
    capture
        .before_step(&world.bodies, &world.colliders)
        .unwrap();
    world.step();
    capture.after_step(0.0, &world.narrow_phase).unwrap();
    world.colliders.remove(
        first,
        &mut world.islands,
        &mut world.bodies,
        &mut world.soft_bodies,
        true,
    );
    let body = world
        .bodies
        .insert(RigidBodyBuilder::dynamic().translation(Vector::new(1.0, 0.45)));
    let second =
        world
            .colliders
            .insert_with_parent(ColliderBuilder::ball(0.5), body, &mut world.bodies);
    assert_eq!(first.into_raw_parts().0, second.into_raw_parts().0);
    assert_eq!(
        collider_id(second),
        Some(collider_id(first).unwrap() + (1 << 32))
    );
    capture
        .before_step(&world.bodies, &world.colliders)
        .unwrap();
    world.step();
    capture.after_step(1.0 / 60.0, &world.narrow_phase).unwrap();
    let text = String::from_utf8(capture.finish().unwrap()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[2].contains(&format!("\"removed\":[{}]", collider_id(first).unwrap())),
        "{}",
        lines[2]
    );
    assert!(
        lines[2].contains(&format!("{{\"id\":{},", collider_id(second).unwrap())),
        "{}",
        lines[2]
    );
    assert!(
        lines[2].contains("\"claims\":[{\"a\":0,\"b\":4294967297,\"intersecting\":true"),
        "{}",
        lines[2]
    );
    assert_eq!(
        collider_id(ColliderHandle::from_raw_parts(7, (1 << 21) - 1)),
        Some(7 | ((1 << 21) - 1) << 32)
    );
    assert_eq!(
        collider_id(ColliderHandle::from_raw_parts(7, 1 << 21)),
        None
    );
}

/// Contacts read before the poses, or naming a collider the poses left out, are refused with a
/// message that says so.
#[test]
fn contacts_without_their_poses_are_refused() {
    let mut world = World::new(METRES, false);
    world.fixed("floor", ColliderBuilder::cuboid(5.0, 0.5), (0.0, -0.5), 0.0);
    let mut capture = RapierCapture::new(Vec::new(), &header(&world.params, "m", true)).unwrap();
    world.step();
    let error = capture.after_step(0.0, &world.narrow_phase).unwrap_err();
    assert!(error.to_string().contains("after `before_step`"), "{error}");

    capture
        .before_step(&world.bodies, &world.colliders)
        .unwrap();
    let late = world.dynamic("late", ColliderBuilder::ball(0.5), (0.0, 0.45), 0.0);
    world.step();
    let error = capture.after_step(0.0, &world.narrow_phase).unwrap_err();
    let (index, _) = late.into_raw_parts();
    assert!(
        error
            .to_string()
            .starts_with(&format!("collider {index} (generation 0) is in a contact pair of the step, but `before_step` did not read it")),
        "{error}"
    );
}

/// A kinematic platform carrying boxes up, and a sleeping box woken by a ball: with recycling
/// off and fresh manifolds every claim agrees, including those of bodies that slept (their
/// pairs are left out while asleep).
#[test]
fn kinematic_and_sleeping_bodies_give_claims_that_agree() {
    let mut world = World::new(METRES, false);
    world.narrow_phase = fresh_narrow_phase();
    world.fixed("floor", ColliderBuilder::cuboid(8.0, 0.5), (0.0, -0.5), 0.0);
    world.attach(
        "platform",
        RigidBodyBuilder::kinematic_velocity_based()
            .translation(Vector::new(-4.0, 1.0))
            .linvel(Vector::new(0.0, 0.5))
            .angvel(0.05),
        ColliderBuilder::cuboid(1.5, 0.2),
    );
    world.dynamic(
        "rider",
        ColliderBuilder::cuboid(0.4, 0.4),
        (-4.0, 1.62),
        0.0,
    );
    world.dynamic(
        "sleeper",
        ColliderBuilder::cuboid(0.5, 0.5),
        (3.0, 0.5),
        0.0,
    );
    let steps = 360;
    let mut result = run(&mut world, 200, |_| {});
    // The sleeper went to sleep; now a ball wakes it.
    let sleeper = world.names.iter().find(|(_, n)| n == "sleeper").unwrap().0;
    let sleeper_body = world.colliders[sleeper].parent().unwrap();
    assert!(world.bodies[sleeper_body].is_sleeping());
    world.attach(
        "ball",
        RigidBodyBuilder::dynamic()
            .translation(Vector::new(0.5, 0.6))
            .linvel(Vector::new(6.0, 0.0)),
        ColliderBuilder::ball(0.3),
    );
    let second = run(&mut world, steps - 200, |_| {});
    result.claims += second.claims;
    result.agreeing += second.agreeing;
    result.intersecting += second.intersecting;
    result.examples.extend(second.examples);
    assert!(result.intersecting > 100);
    assert_eq!(result.agreeing, result.claims, "{:?}", result.examples);
    // The ball woke it and pushed it.
    assert!(world.bodies[sleeper_body].translation().x > 3.01);
}

/// Over time (docs/format.md, "Impulses"): a box resting on the floor is held up by Rapier's
/// solver contact impulses, written on its claims one per contact point. Once settled (until it
/// sleeps) they add up each step to its weight times the step (m g dt), and every claim agrees.
#[test]
fn a_resting_box_is_held_up_by_the_impulses_on_its_claims() {
    let mut world = World::new(METRES, false);
    world.narrow_phase = fresh_narrow_phase();
    world.fixed("floor", ColliderBuilder::cuboid(8.0, 0.5), (0.0, -0.5), 0.0);
    world.dynamic("box", ColliderBuilder::cuboid(0.5, 0.5), (0.0, 0.5), 0.0);
    let box_ = world.names.iter().find(|(_, n)| n == "box").unwrap().0;
    let body = world.colliders[box_].parent().unwrap();
    let mass = f64::from(world.bodies[body].mass());
    let (gravity, dt) = (f64::from(world.gravity.y.abs()), f64::from(world.params.dt));
    let result = run(&mut world, 90, |_| {});
    assert_eq!(result.agreeing, result.claims, "{:?}", result.examples);
    let weight = mass * gravity * dt;
    // Settled from frame 10; Rapier puts it to sleep later (its claims then left out).
    let settled: Vec<&Record> = result.records.iter().filter(|r| r.frame >= 10).collect();
    assert!(settled.len() >= 10, "{:?}", result.records);
    for r in settled {
        let impulses = r
            .impulses
            .as_ref()
            .unwrap_or_else(|| panic!("frame {}: no impulses", r.frame));
        let total: f64 = impulses.iter().sum();
        assert!(
            (total - weight).abs() < 0.01 * weight,
            "frame {}: {impulses:?} add up to {total}, against m g dt = {weight}",
            r.frame
        );
    }
}

/// The header names the engine, its settings, f32, the units and the axis.
#[test]
fn the_header_names_rapier_and_the_settings_that_change_its_contacts() {
    let params = IntegrationParameters {
        contact_recycling: false,
        length_unit: 32.0,
        ..IntegrationParameters::default()
    };
    let header = header(&params, "px", false);
    assert_eq!(header.engine.name, "rapier2d");
    assert_eq!(header.engine.version, RAPIER_VERSION);
    assert_eq!(header.precision, Precision::F32);
    assert_eq!((header.units.as_str(), header.y_up), ("px", false));
    let settings = serde_json_text(&header);
    assert_eq!(
        settings,
        format!(
            "{{\"contact_recycling\":false,\"dt\":{},\"length_unit\":32.0,\"max_ccd_substeps\":1,\"num_solver_iterations\":4,\"prediction_distance\":{m},\"speculative_margin\":{m}}}",
            f64::from(1.0f32 / 60.0),
            m = f64::from(0.02f32 * 32.0)
        )
    );
    // Written and read back.
    let mut capture = RapierCapture::compressed(Vec::new(), &header).unwrap();
    let world = World::new(METRES, false);
    capture
        .before_step(&world.bodies, &world.colliders)
        .unwrap();
    capture.after_step(0.0, &world.narrow_phase).unwrap();
    let bytes = capture.finish().unwrap();
    assert_eq!(&bytes[..2], &[0x1f, 0x8b]);
    let mut reader = reader(bytes);
    assert_eq!(reader.header(), &header);
    let frame = reader.next_frame().unwrap().unwrap();
    assert!(judge_frame(&reader, &frame).claims.is_empty());
}

/// The settings as the capture writes them (keys sorted).
fn serde_json_text(header: &collidoscope::capture::Header) -> String {
    let mut out = Vec::new();
    let capture = RapierCapture::new(&mut out, header).unwrap();
    drop(capture);
    let line = String::from_utf8(out).unwrap();
    let start = line.find("\"settings\":").unwrap() + "\"settings\":".len();
    let end = start + line[start..].find('}').unwrap() + 1;
    line[start..end].to_string()
}

/// A body the game moves between steps: the step's narrow phase sees it where the game put it
/// (Rapier updates the collider's position at the start of the step), and so does the capture,
/// though `Collider::position` still holds the old place until the step.
#[test]
fn a_body_moved_by_the_game_between_steps_is_captured_where_the_step_sees_it() {
    let mut world = World::new(METRES, false).with_fresh_manifolds();
    world.fixed("floor", ColliderBuilder::cuboid(5.0, 0.5), (0.0, -0.5), 0.0);
    let crate_ = world.dynamic("crate", ColliderBuilder::cuboid(0.5, 0.5), (0.0, 2.0), 0.0);
    let body = world.colliders[crate_].parent().unwrap();
    let mut capture = RapierCapture::new(Vec::new(), &header(&world.params, "m", true)).unwrap();
    let mut moved = 0;
    for step in 0..120 {
        if step % 30 == 29 {
            // 2 cm into the floor, turned a little.
            world.bodies[body].set_position(Pose::new(Vector::new(0.1, 0.48), 0.05), true);
            assert_ne!(
                world.colliders[crate_].translation(),
                Vector::new(0.1, 0.48)
            );
            moved += 1;
        }
        capture
            .before_step(&world.bodies, &world.colliders)
            .unwrap();
        world.step();
        capture
            .after_step(step as f64 / 60.0, &world.narrow_phase)
            .unwrap();
    }
    assert_eq!(moved, 4);
    let run = judge(capture.finish().unwrap(), &[]);
    assert!(run.intersecting > 50);
    assert_eq!(run.agreeing, run.claims, "{:?}", run.examples);
    // The depth right after each move: about 2 cm.
    let deep = run
        .records
        .iter()
        .filter(|r| r.claimed_depth > 0.015)
        .count();
    assert!(deep >= 4, "{deep}");
}

/// Over time (docs/format.md, "collidoscope plot"): a plot of a Rapier capture is the
/// capture's own numbers, column for column and to the bit: a box sliding to a stop on a floor
/// (its pose and velocity every frame; the pair's claim, normal and solver impulses every
/// frame Rapier claims it; the exact depth and separation at the frame's poses).
#[test]
fn a_plot_of_a_rapier_capture_is_the_capture_s_own_numbers() {
    let mut world = World::new(METRES, false);
    world.narrow_phase = fresh_narrow_phase();
    world.fixed("floor", ColliderBuilder::cuboid(8.0, 0.5), (0.0, -0.5), 0.0);
    world.attach(
        "box",
        RigidBodyBuilder::dynamic()
            .translation(Vector::new(-4.0, 0.5))
            .linvel(Vector::new(3.0, 0.0)),
        ColliderBuilder::cuboid(0.5, 0.5),
    );
    let result = run(&mut world, 90, |_| {});
    assert_eq!(result.agreeing, result.claims, "{:?}", result.examples);
    let checked =
        crate::plot_check::csv_equals_the_capture(&result.capture, "box", ("floor", "box"));
    assert_eq!(checked.rows, 90);
    assert!(checked.claimed >= 60, "{checked:?}");
    assert_eq!(checked.with_impulses, checked.claimed);
    // It slows under friction: the plotted speed falls from 3 m/s.
    let plot = &checked.plot;
    let speed = &plot.series[0].values;
    assert!(speed[0] > 2.9 && speed[60] < speed[10], "{speed:?}");
}
