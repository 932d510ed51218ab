//! The uniform grid finds exactly the box pairs brute force finds, on random scenes, for any
//! cell size, after any moves; and the intersecting pairs it leads to are exactly those of
//! all-pairs `collide`.

mod common;

use collidoscope::broad::reference::{brute_force_pairs, sweep_and_prune_pairs};
use collidoscope::broad::{Aabb, Grid, auto_cell_size, boxes_of, intersecting_pairs};
use collidoscope::geometry::DVec2;
use collidoscope::query::collide;
use collidoscope::scene::{Scene, SceneShape};
use common::arb_placed;
use proptest::prelude::*;

fn sorted(mut pairs: Vec<(u32, u32)>) -> Vec<(u32, u32)> {
    pairs.sort_unstable();
    pairs
}

fn arb_box(extent: f64) -> impl Strategy<Value = Aabb> {
    (
        -extent..extent,
        -extent..extent,
        0.0..extent / 4.0,
        0.0..extent / 4.0,
    )
        .prop_map(|(x, y, w, h)| Aabb::new(DVec2::new(x, y), DVec2::new(x + w, y + h)))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Same pair set as brute force and as sort-and-sweep, each pair once, for cell sizes
    /// from far too small (entries kept aside) to far too large (one cell).
    #[test]
    fn grid_pairs_equal_brute_force(
        boxes in prop::collection::vec(arb_box(20.0), 0..120),
        cell in prop_oneof![Just(None), (0.005f64..50.0).prop_map(Some)],
    ) {
        let expected = brute_force_pairs(&boxes);
        prop_assert_eq!(sweep_and_prune_pairs(&boxes), expected.clone());
        let found = Grid::build(&boxes, cell).candidate_pairs();
        let n = found.len();
        let found = sorted(found);
        prop_assert_eq!(n, expected.len(), "a pair was reported twice");
        prop_assert_eq!(found, expected);
    }

    /// Moving entries one at a time with `occupy` gives the grid a fresh build would give:
    /// the same pairs and the same answer to a box query.
    #[test]
    fn incremental_moves_equal_a_rebuild(
        boxes in prop::collection::vec(arb_box(10.0), 1..80),
        moves in prop::collection::vec((any::<prop::sample::Index>(), arb_box(10.0)), 1..60),
        removed in prop::collection::vec(any::<prop::sample::Index>(), 0..5),
        probe in arb_box(10.0),
    ) {
        let mut boxes = boxes;
        let mut grid = Grid::build(&boxes, Some(1.3));
        for (index, to) in moves {
            let i = index.index(boxes.len());
            boxes[i] = to;
            grid.occupy(i as u32, to);
        }
        let mut gone = Vec::new();
        for index in removed {
            let i = index.index(boxes.len()) as u32;
            grid.remove(i);
            gone.push(i);
        }
        let rebuilt = Grid::build(&boxes, Some(1.3));
        let keep = |p: &(u32, u32)| !gone.contains(&p.0) && !gone.contains(&p.1);
        let expected: Vec<_> = sorted(rebuilt.candidate_pairs()).into_iter().filter(keep).collect();
        prop_assert_eq!(sorted(grid.candidate_pairs()), expected);
        let mut hits = grid.query(&probe);
        hits.sort_unstable();
        let expected_hits: Vec<u32> = (0..boxes.len() as u32)
            .filter(|i| !gone.contains(i) && boxes[*i as usize].overlaps(&probe))
            .collect();
        prop_assert_eq!(hits, expected_hits);
    }

    /// Through the grid, the intersecting pairs are exactly those all-pairs `collide` finds.
    #[test]
    fn intersecting_pairs_equal_all_pairs_collide(
        shapes in prop::collection::vec(arb_placed(), 0..40),
    ) {
        let scene = Scene::from_shapes(
            shapes.into_iter().map(|p| SceneShape::new(None, p)).collect(),
        );
        let mut expected = Vec::new();
        for i in 0..scene.shapes.len() {
            for j in i + 1..scene.shapes.len() {
                if collide(&scene.shapes[i].placed, &scene.shapes[j].placed).is_some() {
                    expected.push((i, j));
                }
            }
        }
        prop_assert_eq!(intersecting_pairs(&scene, None), expected.clone());
        prop_assert_eq!(intersecting_pairs(&scene, Some(0.01)), expected);
    }

    /// The window's live pairs, updated shape by shape as shapes move, appear and go, are
    /// always what building again finds.
    #[test]
    fn live_pairs_updated_shape_by_shape_equal_a_rebuild(
        shapes in prop::collection::vec(arb_placed(), 2..30),
        moves in prop::collection::vec((0usize..30, -3.0..3.0f64, -3.0..3.0f64), 1..12),
    ) {
        use collidoscope::broad::LivePairs;
        let mut scene = Scene::from_shapes(
            shapes.into_iter().map(|p| SceneShape::new(None, p)).collect(),
        );
        let mut live = LivePairs::default();
        live.rebuild(&scene, None);
        for (k, dx, dy) in moves {
            let k = k % scene.shapes.len();
            let id = scene.shapes[k].id;
            if dx.abs() > 2.8 && scene.shapes.len() > 2 {
                // Now and then a shape goes.
                scene.shapes.remove(k);
            } else {
                scene.shapes[k].placed.pose.position += DVec2::new(dx, dy);
            }
            live.update(&scene, &[id]);
            let mut fresh = LivePairs::default();
            fresh.rebuild(&scene, None);
            prop_assert_eq!(live.hits(), fresh.hits());
        }
    }
}

