//! Segments and chains: the chain rule (docs/format.md, "The chain rule") on the contract's own
//! example, its properties on random shapes, its least push against a brute-force search, and
//! ray casts.

mod common;

use collidoscope::geometry::{Chain, DVec2, Placed, Pose, Segment, Shape, ShapeKind};
use collidoscope::query::{
    ChainRule, PieceResult, chain_contact, chain_piece, chain_pieces, collide, ray_cast,
};
use collidoscope::scene;
use common::{arb_placed_of, assert_close, assert_vec_close, polygon, v};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use std::path::Path;

fn chain(points: &[DVec2], looped: bool) -> Placed {
    Placed::new(Chain::new(points.to_vec(), looped).unwrap(), Pose::IDENTITY)
}

/// The contract's example: a crate 0.0005 past the flat seam at x = 2 and 0.002 below the
/// floor. Piece 2 alone would push it back along the floor; the rule snaps it up.
#[test]
fn the_contracts_example_snaps_the_ghost_normal_and_admits_the_face() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("shapes/ghost-seam.json");
    let scene = scene::load(&file).unwrap_or_else(|e| panic!("{e}"));
    let (tiles, crate_) = (&scene.shapes[0].placed, &scene.shapes[2].placed);
    let pieces = chain_pieces(tiles, crate_);
    let rules: Vec<(usize, ChainRule)> = pieces.iter().map(|p| (p.piece, p.rule)).collect();
    assert_eq!(
        rules,
        [
            (1, ChainRule::Apart),
            (2, ChainRule::Snap),
            (3, ChainRule::Admit),
            (4, ChainRule::Apart)
        ]
    );
    let snap = &pieces[1];
    assert!(snap.summary.intersecting);
    assert_close(snap.summary.depth, 0.002, 1e-15);
    assert_eq!(snap.summary.normal, Some(DVec2::Y));
    assert!(snap.two_sided.intersecting);
    assert_close(snap.two_sided.depth, 0.0005, 1e-15);
    assert_eq!(snap.two_sided.normal, Some(DVec2::NEG_X));
    let admit = &pieces[2];
    assert_close(admit.summary.depth, 0.002, 1e-15);
    assert_eq!(admit.summary.normal, Some(DVec2::Y));
    assert_eq!(Some(admit.summary.normal.unwrap()), admit.two_sided.normal);
    // The pair's contact is the deepest piece's: the floor pushes the crate up, never back.
    let contact = collide(tiles, crate_).unwrap();
    assert_eq!(contact.normal, DVec2::Y);
    // In the other order every normal turns round.
    let swapped = chain_piece(crate_, tiles, 2).unwrap();
    assert_eq!(swapped.rule, ChainRule::Snap);
    assert_eq!(swapped.summary.normal, Some(DVec2::NEG_Y));
    assert_eq!(swapped.two_sided.normal, Some(DVec2::X));
}

/// A box resting across a convex corner: both pieces report the corner, the piece whose
/// least push is its neighbour's face skips.
#[test]
fn a_convex_corner_widens_the_admissible_range_and_the_neighbour_skips() {
    // A hill: up a 45-degree slope, then flat (front up, so the points run right to left).
    let hill = chain(
        &[
            v(4.0, 1.0),
            v(3.0, 1.0),
            v(1.0, 1.0),
            v(0.0, 0.0),
            v(-1.0, -1.0),
        ],
        false,
    );
    // Pieces 1 (flat, (3,1) -> (1,1)) and 2 (slope, (1,1) -> (0,0)); the corner at (1, 1)
    // is convex for both.
    let square = [v(-0.2, -0.2), v(0.2, -0.2), v(0.2, 0.2), v(-0.2, 0.2)];
    // Over the corner, 0.05 below the flat's line.
    let on_corner = polygon(&square, Pose::at(v(1.1, 1.15)));
    let flat = chain_piece(&hill, &on_corner, 1).unwrap();
    assert!(flat.admissible.head.is_some() && flat.admissible.tail.is_none());
    assert_eq!(flat.rule, ChainRule::Admit);
    assert_close(flat.summary.depth, 0.05, 1e-12);
    assert_vec_close(flat.summary.normal.unwrap(), DVec2::Y, 1e-12);
    // The slope's least push is up, the flat's normal: the flat reports it, the slope skips.
    let slope = chain_piece(&hill, &on_corner, 2).unwrap();
    assert!(slope.admissible.tail.is_some() && slope.admissible.head.is_none());
    assert!(slope.two_sided.intersecting);
    assert_eq!(slope.rule, ChainRule::Skip);
    let (direction, least) = slope.least.unwrap();
    assert_vec_close(direction, DVec2::Y, 1e-12);
    assert_close(least, 0.05, 1e-12);
    assert!(!slope.summary.intersecting);
}

