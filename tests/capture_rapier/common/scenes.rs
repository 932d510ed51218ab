//! The four scenes, each placeable at either scale.

use super::{Scale, World, cuboid};
use rapier2d::prelude::*;

/// A scene: its name, how many steps to run it, and how to build it.
pub struct Scene {
    pub name: &'static str,
    pub steps: usize,
    pub build: fn(Scale, bool) -> World,
}

pub const ALL: [Scene; 4] = [
    Scene {
        name: "ramp",
        steps: 420,
        build: ramp,
    },
    Scene {
        name: "pyramid",
        steps: 360,
        build: pyramid,
    },
    Scene {
        name: "bowl",
        steps: 420,
        build: bowl,
    },
    Scene {
        name: "bullet",
        steps: 90,
        build: bullet,
    },
];

fn ground(world: &mut World) {
    let s = world.scale;
    world.fixed("ground", cuboid(&s, 12.0, 0.5), (0.0, -0.5), 0.0);
}

/// Three boxes sliding down a ramp (a fixed cuboid turned by -25 degrees) onto the ground.
pub fn ramp(scale: Scale, recycling: bool) -> World {
    let mut world = World::new(scale, recycling);
    ground(&mut world);
    let angle = (-25.0f32).to_radians();
    let (centre, half) = ((-5.0f32, 3.0f32), (4.5f32, 0.25f32));
    world.fixed(
        "ramp",
        cuboid(&scale, half.0, half.1).friction(0.2),
        centre,
        angle,
    );
    let (c, s) = (angle.cos(), angle.sin());
    for (i, along) in [-3.5f32, -1.5, 0.5].into_iter().enumerate() {
        // On the ramp's top face, 0.3 above it, turned with it.
        let up = half.1 + 0.5 + 0.3;
        let at = (centre.0 + c * along - s * up, centre.1 + s * along + c * up);
        world.dynamic(
            &format!("box {i}"),
            cuboid(&scale, 0.5, 0.5).friction(0.2),
            at,
            angle,
        );
    }
    world
}

/// A pyramid of ten boxes (rows of 4, 3, 2, 1) on the ground.
pub fn pyramid(scale: Scale, recycling: bool) -> World {
    let mut world = World::new(scale, recycling);
    ground(&mut world);
    let mut n = 0;
    for row in 0..4 {
        let count = 4 - row;
        for j in 0..count {
            let x = (j as f32 - (count as f32 - 1.0) / 2.0) * 1.05;
            let y = 0.5 + row as f32 * 1.0;
            world.dynamic(&format!("box {n}"), cuboid(&scale, 0.5, 0.5), (x, y), 0.0);
            n += 1;
        }
    }
    world
}

/// Capsules and balls dropped into a bowl: a fixed cuboid floor, a fixed cuboid wall turned
/// outward on the left, a fixed segment wall on the right and a fixed segment lip.
pub fn bowl(scale: Scale, recycling: bool) -> World {
    let mut world = World::new(scale, recycling);
    world.fixed("floor", cuboid(&scale, 3.0, 0.25), (0.0, -0.25), 0.0);
    world.fixed(
        "left wall",
        cuboid(&scale, 0.25, 2.5),
        (-3.6, 2.2),
        (-20.0f32).to_radians(),
    );
    let segment = |a: (f32, f32), b: (f32, f32)| {
        ColliderBuilder::segment(scale.v(a.0, a.1), scale.v(b.0, b.1))
    };
    // The segments' body sits at the origin of the scene: their ends are local to it.
    world.fixed(
        "right wall",
        segment((3.0, 0.0), (5.0, 4.5)),
        (0.0, 0.0),
        0.0,
    );
    world.fixed("lip", segment((5.0, 4.5), (6.5, 4.5)), (0.0, 0.0), 0.0);
    let capsule = |half: f32, r: f32| ColliderBuilder::capsule_y(scale.l(half), scale.l(r));
    let ball = |r: f32| ColliderBuilder::ball(scale.l(r));
    world.dynamic("capsule 0", capsule(0.4, 0.2), (-1.5, 3.0), 0.3);
    world.dynamic("capsule 1", capsule(0.3, 0.25), (0.2, 4.5), 1.2);
    world.dynamic("capsule 2", capsule(0.5, 0.15), (1.8, 6.0), -0.7);
    world.dynamic("ball 0", ball(0.3), (-0.6, 2.0), 0.0);
    world.dynamic("ball 1", ball(0.25), (1.0, 3.0), 0.0);
    world.dynamic("ball 2", ball(0.35), (2.9, 5.0), 0.0);
    world.dynamic("ball 3", ball(0.2), (-2.4, 5.5), 0.0);
    world
}

/// A small fast ball (CCD on) fired at a wall, and a second one fired down at an angle at the
/// ground.
pub fn bullet(scale: Scale, recycling: bool) -> World {
    let mut world = World::new(scale, recycling);
    ground(&mut world);
    world.fixed("wall", cuboid(&scale, 0.1, 3.0), (6.0, 3.0), 0.0);
    let fired = |at: (f32, f32), v: (f32, f32)| {
        RigidBodyBuilder::dynamic()
            .translation(scale.p(at.0, at.1))
            .linvel(scale.v(v.0, v.1))
            .ccd_enabled(true)
    };
    world.attach(
        "bullet",
        fired((-6.0, 2.0), (180.0, 0.0)),
        ColliderBuilder::ball(scale.l(0.05)),
    );
    world.attach(
        "bullet 2",
        fired((-4.0, 5.0), (60.0, -90.0)),
        ColliderBuilder::ball(scale.l(0.08)),
    );
    world
}
