//! The shapes Rapier users build floors and bodies from, captured piece by piece (docs/format.md,
//! "Shapes the engines have"): a rounded crate (`RoundCuboid`) on separate tiles, an L-shaped
//! `Compound` body on a `Polyline` floor, a ball over a `HeightField` hill, a box on a `TriMesh`
//! ramp. Every claim agrees at f32, each named by the part or piece parry collided.

use crate::common;

use common::{METRES, PIXELS, Run, Scale, World, cuboid, run};
use rapier2d::parry::shape::SharedShape;
use rapier2d::prelude::*;
use std::collections::BTreeSet;

/// A run of `steps` steps, judged, and the names of the shapes its claims are on.
fn names(world: &mut World, steps: usize) -> (Run, BTreeSet<String>) {
    let result = run(world, steps, |_| {});
    let named = result
        .records
        .iter()
        .flat_map(|r| [r.a_name.clone(), r.b_name.clone()])
        .collect();
    (result, named)
}

fn assert_all_agree(what: &str, result: &Run) {
    let text = result.line(what, &METRES, false);
    println!("{text}");
    for example in &result.examples {
        println!("    {example}");
    }
    assert!(result.claims > 50, "{text}");
    assert_eq!(result.agreeing, result.claims, "{text}");
}

#[test]
fn a_rounded_crate_on_separate_tiles_agrees_and_bumps_on_a_corner() {
    for scale in [METRES, PIXELS] {
        let mut world = World::new(scale, false).with_fresh_manifolds();
        for k in 0..8 {
            world.fixed(
                &format!("tile{}", k + 1),
                cuboid(&scale, 0.5, 0.5),
                (-3.5 + k as f32, -0.5),
                0.0,
            );
        }
        let r = scale.l(0.05);
        let crate_collider = ColliderBuilder::round_cuboid(scale.l(0.2), scale.l(0.2), r);
        let body = RigidBodyBuilder::dynamic()
            .translation(scale.p(-3.5, 0.25))
            .linvel(scale.v(3.0, 0.0));
        world.attach("rounded crate", body, crate_collider);
        let (result, named) = names(&mut world, 120);
        assert_all_agree(scale.name, &result);
        assert!(named.contains("rounded crate"), "{named:?}");
        let corners: Vec<_> = result
            .events
            .iter()
            .filter(|e| e.seam().and_then(|s| s.corner).map(|c| c.corner).is_some())
            .collect();
        println!("{}: {} corner bumps", scale.name, corners.len());
        // Measured: 25 at the origin, 4 in pixels; each on a corner between two tiles.
        assert!(!corners.is_empty(), "the bumps at the seams are named");
        for c in &corners {
            let tiles = [
                c.seam().map(|s| s.face_of).unwrap(),
                c.seam().map(|s| s.covered_by).unwrap(),
            ]
            .map(|id| c.names[&id].clone());
            assert!(tiles.iter().all(|t| t.starts_with("tile")), "{tiles:?}");
            assert_eq!(c.names[&c.shape().unwrap()], "rounded crate");
        }
    }
}

/// An L of two boxes as one `Compound` collider, dropped turning onto a polyline floor with a
/// step in it.
fn l_on_a_polyline(scale: Scale) -> World {
    let mut world = World::new(scale, false).with_fresh_manifolds();
    let floor: Vec<Vector> = [
        (-4.0, 0.0),
        (-1.0, 0.0),
        (0.0, 0.3),
        (1.5, 0.3),
        (4.0, -0.2),
    ]
    .iter()
    .map(|&(x, y)| scale.v(x, y))
    .collect();
    world.fixed(
        "floor",
        ColliderBuilder::polyline(floor, None),
        (0.0, 0.0),
        0.0,
    );
    let parts = vec![
        (
            Pose::IDENTITY,
            SharedShape::cuboid(scale.l(0.6), scale.l(0.15)),
        ),
        (
            Pose::translation(
                scale.l(-0.45),
                scale.l(0.45) * if scale.y_down { -1.0 } else { 1.0 },
            ),
            SharedShape::cuboid(scale.l(0.15), scale.l(0.3)),
        ),
    ];
    let body = RigidBodyBuilder::dynamic()
        .translation(scale.p(-1.5, 1.2))
        .rotation(scale.a(0.3))
        .linvel(scale.v(1.5, 0.0));
    world.attach("L", body, ColliderBuilder::compound(parts));
    world
}

#[test]
fn a_compound_body_on_a_polyline_floor_is_judged_part_by_piece() {
    for scale in [METRES, PIXELS] {
        let mut world = l_on_a_polyline(scale);
        let (result, named) = names(&mut world, 150);
        assert_all_agree(scale.name, &result);
        assert!(named.iter().any(|n| n.starts_with("L/part ")), "{named:?}");
        assert!(
            named.iter().any(|n| n.starts_with("floor/segment ")),
            "{named:?}"
        );
        assert!(
            !named.contains("L") && !named.contains("floor"),
            "{named:?}"
        );
    }
}

#[test]
fn a_ball_over_a_heightfield_hill_and_a_box_on_a_trimesh_ramp_agree() {
    for scale in [METRES, PIXELS] {
        let mut world = World::new(scale, false).with_fresh_manifolds();
        let heights = vec![0.0, 0.1, 0.35, 0.5, 0.35, 0.1, 0.0, 0.0]
            .into_iter()
            .map(|h| scale.l(h) * if scale.y_down { -1.0 } else { 1.0 })
            .collect();
        let field = ColliderBuilder::heightfield(heights, Vector::new(scale.l(7.0), 1.0));
        world.fixed("hill", field, (0.0, 0.0), 0.0);
        let body = RigidBodyBuilder::dynamic()
            .translation(scale.p(-3.0, 0.4))
            .linvel(scale.v(3.0, 0.0));
        world.attach("ball", body, ColliderBuilder::ball(scale.l(0.2)));
        let ramp = vec![scale.v(0.0, 0.0), scale.v(2.0, 0.0), scale.v(2.0, 0.6)];
        // parry's 2D meshes take their triangles counter-clockwise: mirrored for pixels with
        // +y down, the order turns round. (Left clockwise, parry's contacts on the triangle
        // point into it and the box sinks through: 38 of 275 claims disagree, by up to 16 px.)
        let triangle = if scale.y_down { [0, 2, 1] } else { [0, 1, 2] };
        world.fixed(
            "ramp",
            ColliderBuilder::trimesh(ramp, vec![triangle]).expect("a valid mesh"),
            (4.0, -1.0),
            0.0,
        );
        world.fixed("ground", cuboid(&scale, 2.0, 0.2), (5.0, -1.2), 0.0);
        world.dynamic("box", cuboid(&scale, 0.2, 0.2), (5.3, 0.2), 0.0);
        let (result, named) = names(&mut world, 150);
        assert_all_agree(scale.name, &result);
        assert!(
            named.iter().any(|n| n.starts_with("hill/segment ")),
            "{named:?}"
        );
        assert!(
            named.iter().any(|n| n.starts_with("ramp/triangle ")),
            "{named:?}"
        );
    }
}