/// Exactly the least push over the admissible directions: never more than a fine sampling of
/// the range finds, and never less than any direction in it gives.
#[test]
fn the_least_push_is_exact_not_sampled() {
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let corners = (0.05..1.5f64, 0.05..1.5f64);
    let near = (-1.5..1.5f64, -0.3..1.5f64);
    let strategy = (corners, arb_placed_of(ShapeKind::Polygon), 0..3usize, near);
    let mut measured = 0;
    for _ in 0..5000 {
        let ((tail_turn, head_turn), mut shape, kind, (x, y)) =
            strategy.new_tree(&mut runner).unwrap().current();
        shape.pose.position = v(x, y);
        let shape = match kind {
            0 => shape,
            1 => Placed::new(
                collidoscope::geometry::Circle::new(0.7).unwrap(),
                Pose::at(shape.pose.position),
            ),
            _ => Placed::new(
                collidoscope::geometry::Capsule::new(v(-0.6, 0.1), v(0.5, -0.2), 0.3).unwrap(),
                shape.pose,
            ),
        };
        // A piece from (1, 0) to (-1, 0) (front up), with convex corners turning down by
        // the given angles on both sides.
        let g0 = v(1.0, 0.0) + DVec2::from_angle(-tail_turn) * 1.0;
        let g3 = v(-1.0, 0.0) + DVec2::from_angle(std::f64::consts::PI + head_turn) * 1.0;
        let ground = chain(&[g0, v(1.0, 0.0), v(-1.0, 0.0), g3], false);
        let Some(result) = chain_piece(&ground, &shape, 1) else {
            continue;
        };
        let Some((direction, least)) = result.least else {
            continue;
        };
        measured += 1;
        let push = |u: DVec2| {
            let x = collidoscope::geometry::Rounded::new(&shape, DVec2::ZERO);
            v(1.0, 0.0).dot(u).max(v(-1.0, 0.0).dot(u)) - x.project(u).min
        };
        assert!(result.admissible.contains(direction));
        assert_close(push(direction), least, 1e-12);
        let (from, to) = (-tail_turn, head_turn);
        for k in 0..=2000 {
            let angle = from + (to - from) * k as f64 / 2000.0;
            let u = DVec2::from_angle(std::f64::consts::FRAC_PI_2 + angle);
            assert!(
                push(u) >= least - 1e-12,
                "direction {u} pushes {} < least {least} ({direction})",
                push(u)
            );
        }
    }
    assert!(measured > 1800, "only {measured} cases measured the push");
}

fn floor_pieces(n: usize, from: f64, to: f64) -> Placed {
    // Front up: the points run right to left, with a ghost point past each end.
    let step = (to - from) / n as f64;
    let mut points = vec![v(to + 1.0, 0.0)];
    points.extend((0..=n).map(|i| v(to - step * i as f64, 0.0)));
    points.push(v(from - 1.0, 0.0));
    chain(&points, false)
}

