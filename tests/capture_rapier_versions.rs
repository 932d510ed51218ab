//! The Rapier adapter against every rapier2d version it reads: 0.34 (`rapier2d-0-34`), 0.35
//! (`rapier2d-0-35`) and 0.36 (`rapier2d`), each through its own module and its own
//! `rapier2d`, as a game on that version links it. The same world in each: a crate sliding
//! over twelve separate floor tiles, a ball rolling off a ramp onto them, a small pyramid of
//! boxes and a capsule, captured with fresh manifolds and contact recycling off (0.34 has
//! none). Every claim agrees with the exact result at f32 in every version. Then each
//! version's engine fixture test (`RapierNarrowPhase`): a deep capsule pair on which parry's
//! capsule-capsule manifold is 58 degrees and 0.29 m off fails it, a shallow one passes.
//!
//! `cargo test --features rapier2d,rapier2d-0-35,rapier2d-0-34 --test capture_rapier_versions`
//! (CI runs it; the full adapter suite, tests/capture_rapier, runs against 0.36 in every
//! `cargo test`).

#[path = "common/engine_cases.rs"]
mod engine_cases;

/// The tests for one version: `$module` is its adapter module, `$step` how its
/// `PhysicsPipeline::step` is called (0.36 takes a soft-body set) and `$params` its
/// integration parameters with contact recycling off where it has any.
macro_rules! version_tests {
    ($name:ident, $module:path, $version:literal, $params:expr, $step:ident) => {
        mod $name {
            use adapter::rapier2d::prelude::*;
            use adapter::{RapierCapture, RapierNarrowPhase, fresh_narrow_phase, header};
            use collidoscope::capture::{CaptureReader, judge_frame};
            use collidoscope::fixture::{FixtureError, verify_engine};
            use std::io::Cursor;
            use $module as adapter;

            fn fixed(w: &mut World, collider: ColliderBuilder, x: f32, y: f32, angle: f32) {
                let body = w.bodies.insert(
                    RigidBodyBuilder::fixed()
                        .translation(Vector::new(x, y))
                        .rotation(angle),
                );
                w.colliders
                    .insert_with_parent(collider, body, &mut w.bodies);
            }

            fn dynamic(w: &mut World, collider: ColliderBuilder, x: f32, y: f32, v: f32) {
                let body = w.bodies.insert(
                    RigidBodyBuilder::dynamic()
                        .translation(Vector::new(x, y))
                        .linvel(Vector::new(v, 0.0)),
                );
                w.colliders
                    .insert_with_parent(collider, body, &mut w.bodies);
            }

            pub struct World {
                pub bodies: RigidBodySet,
                pub colliders: ColliderSet,
                pub params: IntegrationParameters,
                pub narrow_phase: NarrowPhase,
            }

            fn world() -> World {
                let mut w = World {
                    bodies: RigidBodySet::new(),
                    colliders: ColliderSet::new(),
                    params: $params,
                    narrow_phase: fresh_narrow_phase(),
                };
                for k in 0..12 {
                    fixed(
                        &mut w,
                        ColliderBuilder::cuboid(0.5, 0.5),
                        -5.5 + k as f32,
                        -0.5,
                        0.0,
                    );
                }
                fixed(&mut w, ColliderBuilder::cuboid(1.5, 0.1), 3.5, 1.2, 0.5);
                dynamic(&mut w, ColliderBuilder::cuboid(0.25, 0.25), -5.5, 0.25, 7.0);
                dynamic(&mut w, ColliderBuilder::ball(0.2), 4.6, 2.2, 0.0);
                for row in 0..3 {
                    for i in 0..3 - row {
                        let x = -2.0 + (i as f32 - (3 - row) as f32 / 2.0) * 0.65;
                        dynamic(
                            &mut w,
                            ColliderBuilder::cuboid(0.3, 0.3),
                            x,
                            0.3 + 0.6 * row as f32,
                            0.0,
                        );
                    }
                }
                dynamic(&mut w, ColliderBuilder::capsule_x(0.3, 0.15), 1.0, 1.5, 0.0);
                // The shapes made of pieces and the round ones (shape-set version 4): a
                // rounded crate on the tiles, an L of two boxes as one Compound dropped on a
                // polyline floor beyond them.
                dynamic(
                    &mut w,
                    ColliderBuilder::round_cuboid(0.2, 0.2, 0.05),
                    -3.0,
                    0.25,
                    3.0,
                );
                let floor = vec![
                    Vector::new(6.0, 0.0),
                    Vector::new(7.0, 0.2),
                    Vector::new(9.0, 0.0),
                ];
                fixed(
                    &mut w,
                    ColliderBuilder::polyline(floor, None),
                    0.0,
                    0.0,
                    0.0,
                );
                use adapter::rapier2d::geometry::SharedShape;
                let parts = vec![
                    (
                        Pose::new(Vector::new(0.0, 0.0), 0.0),
                        SharedShape::cuboid(0.4, 0.1),
                    ),
                    (
                        Pose::new(Vector::new(-0.3, 0.3), 0.0),
                        SharedShape::cuboid(0.1, 0.2),
                    ),
                ];
                dynamic(&mut w, ColliderBuilder::compound(parts), 7.5, 1.2, 0.5);
                w
            }

            /// 120 steps captured; every claim judged.
            #[test]
            fn every_claim_of_a_real_run_agrees_at_f32() {
                let mut w = world();
                let mut pipeline = PhysicsPipeline::new();
                let mut islands = IslandManager::new();
                let mut broad_phase = DefaultBroadPhase::new();
                let mut impulse_joints = ImpulseJointSet::new();
                let mut multibody_joints = MultibodyJointSet::new();
                let mut ccd = CCDSolver::new();
                let gravity = Vector::new(0.0, -9.81);
                let mut capture =
                    RapierCapture::new(Vec::new(), &header(&w.params, "m", true)).unwrap();
                for step in 0..120 {
                    capture.before_step(&w.bodies, &w.colliders).unwrap();
                    $step!(
                        pipeline,
                        gravity,
                        w,
                        islands,
                        broad_phase,
                        impulse_joints,
                        multibody_joints,
                        ccd
                    );
                    capture
                        .after_step(step as f64 * f64::from(w.params.dt), &w.narrow_phase)
                        .unwrap();
                }
                let bytes = capture.finish().unwrap();
                let mut reader =
                    CaptureReader::new("rapier.capture.jsonl".as_ref(), Cursor::new(bytes))
                        .unwrap();
                assert_eq!(reader.header().engine.version, $version);
                let (mut claims, mut agreeing, mut intersecting) = (0, 0, 0);
                let (mut on_parts, mut rounded) = (0, false);
                let mut worst = Vec::new();
                while let Some(frame) = reader.next_frame().unwrap() {
                    rounded |= reader.shapes().any(|s| match &s.placed.shape {
                        collidoscope::geometry::Shape::Polygon(p) => p.radius() == 0.05f32 as f64,
                        _ => false,
                    });
                    for c in judge_frame(&reader, &frame).claims {
                        claims += 1;
                        // A claim on a compound's part or a polyline's segment.
                        on_parts += usize::from(c.a >= 1 << 52 || c.b >= 1 << 52);
                        intersecting += usize::from(c.claimed.intersecting);
                        if c.agrees() {
                            agreeing += 1;
                        } else if worst.len() < 3 {
                            worst.push(format!("frame {}: {}", frame.frame, c.lines().join(" | ")));
                        }
                    }
                }
                assert!(
                    claims > 300 && intersecting > 200,
                    "{claims} claims, {intersecting} intersecting"
                );
                assert_eq!(agreeing, claims, "{worst:#?}");
                assert!(rounded, "the rounded crate keeps its radius");
                assert!(on_parts > 20, "{on_parts} claims on parts and segments");
            }

            #[test]
            fn the_engine_fixture_fails_on_a_deep_capsule_pair_and_passes_on_a_shallow_one() {
                let engine = RapierNarrowPhase::default();
                let deep = crate::engine_cases::deep_capsules();
                match verify_engine(&deep, &engine) {
                    Err(FixtureError::Disagreed(v)) => {
                        let message = FixtureError::Disagreed(v).to_string();
                        assert!(
                            message.contains(concat!(
                                "rapier2d ",
                                $version,
                                " (parry's contact manifolds) disagrees"
                            )),
                            "{message}"
                        );
                        assert!(message.contains("normal by"), "{message}");
                    }
                    other => panic!("the deep pair fails: {other:?}"),
                }
                let shallow = crate::engine_cases::shallow_capsules();
                assert_eq!(verify_engine(&shallow, &engine), Ok(1));
            }
        }
    };
}

