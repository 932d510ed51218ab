//! Ray casts against whole scenes: through the grid they give exactly what testing every
//! shape gives (all hits, and the first), for any cell size, for segments anywhere: along
//! cell boundaries, through cell corners, of zero length, far longer than the scene.

use collidoscope::broad::{Grid, boxes_of, ray_cast_scene, ray_cast_scene_first};
use collidoscope::geometry::DVec2;
use collidoscope::scene::generate::{Generate, Random, area_side, random_scene};
use collidoscope::scene::{Scene, SceneShape};

/// A point in the square of half-side `half` about the origin.
fn point(random: &mut Random, half: f64) -> DVec2 {
    DVec2::new(random.between(-half, half), random.between(-half, half))
}

/// Segments over a scene scattered in a square of side `side` with a grid of cells `cell`:
/// anywhere, on cell boundaries (horizontal, vertical or diagonal through corners), of zero
/// length, and reaching far beyond the scene.
fn segments(random: &mut Random, side: f64, cell: f64, count: usize) -> Vec<(DVec2, DVec2)> {
    let half = 0.6 * side + 1.0;
    let on_boundary = |v: f64| (v / cell).round() * cell;
    (0..count)
        .map(|k| {
            let (a, b) = (point(random, half), point(random, half));
            match k % 6 {
                0 | 1 => (a, b),
                2 => (
                    DVec2::new(a.x, on_boundary(a.y)),
                    DVec2::new(b.x, on_boundary(a.y)),
                ),
                3 => {
                    let corner = DVec2::new(on_boundary(a.x), on_boundary(a.y));
                    let run = (b.x - a.x).abs().max(cell);
                    (corner, corner + DVec2::splat(on_boundary(run)))
                }
                4 => (a, a),
                _ => (a, a + (b - a) * 1e3),
            }
        })
        .collect()
}

/// For every segment: the grid's hits equal every shape's, in order, and the first hit with
/// or without the grid is the first of them.
fn check_scene(scene: &Scene, cell: Option<f64>, random: &mut Random, count: usize) -> usize {
    let grid = Grid::build(&boxes_of(scene), cell);
    let side = area_side(scene.shapes.len().max(1), 2.0);
    let mut hits = 0;
    for (from, to) in segments(random, side, grid.cell_size(), count) {
        let every = ray_cast_scene(scene, None, from, to);
        let through_grid = ray_cast_scene(scene, Some(&grid), from, to);
        assert_eq!(
            through_grid,
            every,
            "{from} -> {to}, cell {}",
            grid.cell_size()
        );
        assert!(
            every
                .windows(2)
                .all(|w| (w[0].1.fraction, w[0].0) < (w[1].1.fraction, w[1].0)),
            "sorted by fraction, then shape"
        );
        let first = every.first().copied();
        assert_eq!(ray_cast_scene_first(scene, None, from, to), first);
        assert_eq!(ray_cast_scene_first(scene, Some(&grid), from, to), first);
        hits += every.len();
    }
    hits
}

#[test]
fn the_grid_finds_what_testing_every_shape_finds() {
    let mut random = Random::from_state(0x9e37_79b9_7f4a_7c15);
    let mut hits = 0;
    for (count, seed) in [(0, 1), (1, 2), (40, 3), (400, 4), (3000, 5)] {
        let scene = random_scene(Generate {
            count,
            seed,
            overlaps: 2.0,
        });
        // The grid's own choice, cells far too small (most shapes kept aside), cells larger
        // than the scene.
        for cell in [None, Some(0.01), Some(0.7), Some(1e4)] {
            hits += check_scene(&scene, cell, &mut random, 120);
        }
    }
    assert!(hits > 2000, "{hits} hits");
}