/// A shape's box is exact: every kind touches all four sides of its box.
#[test]
fn boxes_are_exact_for_every_kind() {
    use collidoscope::geometry::{Capsule, Circle, ConvexPolygon, Placed, Pose};
    let capsule = Placed::new(
        Capsule::new(DVec2::new(-1.0, 0.0), DVec2::new(1.0, 0.0), 0.5).unwrap(),
        Pose::new(DVec2::new(3.0, 4.0), std::f64::consts::FRAC_PI_2),
    );
    let b = Aabb::of(&capsule);
    // The segment runs from (3, 3) to (3, 5); the radius adds 0.5 all round.
    assert!((b.min - DVec2::new(2.5, 2.5)).length() < 1e-15, "{b:?}");
    assert!((b.max - DVec2::new(3.5, 5.5)).length() < 1e-15, "{b:?}");
    let circle = Placed::new(Circle::new(2.0).unwrap(), Pose::at(DVec2::new(-1.0, 1.0)));
    assert_eq!(
        Aabb::of(&circle),
        Aabb::new(DVec2::new(-3.0, -1.0), DVec2::new(1.0, 3.0))
    );
    let square = Placed::new(
        ConvexPolygon::rectangle(DVec2::splat(1.0)).unwrap(),
        Pose::new(DVec2::ZERO, std::f64::consts::FRAC_PI_4),
    );
    let b = Aabb::of(&square);
    let r = std::f64::consts::SQRT_2;
    assert!((b.max - DVec2::splat(r)).length() < 1e-15, "{b:?}");
}

/// The grid on a file's boxes, and the automatic cell size: a few cells per typical shape.
#[test]
fn auto_cell_size_follows_the_shapes() {
    let scene =
        collidoscope::scene::load(std::path::Path::new("shapes/default-scene.json")).unwrap();
    let boxes = boxes_of(&scene);
    let cell = auto_cell_size(&boxes);
    let sides: Vec<f64> = boxes.iter().map(|b| b.size().max_element()).collect();
    let smallest = sides.iter().copied().fold(f64::INFINITY, f64::min);
    let largest = sides.iter().copied().fold(0.0, f64::max);
    assert!(
        cell >= smallest && cell <= 2.0 * largest,
        "cell {cell} for sides {sides:?}"
    );
    assert_eq!(auto_cell_size(&[]), 1.0);
}

/// Shapes far beyond `i32` cells (1e300 from the origin) neither overflow nor go missing.
#[test]
fn far_and_huge_boxes_are_found() {
    let boxes = [
        Aabb::new(DVec2::splat(1e300), DVec2::splat(2e300)),
        Aabb::new(DVec2::splat(1.5e300), DVec2::splat(1.6e300)),
        Aabb::new(DVec2::splat(-1e300), DVec2::splat(1e300)),
        Aabb::new(DVec2::ZERO, DVec2::ONE),
    ];
    let found = sorted(Grid::build(&boxes, Some(1.0)).candidate_pairs());
    assert_eq!(found, brute_force_pairs(&boxes));
}
