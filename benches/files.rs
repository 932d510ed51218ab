//! Large shape-set files: loading and saving 100,000 shapes; one polygon of 100,000 points
//! checked (validation grows with the points, not their square: 33 s before, issue 60).

use collidoscope::geometry::{Capsule, Circle, ConvexPolygon, DVec2, Placed, Pose};
use collidoscope::scene::{self, Scene, SceneShape};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

const SHAPES: usize = 100_000;

/// A grid of circles, capsules and hexagons with awkward coordinates (full mantissas).
fn big_scene() -> Scene {
    let hexagon = ConvexPolygon::regular(6, 0.45).unwrap();
    let shapes = (0..SHAPES)
        .map(|i| {
            let at = DVec2::new(
                (i % 300) as f64 * 1.1 + 0.1 / 3.0,
                (i / 300) as f64 * 1.1 - 1.0 / 7.0,
            );
            let pose = Pose::new(at, i as f64 * 0.618_033_988_749_894_9);
            let placed = match i % 3 {
                0 => Placed::new(Circle::new(0.4 + (i % 7) as f64 / 70.0).unwrap(), pose),
                1 => Placed::new(
                    Capsule::new(DVec2::new(-0.3, 0.0), DVec2::new(0.3, 0.0), 0.2).unwrap(),
                    pose,
                ),
                _ => Placed::new(hexagon.clone(), pose),
            };
            SceneShape::named(&format!("shape-{i}"), placed)
        })
        .collect();
    Scene::from_shapes(shapes)
}

fn bench_files(c: &mut Criterion) {
    let scene = big_scene();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.json");
    scene::save(&scene, &path).unwrap();
    let bytes = std::fs::metadata(&path).unwrap().len();
    println!("{SHAPES} shapes: {:.1} MB on disk", bytes as f64 / 1e6);

    let mut group = c.benchmark_group("files");
    group.sample_size(10);
    group.throughput(Throughput::Elements(SHAPES as u64));
    group.bench_function("load 100k shapes", |b| {
        b.iter(|| black_box(scene::load(black_box(&path)).unwrap()))
    });
    group.bench_function("save 100k shapes", |b| {
        b.iter(|| scene::save(black_box(&scene), &path).unwrap())
    });
    group.finish();

    // One convex polygon of 100,000 points, as a level exported from a drawing tool can hold.
    let points: Vec<DVec2> = (0..SHAPES)
        .map(|i| {
            let t = std::f64::consts::TAU * i as f64 / SHAPES as f64;
            DVec2::new(t.cos(), t.sin()) * 10.0
        })
        .collect();
    let mut group = c.benchmark_group("files");
    group.sample_size(10);
    group.throughput(Throughput::Elements(SHAPES as u64));
    group.bench_function("check a polygon of 100k points", |b| {
        b.iter(|| black_box(ConvexPolygon::new(black_box(points.clone())).unwrap()))
    });
    group.finish();
}

criterion_group!(benches, bench_files);
criterion_main!(benches);
