//! Fuzz `import --merge` (`collidoscope::import::merge_scaled`) on levels built from the
//! bytes: boxes on a grid (whole and half cells, so T-junctions and corner-only neighbours
//! happen), slopes, arbitrary small convex polygons, some of them moving, at a scale and offset
//! the first byte chooses (scales from 1e-303 to 3.2e7: 1, 32, 0.01 or 1e-3, times 1, 1e-12,
//! 1e6 or 1e-300). It must never panic; the merged set must read back as a shape set; the
//! loops of each group (outsides minus holes) must hold exactly the area of the polygons they
//! replaced; every polygon not merged must be kept as it was; and a level at the origin must
//! merge at its scale as the same level at scale 1 does (the same groups, loops and pieces).

#![no_main]

use collidoscope::geometry::{ConvexPolygon, DVec2, Placed, Pose, Shape};
use collidoscope::import::merge::{Merged, merge_scaled, signed_area};
use collidoscope::scene::{Body, Motion, Scene, SceneShape, parse, to_json};
use libfuzzer_sys::fuzz_target;
use std::path::Path;

/// The level the bytes describe, at `scale` and `offset`.
fn level(rest: &[u8], scale: f64, offset: f64) -> Scene {
    let at = |x: f64, y: f64| DVec2::new(offset + scale * x, offset + scale * y);
    let mut shapes = Vec::new();
    for (k, c) in rest.chunks_exact(5).take(64).enumerate() {
        let (x, y) = (f64::from(c[1] & 15), f64::from(c[2] & 15));
        let half = if c[0] & 0x10 != 0 { 0.5 } else { 1.0 };
        let (w, h) = (
            f64::from(1 + (c[3] & 3)) * half,
            f64::from(1 + (c[4] & 3)) * half,
        );
        let points = match c[0] & 3 {
            // A box.
            0 | 1 => vec![(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)],
            // A slope.
            2 => vec![(0.0, 0.0), (w, 0.0), (w, h)],
            // Any small convex polygon (refused when it is not one).
            _ => vec![
                (0.0, 0.0),
                (f64::from(c[3] >> 4) * half, f64::from(c[4] >> 4) * half),
                (w, h),
            ],
        };
        let world: Vec<DVec2> = points.iter().map(|(px, py)| at(x + px, y + py)).collect();
        let centre = world.iter().copied().sum::<DVec2>() / world.len() as f64;
        let local: Vec<DVec2> = world.iter().map(|p| *p - centre).collect();
        let Ok(polygon) = ConvexPolygon::new(local) else {
            continue;
        };
        let mut shape = SceneShape::named(&format!("t{k}"), Placed::new(polygon, Pose::at(centre)));
        if c[0] & 0x20 != 0 {
            shape.motion = Motion {
                body: Body::Dynamic,
                velocity: DVec2::new(1.0, 0.0),
                angular_velocity: 0.0,
            };
        }
        shapes.push(shape);
    }
    Scene::from_shapes(shapes)
}

/// What a merge decided: each group's shapes, loops and pieces, and the shapes kept.
fn decided(merged: &Merged) -> (Vec<(Vec<u32>, usize, usize)>, usize) {
    let groups = merged
        .groups
        .iter()
        .map(|g| {
            let ids = g.replaced.iter().map(|id| id.0).collect();
            (ids, g.loops.len(), g.pieces())
        })
        .collect();
    (groups, merged.kept.len())
}

fuzz_target!(|data: &[u8]| {
    let Some((&head, rest)) = data.split_first() else {
        return;
    };
    let scale = [1.0, 32.0, 0.01, 1e-3][(head & 3) as usize]
        * [1.0, 1e-12, 1e6, 1e-300][((head >> 4) & 3) as usize];
    let offset = [0.0, 1e4, -333.25, 5e6][((head >> 2) & 3) as usize];
    let scene = level(rest, scale, offset);
    let merged = merge_scaled(&scene, None, scale);
    let text = to_json(&merged.scene);
    if let Err(e) = parse(Path::new("merged.json"), text.as_bytes()) {
        panic!("a merged set does not read back: {e}\n{text}");
    }
    // Areas measured in the level's own numbers, times the power of two nearest 1 / scale
    // (exact): at 1e-300 an area vanishes, at 1e300 it overflows.
    let own = 2f64.powi(-scale.log2().round() as i32);
    let area_of = |s: &SceneShape| match &s.placed.shape {
        Shape::Polygon(p) => {
            let corners: Vec<DVec2> = p
                .points()
                .iter()
                .map(|q| s.placed.pose.apply(*q) * own)
                .collect();
            signed_area(&corners)
        }
        _ => 0.0,
    };
    for group in &merged.groups {
        let replaced: f64 = group
            .replaced
            .iter()
            .map(|id| area_of(scene.get(*id).unwrap()))
            .sum();
        let loops: f64 = group
            .loops
            .iter()
            .map(|c| signed_area(&c.points().iter().map(|p| *p * own).collect::<Vec<_>>()))
            .sum();
        let m = (offset.abs() * own + 20.0 * scale * own).max(1.0);
        assert!(
            (loops - replaced).abs() <= 1e-6 * m * m,
            "group {:?}: loops hold {loops}, its polygons {replaced}",
            group.name
        );
    }
    let replaced: Vec<_> = merged
        .groups
        .iter()
        .flat_map(|g| g.replaced.iter())
        .collect();
    for s in &scene.shapes {
        if !replaced.contains(&&s.id) {
            assert_eq!(
                merged.scene.get(s.id),
                Some(s),
                "{} changed",
                s.display_name(0)
            );
        }
    }
    if offset == 0.0 && scale != 1.0 {
        let one = merge_scaled(&level(rest, 1.0, 0.0), None, 1.0);
        assert_eq!(
            decided(&merged),
            decided(&one),
            "at scale {scale:e}, not as at scale 1"
        );
    }
});
