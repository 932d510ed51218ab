//! A small Rapier game that writes a capture: boxes sliding down a ramp onto a pyramid, and a
//! bullet fired through the scene. The lines marked `capture:` are all a game needs.
//!
//! ```text
//! cargo run --release --example rapier_capture --features rapier2d -- rapier.capture.jsonl.gz
//! collidoscope diagnose rapier.capture.jsonl.gz
//! ```

use collidoscope::capture::rapier::{RapierCapture, fresh_narrow_phase, header};
use rapier2d::prelude::*;
use std::fs::File;
use std::io::BufWriter;

fn main() -> std::io::Result<()> {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "rapier.capture.jsonl.gz".into());
    let mut bodies = RigidBodySet::new();
    let mut colliders = ColliderSet::new();
    let mut add = |body: RigidBodyBuilder, collider: ColliderBuilder| {
        let handle = bodies.insert(body);
        colliders.insert_with_parent(collider, handle, &mut bodies);
        handle
    };
    add(
        RigidBodyBuilder::fixed().translation(Vector::new(0.0, -0.5)),
        ColliderBuilder::cuboid(20.0, 0.5),
    );
    add(
        RigidBodyBuilder::fixed()
            .translation(Vector::new(-8.0, 4.0))
            .rotation(-0.35),
        ColliderBuilder::cuboid(5.0, 0.25),
    );
    for row in 0..5 {
        for i in 0..5 - row {
            let x = 4.0 + (i as f32 - (5 - row) as f32 / 2.0) * 1.05;
            add(
                RigidBodyBuilder::dynamic().translation(Vector::new(x, 0.5 + row as f32)),
                ColliderBuilder::cuboid(0.5, 0.5),
            );
        }
    }
    for i in 0..3 {
        let body = RigidBodyBuilder::dynamic()
            .translation(Vector::new(-12.0 + 1.5 * i as f32, 7.0))
            .rotation(-0.35);
        add(body, ColliderBuilder::cuboid(0.4, 0.4));
    }
    let bullet = add(
        RigidBodyBuilder::dynamic()
            .translation(Vector::new(-18.0, 1.0))
            .ccd_enabled(true),
        ColliderBuilder::ball(0.1),
    );

    // capture: recycled contacts belong to other poses; a narrow phase that recomputes every
    // manifold (optional: parry otherwise keeps a manifold's points for small motions).
    let params = IntegrationParameters {
        contact_recycling: false,
        ..Default::default()
    };
    let mut narrow_phase = fresh_narrow_phase();
    // capture: the writer, with the header naming Rapier and its settings.
    let out = BufWriter::new(File::create(&path)?);
    let mut capture = RapierCapture::compressed(out, &header(&params, "m", true))?;

    let (mut pipeline, mut islands, mut broad_phase) = (
        PhysicsPipeline::new(),
        IslandManager::new(),
        BroadPhaseBvh::new(),
    );
    let (mut joints, mut multibody, mut soft, mut ccd) = (
        ImpulseJointSet::new(),
        MultibodyJointSet::new(),
        SoftBodySet::new(),
        CCDSolver::new(),
    );
    for step in 0..600 {
        if step == 240 {
            bodies[bullet].set_linvel(Vector::new(150.0, 0.0), true);
        }
        // capture: the shapes before the step, the contacts after it.
        capture
            .before_step(&bodies, &colliders)
            .map_err(std::io::Error::other)?;
        pipeline.step(
            Vector::new(0.0, -9.81),
            &params,
            &mut islands,
            &mut broad_phase,
            &mut narrow_phase,
            &mut bodies,
            &mut colliders,
            &mut joints,
            &mut multibody,
            &mut soft,
            &mut ccd,
            &(),
            &(),
        );
        capture.after_step(step as f64 * params.dt as f64, &narrow_phase)?;
    }
    capture.finish()?;
    println!("wrote {path}: 600 frames of {} colliders", colliders.len());
    Ok(())
}