fn above_the_floor(kind: ShapeKind) -> impl Strategy<Value = Placed> {
    (arb_placed_of(kind), -3.0..3.0f64, 0.01..1.0f64).prop_map(|(shape, x, sink)| {
        let lowest = collidoscope::geometry::Rounded::new(&shape, DVec2::ZERO)
            .project(DVec2::Y)
            .min;
        let mut shape = shape;
        shape.pose.position += v(x, -sink - lowest) - shape.pose.position * DVec2::X;
        shape
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    /// Over a flat floor, a chain of any number of collinear pieces gives the same normal and
    /// depth as one long piece: the seams never catch.
    #[test]
    fn collinear_pieces_act_as_one_long_piece(
        shape in solid_kind().prop_flat_map(above_the_floor),
        n in 2..12usize,
    ) {
        prop_assume!(shape.centre().y > 0.0);
        let one = chain_pieces(&floor_pieces(1, -10.0, 10.0), &shape);
        let many = chain_pieces(&floor_pieces(n, -10.0, 10.0), &shape);
        let whole = &one[0];
        prop_assert!(whole.summary.intersecting);
        prop_assert_eq!(whole.summary.normal, Some(DVec2::Y));
        for piece in many.iter().filter(|p| p.rule != ChainRule::Apart) {
            prop_assert!(matches!(piece.rule, ChainRule::Admit | ChainRule::Snap), "{:?}", piece.rule);
            prop_assert_eq!(piece.summary.normal, Some(DVec2::Y));
            prop_assert!((piece.summary.depth - whole.summary.depth).abs() <= 1e-12 * (1.0 + whole.summary.depth));
        }
        let contact = chain_contact(&floor_pieces(n, -10.0, 10.0), &shape).unwrap();
        prop_assert_eq!(contact.normal, DVec2::Y);
    }

    /// Reversing a chain's points turns which side is solid: a shape whose centre is above a
    /// floor rests on it and passes through the reversed one; turned half round about the
    /// origin (the reversed floor is the floor turned so), it rests on the reversed one only.
    #[test]
    fn reversing_a_chain_flips_its_solid_side(
        shape in solid_kind().prop_flat_map(above_the_floor),
        n in 1..6usize,
    ) {
        prop_assume!(shape.centre().y > 1e-9);
        let floor = floor_pieces(n, -10.0, 10.0);
        let Shape::Chain(c) = &floor.shape else { unreachable!() };
        let reversed = Placed::new(c.reversed(), floor.pose);
        prop_assert!(chain_contact(&floor, &shape).is_some());
        prop_assert!(chain_contact(&reversed, &shape).is_none());
        for piece in chain_pieces(&reversed, &shape) {
            prop_assert!(matches!(piece.rule, ChainRule::Apart | ChainRule::Behind));
        }
        let mut below = shape.clone();
        below.pose = Pose::new(-shape.pose.position, shape.pose.angle() + std::f64::consts::PI);
        prop_assert!(chain_contact(&reversed, &below).is_some());
        prop_assert!(chain_contact(&floor, &below).is_none());
    }

    /// A shape whose centre is inside a counter-clockwise loop (a solid island seen from
    /// inside) is behind every piece: it never collides, however far it reaches out.
    #[test]
    fn a_shape_behind_every_piece_never_collides(
        island in common::arb_polygon_points(),
        kind in solid_kind(),
        t in 0.0..0.9f64,
        which in any::<prop::sample::Index>(),
        scale in 1.0..3.0f64,
    ) {
        let ccw = collidoscope::geometry::ConvexPolygon::new(island.clone()).unwrap();
        let mut points = ccw.points().to_vec();
        points.iter_mut().for_each(|p| *p *= scale);
        let loop_ = chain(&points, true);
        // A centre on the way from the centroid to a corner: inside.
        let corner = points[which.index(points.len())];
        let centre = ccw.centroid() * scale * (1.0 - t) + corner * t;
        let shape = match kind {
            ShapeKind::Circle => Placed::new(collidoscope::geometry::Circle::new(1.0).unwrap(), Pose::at(centre)),
            ShapeKind::Capsule => Placed::new(
                collidoscope::geometry::Capsule::new(v(-1.0, 0.0), v(1.0, 0.0), 0.5).unwrap(),
                Pose::new(centre, t * 5.0),
            ),
            _ => polygon(&[v(-1.5, -0.5), v(1.5, -0.5), v(1.5, 0.5), v(-1.5, 0.5)], Pose::new(centre, t * 5.0)),
        };
        prop_assume!(ccw.points().iter().zip(ccw.normals()).all(|(p, n)| n.dot(centre - *p * scale) < -1e-9));
        prop_assert!(chain_contact(&loop_, &shape).is_none());
        for piece in chain_pieces(&loop_, &shape) {
            prop_assert!(matches!(piece.rule, ChainRule::Apart | ChainRule::Behind), "{:?}", piece.rule);
        }
    }
}

fn solid_kind() -> impl Strategy<Value = ShapeKind> {
    prop_oneof![
        Just(ShapeKind::Circle),
        Just(ShapeKind::Capsule),
        Just(ShapeKind::Polygon)
    ]
}

/// A segment is a capsule of radius 0: two-sided, and hit by rays from either side.
#[test]
fn a_segment_is_two_sided_and_rays_hit_it_from_both_sides() {
    let plank = Placed::new(
        Segment::new(v(-1.0, 0.0), v(1.0, 0.0)).unwrap(),
        Pose::at(v(0.0, 2.0)),
    );
    let square = [v(-0.5, -0.5), v(0.5, -0.5), v(0.5, 0.5), v(-0.5, 0.5)];
    let above = polygon(&square, Pose::at(v(0.2, 2.4)));
    let below = polygon(&square, Pose::at(v(0.2, 1.7)));
    let up = collide(&plank, &above).unwrap();
    assert_vec_close(up.normal, DVec2::Y, 1e-15);
    assert_close(up.depth, 0.1, 1e-12);
    let down = collide(&plank, &below).unwrap();
    assert_vec_close(down.normal, DVec2::NEG_Y, 1e-15);
    assert_close(down.depth, 0.2, 1e-12);

    let from_below = ray_cast(&plank, v(0.0, 0.0), v(0.0, 4.0)).unwrap();
    assert_close(from_below.fraction, 0.5, 1e-15);
    assert_eq!(from_below.normal, Some(DVec2::NEG_Y));
    let from_above = ray_cast(&plank, v(0.5, 4.0), v(0.5, 0.0)).unwrap();
    assert_eq!(from_above.normal, Some(DVec2::Y));
    assert!(
        ray_cast(&plank, v(-3.0, 2.0), v(3.0, 2.0)).is_none(),
        "parallel"
    );
    let on = ray_cast(&plank, v(0.0, 2.0), v(0.0, 5.0)).unwrap();
    assert_eq!((on.fraction, on.normal), (0.0, None));
}

/// A chain is hit only on a piece's front; the first hit names its piece.
#[test]
fn rays_hit_a_chain_only_from_the_front() {
    let floor = floor_pieces(4, -2.0, 2.0); // pieces 1..=4, x from 2 down to -2
    let down = ray_cast(&floor, v(0.25, 3.0), v(0.25, -3.0)).unwrap();
    assert_close(down.fraction, 0.5, 1e-15);
    assert_eq!(down.normal, Some(DVec2::Y));
    assert_eq!(down.piece, Some(2));
    assert!(
        ray_cast(&floor, v(0.25, -3.0), v(0.25, 3.0)).is_none(),
        "from behind"
    );
    // On a seam both pieces are hit at once: the lower piece is named.
    let seam = ray_cast(&floor, v(1.0, 3.0), v(1.0, -3.0)).unwrap();
    assert_eq!(seam.piece, Some(1));
}

#[test]
fn an_open_chain_has_no_pieces_at_its_ghost_points() {
    let floor = floor_pieces(3, -3.0, 3.0);
    let far_left = polygon(
        &[v(-0.5, -0.5), v(0.5, -0.5), v(0.5, 0.5), v(-0.5, 0.5)],
        Pose::at(v(-3.8, 0.3)),
    );
    let pieces = chain_pieces(&floor, &far_left);
    assert_eq!(pieces.len(), 3);
    assert_eq!(
        pieces
            .iter()
            .map(|p: &PieceResult| p.piece)
            .collect::<Vec<_>>(),
        [1, 2, 3]
    );
    assert!(
        pieces.iter().all(|p| !p.summary.intersecting),
        "the ghost edge is no piece"
    );
}
