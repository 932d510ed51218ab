//! A long Rapier run with contact recycling on, said in words: the rapier_capture example's
//! game (a pyramid of fifteen boxes, three boxes sliding down a ramp onto it) for three
//! seconds, Rapier 0.36 keeping the contacts it did not recompute. Most of its claims are recycled, so
//! most disagree; `diagnose`'s text must still fit a screen.
//!
//! The capture is kept as `tests/captures/rapier-recycling.capture.jsonl.gz`, written by
//! `cargo test --test capture_rapier -- --ignored write_the_recycling_capture`.

use crate::common::{METRES, World, cuboid};
use crate::rapier_capture::{RapierCapture, header};
use rapier2d::prelude::*;

/// Where the capture is kept.
pub const RECYCLING_CAPTURE: &str = "tests/captures/rapier-recycling.capture.jsonl.gz";

/// The game of examples/rapier_capture.rs (a ground, a ramp, a pyramid of fifteen boxes,
/// three boxes sliding down the ramp onto it, a bullet), contact recycling on as Rapier has it
/// by default, `steps` steps: its capture, gzip.
pub fn pyramid_with_recycling(steps: usize) -> Vec<u8> {
    let mut world = World::new(METRES, true);
    world.fixed("ground", cuboid(&METRES, 20.0, 0.5), (0.0, -0.5), 0.0);
    world.fixed("ramp", cuboid(&METRES, 5.0, 0.25), (-8.0, 4.0), -0.35);
    for row in 0..5 {
        for i in 0..5 - row {
            let x = 4.0 + (i as f32 - (5 - row) as f32 / 2.0) * 1.05;
            world.dynamic(
                &format!("box {row}.{i}"),
                cuboid(&METRES, 0.5, 0.5),
                (x, 0.5 + row as f32),
                0.0,
            );
        }
    }
    for i in 0..3 {
        world.dynamic(
            &format!("slider {i}"),
            cuboid(&METRES, 0.4, 0.4),
            (-12.0 + 1.5 * i as f32, 7.0),
            -0.35,
        );
    }
    world.attach(
        "bullet",
        RigidBodyBuilder::dynamic()
            .translation(Vector::new(-18.0, 1.0))
            .ccd_enabled(true),
        ColliderBuilder::ball(0.1),
    );
    let mut capture =
        RapierCapture::compressed(Vec::new(), &header(&world.params, "m", true)).unwrap();
    for (handle, name) in &world.names {
        capture.name(*handle, name.clone());
    }
    for step in 0..steps {
        capture
            .before_step(&world.bodies, &world.colliders)
            .unwrap();
        world.step();
        capture
            .after_step(
                step as f64 * f64::from(world.params.dt),
                &world.narrow_phase,
            )
            .unwrap();
    }
    capture.finish().unwrap()
}

/// Writes the kept capture anew (run by hand, after a Rapier update).
#[test]
#[ignore]
fn write_the_recycling_capture() {
    std::fs::write(RECYCLING_CAPTURE, pyramid_with_recycling(180)).unwrap();
}
