//! The simulation: steps per second for 1,000 and 10,000 dynamic shapes (random kinds and
//! sizes, scattered so each box overlaps about one other, random velocities up to 5 units/s,
//! one static shape in ten), every pair through the broad phase; and a recording of 10,000
//! steps of 1,000 shapes: its size (printed) and how long loading it takes (goal: well under
//! 100 MB, loaded in under a second).

use collidoscope::geometry::DVec2;
use collidoscope::motion::{Config, Recording, Simulation, Substeps};
use collidoscope::scene::generate::{Generate, random_scene};
use collidoscope::scene::{Body, Scene};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::Path;

/// `count` shapes, nine in ten dynamic with a random velocity.
fn moving_scene(count: usize) -> Scene {
    let mut scene = random_scene(Generate {
        count,
        seed: 7,
        overlaps: 1.0,
    });
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut unit = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 11) as f64 / (1u64 << 53) as f64
    };
    for (i, s) in scene.shapes.iter_mut().enumerate() {
        if i % 10 == 0 {
            continue;
        }
        s.motion.body = Body::Dynamic;
        s.motion.velocity = DVec2::new(unit() * 10.0 - 5.0, unit() * 10.0 - 5.0);
    }
    scene
}

fn config() -> Config {
    Config {
        substeps: Substeps::Fixed(1),
        ..Config::new(1.0 / 60.0).expect("a valid step")
    }
}

fn bench_steps(c: &mut Criterion) {
    let mut group = c.benchmark_group("simulate");
    group.sample_size(10);
    for count in [1_000, 10_000] {
        let mut simulation = Simulation::new(moving_scene(count), config());
        group.throughput(Throughput::Elements(1));
        group.bench_function(format!("step, {count} shapes"), |b| {
            b.iter(|| black_box(simulation.step().resolved))
        });
    }
    group.finish();
}

fn bench_recording(c: &mut Criterion) {
    let (recording, _) = Recording::run(Simulation::new(moving_scene(1_000), config()), 10_000);
    let bytes = recording.to_bytes();
    println!(
        "recording: 10,000 steps of 1,000 shapes ({} bodies): {:.1} MB ({:.2} bytes per body per step)",
        recording.bodies().len(),
        bytes.len() as f64 / 1e6,
        recording.frames_bytes() as f64 / (recording.bodies().len() as f64 * 10_000.0)
    );
    let mut group = c.benchmark_group("recording");
    group.sample_size(10);
    group.bench_function("load 10,000 steps of 1,000 shapes", |b| {
        b.iter(|| {
            black_box(
                Recording::parse(Path::new("bench.rec"), &bytes)
                    .expect("valid")
                    .steps(),
            )
        })
    });
    group.bench_function("scrub to frame 9,999", |b| {
        b.iter(|| black_box(recording.frame(9_999)))
    });
    group.finish();
}

criterion_group!(benches, bench_steps, bench_recording);
criterion_main!(benches);
