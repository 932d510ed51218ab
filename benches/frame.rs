//! One frame of the window without a window: the explained pair's report, the intersecting
//! pairs (through the grid) and the scene view's frame (draw list, labels placed,
//! tessellated), at 10 to 10,000 shapes, the whole scene in view (F). Three kinds of frame:
//! still (nothing changed: the last frame is reused), drag (one shape moves a little: its
//! cells, its pairs and the whole frame are built again) and pan (the view moves: the frame
//! is built again, the core's answers are not).

use collidoscope::app::{App, Command, Edit, Fit, Options, PlaybackCommand, TimelineId};
use collidoscope::geometry::{Capsule, Circle, ConvexPolygon, DVec2, Placed, Pose};
use collidoscope::scene::{Scene, SceneShape};
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use eframe::egui;
use std::hint::black_box;

/// `n` shapes of every kind on a loose grid, some touching their neighbours.
fn scene(n: usize) -> Scene {
    let side = (n as f64).sqrt().ceil() as usize;
    let shapes = (0..n)
        .map(|i| {
            let at = DVec2::new((i % side) as f64 * 1.8, (i / side) as f64 * 1.8);
            let pose = Pose::new(at, i as f64 * 0.7);
            let placed = match i % 3 {
                0 => Placed::new(Circle::new(0.9).unwrap(), pose),
                1 => Placed::new(
                    Capsule::new(DVec2::new(-0.6, 0.0), DVec2::new(0.6, 0.0), 0.4).unwrap(),
                    pose,
                ),
                _ => Placed::new(ConvexPolygon::regular(3 + i % 6, 0.95).unwrap(), pose),
            };
            SceneShape::named(&format!("s{i}"), placed)
        })
        .collect();
    Scene::from_shapes(shapes)
}

fn bench_frame(c: &mut Criterion) {
    let rect = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(800.0, 700.0));
    let mut group = c.benchmark_group("frame");
    for n in [10, 200, 1_000, 10_000] {
        let mut app = App::new(Options {
            no_data_dir: true,
            ..Default::default()
        });
        app.set_scene(scene(n));
        app.fit(Fit::Scene);
        app.frame_work(rect);
        group.bench_with_input(BenchmarkId::new("still", n), &n, |b, _| {
            b.iter(|| black_box(app.frame_work(black_box(rect)).shapes.len()))
        });
        // A drag: the last shape, selected as a press selects it, moves a little every frame
        // (one undo step, as a drag is).
        app.select(Some(n - 1));
        let mut dragged = app.scene().shapes[n - 1].clone();
        let mut step = 0u64;
        group.bench_with_input(BenchmarkId::new("drag", n), &n, |b, _| {
            b.iter(|| {
                step += 1;
                dragged.placed.pose.position.x += if step.is_multiple_of(2) { 0.01 } else { -0.01 };
                app.apply_edit(Edit::Replace {
                    shape: dragged.clone(),
                    gesture: Some(1),
                });
                black_box(app.frame_work(black_box(rect)).shapes.len())
            })
        });
        let mut x = 0.0f32;
        group.bench_with_input(BenchmarkId::new("pan", n), &n, |b, _| {
            b.iter(|| {
                // Moving the view by half a point: the same shapes, a new frame.
                x = if x == 0.0 { 0.5 } else { 0.0 };
                let moved = rect.translate(egui::vec2(x, 0.0));
                black_box(app.frame_work(black_box(moved)).shapes.len())
            })
        });
    }
    group.finish();
}

/// The motion lab playing: every shape dynamic and moving, the run made once, then one frame
/// of the run shown per frame of the window (its scene decoded from the recording, the view
/// built again). Goal: 1,000 shapes within 4x of 10.
fn bench_playing(c: &mut Criterion) {
    use collidoscope::app::Lab;
    use collidoscope::scene::Body;
    let rect = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(800.0, 700.0));
    let mut group = c.benchmark_group("playing");
    for n in [10, 1_000] {
        let mut moving = scene(n);
        for (i, s) in moving.shapes.iter_mut().enumerate() {
            s.motion.body = Body::Dynamic;
            s.motion.velocity = DVec2::from_angle(i as f64 * 2.4) * 0.5;
        }
        let mut app = App::new(Options {
            no_data_dir: true,
            ..Default::default()
        });
        app.set_scene(moving);
        app.fit(Fit::Scene);
        app.set_lab(Lab::Motion);
        app.frame_work(rect);
        let last = app.motion_lab().last_frame();
        assert_eq!(last, 240, "the run is made");
        let mut k = 0;
        group.bench_with_input(BenchmarkId::new("frame", n), &n, |b, _| {
            b.iter(|| {
                k = k % last + 1;
                app.run(Command::Playback(
                    TimelineId::Motion,
                    PlaybackCommand::Seek(k),
                ));
                black_box(app.frame_work(black_box(rect)).shapes.len())
            })
        });
    }
    group.finish();
}

/// An edit's recovery copy at 10,000 shapes: what the window's thread spends on it (the scene
/// handed to the data folder's thread), against the copy written (what the window's thread
/// did before the copy moved off it: the scene as JSON, written and synced).
fn bench_autosave(c: &mut Criterion) {
    let n = 10_000;
    let data = tempfile::tempdir().unwrap();
    let mut app = App::new(Options {
        data_dir: Some(data.path().to_path_buf()),
        ..Default::default()
    });
    app.set_scene(scene(n));
    app.select(Some(n - 1));
    let mut dragged = app.scene().shapes[n - 1].clone();
    let mut group = c.benchmark_group("autosave");
    group.sample_size(20);
    let mut step = 0u64;
    group.bench_function(BenchmarkId::new("window thread", n), |b| {
        b.iter(|| {
            step += 1;
            dragged.placed.pose.position.x += if step.is_multiple_of(2) { 0.01 } else { -0.01 };
            app.apply_edit(Edit::Replace {
                shape: dragged.clone(),
                gesture: None,
            });
            app.autosave_now();
        });
        // The copies queued are written before the next measurement.
        app.flush_data_folder();
    });
    let scene = app.scene().clone();
    let file = data.path().join("copy.json");
    group.bench_function(BenchmarkId::new("copy written", n), |b| {
        b.iter(|| collidoscope::scene::save(black_box(&scene), &file).unwrap())
    });
    group.finish();
}

criterion_group!(benches, bench_frame, bench_playing, bench_autosave);
criterion_main!(benches);