/// Shapes scattered over 1e12 (boxes at both ends of the cell range) and a segment crossing
/// them all: the walk would be millions of columns, so every shape is tested instead; the
/// answer is the same.
#[test]
fn a_walk_too_long_tests_every_shape_and_agrees() {
    let mut scene = random_scene(Generate {
        count: 30,
        seed: 9,
        overlaps: 2.0,
    });
    for (i, shape) in scene.shapes.iter_mut().enumerate() {
        shape.placed.pose.position = DVec2::new(i as f64 * 3e10, (i % 3) as f64 - 1.0);
    }
    let grid = Grid::build(&boxes_of(&scene), Some(1.0));
    let (from, to) = (DVec2::new(-1e11, 0.0), DVec2::new(1e12, 0.0));
    let every = ray_cast_scene(&scene, None, from, to);
    assert!(every.len() >= 10, "{every:?}");
    assert_eq!(ray_cast_scene(&scene, Some(&grid), from, to), every);
    assert_eq!(
        ray_cast_scene_first(&scene, Some(&grid), from, to),
        every.first().copied()
    );
}

/// The first hit is the nearest shape even when a farther one has a smaller index, and ties
/// go to the smaller index; a shape kept aside (huge) is found as any other.
#[test]
fn the_first_hit_is_the_nearest_then_the_smallest_index() {
    use collidoscope::geometry::{Circle, ConvexPolygon, Placed, Pose};
    let ball =
        |x: f64, y: f64, r: f64| Placed::new(Circle::new(r).unwrap(), Pose::at(DVec2::new(x, y)));
    let floor = Placed::new(
        ConvexPolygon::rectangle(DVec2::new(5000.0, 1.0)).unwrap(),
        Pose::at(DVec2::new(0.0, -20.0)),
    );
    let scene = Scene::from_shapes(vec![
        SceneShape::named("far", ball(10.0, 0.0, 1.0)),
        SceneShape::named("near", ball(4.0, 0.0, 1.0)),
        SceneShape::named("twin", ball(4.0, 0.0, 1.0)),
        SceneShape::named("floor", floor),
    ]);
    let grid = Grid::build(&boxes_of(&scene), Some(0.5));
    assert_eq!(grid.aside().to_vec(), vec![3]);
    let (from, to) = (DVec2::new(0.0, 0.0), DVec2::new(20.0, 0.0));
    let all = ray_cast_scene(&scene, Some(&grid), from, to);
    let order: Vec<usize> = all.iter().map(|(i, _)| *i).collect();
    assert_eq!(order, [1, 2, 0]);
    assert_eq!(all[0].1.fraction, 3.0 / 20.0);
    assert_eq!(
        ray_cast_scene_first(&scene, Some(&grid), from, to),
        Some(all[0])
    );
    let down = ray_cast_scene(
        &scene,
        Some(&grid),
        DVec2::new(4.0, 0.0),
        DVec2::new(4.0, -40.0),
    );
    let order: Vec<usize> = down.iter().map(|(i, _)| *i).collect();
    assert_eq!(order, [1, 2, 3]);
    assert_eq!(down[2].1.normal, Some(DVec2::Y));
}

/// Beyond the grid's range of cell indices (x = 1e15 with cells of 1: every box in the last
/// column), the walk still finds every shape, in the right order.
#[test]
fn beyond_the_range_of_cell_indices_every_shape_is_still_found() {
    use collidoscope::geometry::{Circle, Placed, Pose};
    let shapes = (0..10)
        .map(|k| {
            let at = DVec2::new(1e15 + 2.0 * k as f64, 0.0);
            SceneShape::new(None, Placed::new(Circle::new(0.5).unwrap(), Pose::at(at)))
        })
        .collect();
    let scene = Scene::from_shapes(shapes);
    let grid = Grid::build(&boxes_of(&scene), Some(1.0));
    let (from, to) = (DVec2::new(1e15 - 5.0, 0.25), DVec2::new(1e15 + 30.0, 0.25));
    let hits = ray_cast_scene(&scene, Some(&grid), from, to);
    let order: Vec<usize> = hits.iter().map(|(i, _)| *i).collect();
    assert_eq!(order, (0..10).collect::<Vec<_>>());
    assert_eq!(hits, ray_cast_scene(&scene, None, from, to));
    // Coordinates of 1e15 are multiples of 0.125.
    let x = 1e15 - (0.25f64 - 0.0625).sqrt();
    assert!((hits[0].1.point.x - x).abs() <= 0.125, "{:?}", hits[0]);
}
