//! Ray casts: a differential test against parry2d-f64's `cast_ray_and_get_normal` (solid) on
//! 10,000 random segments per kind, both measured against an exact reference computed here
//! (the first of 2,000 samples inside the shape, refined by bisection); named cases; the scene
//! cast through the grid equals testing every shape.

mod common;

use collidoscope::broad::ray_cast_scene;
use collidoscope::broad::{Grid, boxes_of};
use collidoscope::geometry::{DVec2, Placed, Pose, ShapeKind};
use collidoscope::query::{distance_to_point, ray_cast};
use collidoscope::scene::{Scene, SceneShape};
use common::reference::to_reference;
use common::*;
use parry2d_f64::math::Vector;
use parry2d_f64::query::Ray;
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;

fn inside(shape: &Placed, p: DVec2) -> bool {
    distance_to_point(shape, p) == 0.0
}

/// The first point of the segment inside `shape`, to bisection precision; `None` when no
/// sample is inside.
fn reference(shape: &Placed, from: DVec2, to: DVec2) -> Option<f64> {
    const SAMPLES: usize = 2000;
    let at = |t: f64| from + (to - from) * t;
    if inside(shape, from) {
        return Some(0.0);
    }
    let k = (1..=SAMPLES).find(|k| inside(shape, at(*k as f64 / SAMPLES as f64)))?;
    let (mut lo, mut hi) = ((k - 1) as f64 / SAMPLES as f64, k as f64 / SAMPLES as f64);
    for _ in 0..80 {
        let mid = 0.5 * (lo + hi);
        if inside(shape, at(mid)) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Some(hi)
}

fn parry(shape: &Placed, from: DVec2, to: DVec2) -> Option<(f64, DVec2)> {
    let r = to_reference(shape);
    let d = to - from;
    let ray = Ray::new(Vector::new(from.x, from.y), Vector::new(d.x, d.y));
    r.shape
        .0
        .cast_ray_and_get_normal(&r.pose, &ray, 1.0, true)
        .map(|hit| (hit.time_of_impact, DVec2::new(hit.normal.x, hit.normal.y)))
}

#[test]
fn every_kind_agrees_with_the_exact_reference() {
    for kind in ShapeKind::SOLID {
        let mut runner = TestRunner::deterministic();
        let strategy = (
            arb_placed_of(kind),
            -6.0..6.0f64,
            -6.0..6.0f64,
            -6.0..6.0f64,
            -6.0..6.0f64,
        );
        let (mut hits, mut inside_starts, mut misses, mut between) = (0, 0, 0, 0);
        let (mut worst, mut worst_parry, mut worst_normal, mut parry_disagrees) =
            (0.0f64, 0.0f64, 0.0f64, 0);
        for _ in 0..10_000 {
            let (shape, x0, y0, x1, y1) = strategy.new_tree(&mut runner).unwrap().current();
            let (from, to) = (v(x0, y0), v(x1, y1));
            let ours = ray_cast(&shape, from, to);
            match (reference(&shape, from, to), ours) {
                (Some(0.0), Some(hit)) => {
                    inside_starts += 1;
                    assert_eq!((hit.fraction, hit.normal), (0.0, None));
                }
                (Some(t_ref), Some(hit)) => {
                    hits += 1;
                    let error = (hit.fraction - t_ref).abs();
                    assert!(
                        error <= 1e-9 * (1.0 + t_ref),
                        "{kind}: {error} {shape:?} {from} {to}"
                    );
                    worst = worst.max(error);
                    let n = hit.normal.expect("a hit from outside has a normal");
                    assert!((n.length() - 1.0).abs() < 1e-12);
                    // The point is on the boundary, and the normal points out of the shape.
                    assert!(distance_to_point(&shape, hit.point) <= 1e-9);
                    assert!(distance_to_point(&shape, hit.point + n * 1e-6) > 0.5e-6);
                    match parry(&shape, from, to) {
                        Some((tp, np)) => {
                            worst_parry = worst_parry.max((tp - t_ref).abs());
                            if (tp - t_ref).abs() < 1e-6 {
                                worst_normal = worst_normal.max(np.distance(n));
                            }
                        }
                        None => parry_disagrees += 1,
                    }
                }
                (None, None) => {
                    misses += 1;
                    parry_disagrees += usize::from(parry(&shape, from, to).is_some());
                }
                (None, Some(hit)) => {
                    // A chord shorter than the samples' spacing: still on the boundary.
                    between += 1;
                    assert!(distance_to_point(&shape, hit.point) <= 1e-9);
                }
                (Some(t_ref), None) => {
                    panic!("{kind}: missed a hit at {t_ref}: {shape:?} {from} {to}")
                }
            }
        }
        eprintln!(
            "{kind}: {hits} hits, {inside_starts} from inside, {misses} misses, {between} short chords; worst fraction error: collidoscope {worst:e}, parry {worst_parry:e}; normals differ from parry's by up to {worst_normal:e}; parry disagrees on hit/miss {parry_disagrees} times"
        );
        assert!(hits > 1000 && misses > 1000, "{kind}");
    }
}

#[test]
fn named_cases() {
    // A bullet's path through a wall 0.2 thick: it enters at x = -0.1.
    let wall = polygon(
        &[v(-0.1, -2.0), v(0.1, -2.0), v(0.1, 2.0), v(-0.1, 2.0)],
        Pose::IDENTITY,
    );
    let hit = ray_cast(&wall, v(-5.0, 0.0), v(5.0, 0.0)).unwrap();
    assert_close(hit.fraction, 0.49, 1e-15);
    assert_eq!(hit.normal, Some(v(-1.0, 0.0)));
    // Along an edge's line, just outside: a miss; on it: a hit at the corner.
    assert_eq!(
        ray_cast(&wall, v(-5.0, 2.0 + 1e-12), v(5.0, 2.0 + 1e-12)),
        None
    );
    // From inside, and from the boundary: fraction 0, no normal.
    let inside = ray_cast(&wall, v(0.0, 0.0), v(5.0, 0.0)).unwrap();
    assert_eq!((inside.fraction, inside.normal), (0.0, None));
    let on = ray_cast(&wall, v(0.1, 0.0), v(5.0, 0.0)).unwrap();
    assert_eq!((on.fraction, on.normal), (0.0, None));
    // A capsule whose ends coincide is a circle.
    let dot = capsule(v(1.0, 1.0), v(1.0, 1.0), 0.5, Pose::IDENTITY);
    let hit = ray_cast(&dot, v(-3.0, 1.0), v(3.0, 1.0)).unwrap();
    assert_close(hit.point.x, 0.5, 1e-15);
    // The side face of a capsule, and its end cap.
    let rail = capsule(v(-2.0, 0.0), v(2.0, 0.0), 0.25, Pose::IDENTITY);
    let top = ray_cast(&rail, v(0.5, 3.0), v(0.5, -3.0)).unwrap();
    assert_close(top.point.y, 0.25, 1e-15);
    assert_eq!(top.normal, Some(v(0.0, 1.0)));
    let end = ray_cast(&rail, v(5.0, 0.0), v(0.0, 0.0)).unwrap();
    assert_close(end.point.x, 2.25, 1e-15);
    // A zero-length segment: only a start inside hits.
    assert_eq!(ray_cast(&rail, v(5.0, 0.0), v(5.0, 0.0)), None);
    // Far from the origin, the same answer.
    let far = DVec2::splat(1e6);
    let far_wall = polygon(
        &[v(-0.1, -2.0), v(0.1, -2.0), v(0.1, 2.0), v(-0.1, 2.0)],
        Pose::at(far),
    );
    let hit = ray_cast(&far_wall, far + v(-5.0, 0.0), far + v(5.0, 0.0)).unwrap();
    assert_close(hit.fraction, 0.49, 1e-12);
}

#[test]
fn the_grid_finds_what_testing_every_shape_finds() {
    let mut runner = TestRunner::deterministic();
    for _ in 0..20 {
        let shapes: Vec<SceneShape> = (0..60)
            .map(|i| {
                let mut placed = arb_placed().new_tree(&mut runner).unwrap().current();
                placed.pose.position *= 4.0;
                SceneShape::named(&format!("s{i}"), placed)
            })
            .collect();
        let scene = Scene::from_shapes(shapes);
        let grid = Grid::build(&boxes_of(&scene), None);
        for _ in 0..20 {
            let (x0, y0, x1, y1) = (
                -20.0..20.0f64,
                -20.0..20.0f64,
                -20.0..20.0f64,
                -20.0..20.0f64,
            )
                .new_tree(&mut runner)
                .unwrap()
                .current();
            let (from, to) = (v(x0, y0), v(x1, y1));
            assert_eq!(
                ray_cast_scene(&scene, Some(&grid), from, to),
                ray_cast_scene(&scene, None, from, to)
            );
        }
    }
}