/// 0.34 and 0.35: `PhysicsPipeline::step` without a soft-body set.
macro_rules! step_without_soft_bodies {
    ($pipeline:ident, $gravity:ident, $w:ident, $islands:ident, $broad:ident, $ij:ident, $mj:ident, $ccd:ident) => {
        $pipeline.step(
            $gravity,
            &$w.params,
            &mut $islands,
            &mut $broad,
            &mut $w.narrow_phase,
            &mut $w.bodies,
            &mut $w.colliders,
            &mut $ij,
            &mut $mj,
            &mut $ccd,
            &(),
            &(),
        )
    };
}

/// 0.36: with one.
macro_rules! step_with_soft_bodies {
    ($pipeline:ident, $gravity:ident, $w:ident, $islands:ident, $broad:ident, $ij:ident, $mj:ident, $ccd:ident) => {
        $pipeline.step(
            $gravity,
            &$w.params,
            &mut $islands,
            &mut $broad,
            &mut $w.narrow_phase,
            &mut $w.bodies,
            &mut $w.colliders,
            &mut $ij,
            &mut $mj,
            &mut SoftBodySet::new(),
            &mut $ccd,
            &(),
            &(),
        )
    };
}

version_tests!(
    rapier_0_34,
    collidoscope::capture::rapier_0_34,
    "0.34.0",
    IntegrationParameters::default(),
    step_without_soft_bodies
);

version_tests!(
    rapier_0_35,
    collidoscope::capture::rapier_0_35,
    "0.35.3",
    IntegrationParameters {
        contact_recycling: false,
        ..IntegrationParameters::default()
    },
    step_without_soft_bodies
);

version_tests!(
    rapier_0_36,
    collidoscope::capture::rapier,
    "0.36.1",
    IntegrationParameters {
        contact_recycling: false,
        ..IntegrationParameters::default()
    },
    step_with_soft_bodies
);
