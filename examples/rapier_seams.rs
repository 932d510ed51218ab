//! The ghost collision every 2D engine's issue tracker is full of, in a small Rapier game: a
//! floor of twelve separate 1 m box tiles, a crate sent along it at 7 m/s, a ball rolling off
//! a ramp onto it, a bullet fired at a thin wall. Every contact Rapier reports is right, yet
//! the crate catches on the seam between two tiles; `collidoscope diagnose` names it (the
//! `seam` event) with its fix, and the capture lab draws it. With `--one-box` the floor is one
//! collider and nothing catches.
//!
//! ```text
//! cargo run --release --example rapier_seams --features rapier2d -- seams.capture.jsonl
//! collidoscope diagnose seams.capture.jsonl
//! collidoscope seams.capture.jsonl        # E steps to each event
//! ```
//!
//! With `--window`, the game streams its capture to a collidoscope window instead (starting
//! `collidoscope --listen` if none runs: the `collidoscope` on the path, or the program
//! `COLLIDOSCOPE_BIN` names), at 60 steps a second, while a flight recorder keeps the last
//! two seconds and saves them at the first step that is not clean (the seam), to the file
//! named (`seams.capture.jsonl`, gzip when it ends in `.gz`):
//!
//! ```text
//! cargo run --release --example rapier_seams --features rapier2d -- seam.capture.jsonl.gz --window
//! ```

use collidoscope::capture::rapier::{RapierCapture, fresh_narrow_phase, header};
use collidoscope::capture::{FlightRecorder, Tee, ToWindow};
use rapier2d::prelude::*;
use std::fs::File;
use std::io::{BufWriter, Write};

/// The link to a window, started if none runs; the game waits (once, up to 20 s) for it to
/// connect so that the window sees its first frames.
fn to_window() -> std::io::Result<ToWindow> {
    let link = ToWindow::spawn();
    if !link.wait_for_window(std::time::Duration::from_secs(20)) {
        let problem = link.stats().problem.unwrap_or_default();
        return Err(std::io::Error::other(format!(
            "no window connected in 20 s: {problem}"
        )));
    }
    Ok(link)
}

fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = args
        .iter()
        .find(|a| !a.starts_with("--"))
        .cloned()
        .unwrap_or_else(|| "seams.capture.jsonl".into());
    let one_box = args.iter().any(|a| a == "--one-box");
    let window = args.iter().any(|a| a == "--window");
    let mut bodies = RigidBodySet::new();
    let mut colliders = ColliderSet::new();
    let mut names = Vec::new();
    let mut add = |name: &str, body: RigidBodyBuilder, collider: ColliderBuilder| {
        let handle = bodies.insert(body);
        let collider = colliders.insert_with_parent(collider, handle, &mut bodies);
        names.push((collider, name.to_string()));
        handle
    };
    if one_box {
        add(
            "floor",
            RigidBodyBuilder::fixed().translation(Vector::new(0.0, -0.5)),
            ColliderBuilder::cuboid(6.0, 0.5),
        );
    } else {
        for k in 0..12 {
            add(
                &format!("tile{}", k + 1),
                RigidBodyBuilder::fixed().translation(Vector::new(-5.5 + k as f32, -0.5)),
                ColliderBuilder::cuboid(0.5, 0.5),
            );
        }
    }
    add(
        "ramp",
        RigidBodyBuilder::fixed()
            .translation(Vector::new(3.5, 1.2))
            .rotation(0.5),
        ColliderBuilder::cuboid(1.5, 0.1),
    );
    add(
        "wall",
        RigidBodyBuilder::fixed().translation(Vector::new(9.0, 2.0)),
        ColliderBuilder::cuboid(0.05, 2.0),
    );
    add(
        "crate",
        RigidBodyBuilder::dynamic()
            .translation(Vector::new(-5.5, 0.25))
            .linvel(Vector::new(7.0, 0.0)),
        ColliderBuilder::cuboid(0.25, 0.25),
    );
    add(
        "ball",
        RigidBodyBuilder::dynamic().translation(Vector::new(4.6, 2.2)),
        ColliderBuilder::ball(0.2),
    );
    add(
        "bullet",
        RigidBodyBuilder::dynamic()
            .translation(Vector::new(5.3, 1.0))
            .linvel(Vector::new(120.0, 0.0))
            .gravity_scale(0.0),
        ColliderBuilder::ball(0.05),
    );

    // capture: contacts as Rapier computed them at the poses the capture holds.
    let params = IntegrationParameters {
        contact_recycling: false,
        ..Default::default()
    };
    let mut narrow_phase = fresh_narrow_phase();
    // capture: the writer, with the header naming Rapier and its settings, and the names.
    // With --window: to a window (started if none runs) and a flight recorder of the last
    // two seconds, saved at the first step that is not clean.
    let recorder = FlightRecorder::keeping(2.0).save_on_first(&path);
    let mut link = None;
    let out: Box<dyn Write> = if window {
        let to_window = to_window()?;
        link = Some(to_window.watch());
        Box::new(Tee(to_window, recorder.output()))
    } else {
        Box::new(BufWriter::new(File::create(&path)?))
    };
    let mut capture = RapierCapture::new(out, &header(&params, "m", true))?;
    for (collider, name) in names {
        capture.name(collider, name);
    }

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
    let steps = 120;
    for step in 0..steps {
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
        if window {
            // A game's pace, so the window is watched live.
            std::thread::sleep(std::time::Duration::from_secs_f32(params.dt));
        }
    }
    capture.finish()?;
    if !window {
        println!(
            "wrote {path}: {steps} frames of {} colliders",
            colliders.len()
        );
    } else {
        let stats = link.map(|l| l.stats()).unwrap_or_default();
        println!(
            "{steps} frames: {} sent to the window, {} dropped",
            stats.sent, stats.dropped
        );
        match recorder.saved_on() {
            Some((saved, step)) => println!(
                "the flight recorder saved the seconds before the first step that was not clean to {}:\n{step}",
                saved.display()
            ),
            None => println!("every step was clean"),
        }
    }
    Ok(())
}
