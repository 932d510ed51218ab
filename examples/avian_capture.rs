//! A small Bevy game with Avian physics that writes a capture: a crate sliding over a floor of
//! twelve separate tiles, a ball rolling down a ramp onto them, and a stack of boxes. The game
//! runs headless (Bevy's `MinimalPlugins`) for five seconds of fixed steps; in a game with a
//! window the one line marked `capture:` is all that is added.
//!
//! ```text
//! cargo run --release --ignore-rust-version --no-default-features --features avian2d \
//!     --example avian_capture -- avian.capture.jsonl.gz
//! collidoscope diagnose avian.capture.jsonl.gz
//! collidoscope avian.capture.jsonl.gz        # the window's capture lab
//! ```
//!
//! (`--ignore-rust-version`: Bevy 0.20 declares Rust 1.97.1 and builds on 1.95.)

use avian2d::prelude::*;
use bevy::app::{App, Startup};
use bevy::ecs::prelude::*;
use bevy::prelude::{MinimalPlugins, Name, Transform};
use bevy::time::TimeUpdateStrategy;
use collidoscope::capture::avian::CapturePlugin;
use std::time::Duration;

/// Avian's default fixed step (64 Hz): one step every `App::update`.
const DT: f64 = 1.0 / 64.0;

fn setup(mut commands: Commands) {
    for k in 0..12 {
        commands.spawn((
            Name::new(format!("tile{}", k + 1)),
            RigidBody::Static,
            Collider::rectangle(1.0, 1.0),
            Transform::from_xyz(-5.5 + k as f32, -0.5, 0.0),
        ));
    }
    commands.spawn((
        Name::new("ramp"),
        RigidBody::Static,
        Collider::rectangle(3.0, 0.2),
        Transform::from_xyz(3.5, 1.2, 0.0).with_rotation(bevy::math::Quat::from_rotation_z(0.5)),
    ));
    commands.spawn((
        Name::new("crate"),
        RigidBody::Dynamic,
        Collider::rectangle(0.5, 0.5),
        Transform::from_xyz(-5.5, 0.25, 0.0),
        LinearVelocity(bevy::math::Vec2::new(7.0, 0.0)),
    ));
    commands.spawn((
        Name::new("ball"),
        RigidBody::Dynamic,
        Collider::circle(0.2),
        Transform::from_xyz(4.6, 2.2, 0.0),
    ));
    for row in 0..3 {
        for i in 0..3 - row {
            let x = -2.0 + (i as f32 - (3 - row) as f32 / 2.0) * 0.65;
            commands.spawn((
                Name::new(format!("box {row}.{i}")),
                RigidBody::Dynamic,
                Collider::rectangle(0.6, 0.6),
                Transform::from_xyz(x, 0.3 + 0.6 * row as f32, 0.0),
            ));
        }
    }
}

fn main() {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "avian.capture.jsonl.gz".into());
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, PhysicsPlugins::default()))
        // capture: every physics step written to `path`.
        .add_plugins(CapturePlugin::to_file(&path))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
            DT,
        )))
        .add_systems(Startup, setup);
    app.finish();
    app.cleanup();
    // Five seconds of steps (the first update has no time to step).
    for _ in 0..=320 {
        app.update();
    }
    // Dropping the app finishes the capture (gzip's trailer).
    drop(app);
    println!("wrote {path}: 320 steps");
}
