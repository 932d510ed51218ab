//! Fuzz the shape-set file parser.
//!
//! 1. `scene::parse` must never panic: every input gives `Ok` or `Err`.
//! 2. When it gives `Ok(scene)`, `scene::to_json(&scene)` must parse again to an equal scene:
//!    every number the file holds (positions, angles, radii, a rounded polygon's radius,
//!    capsule and segment ends, polygon and chain points)
//!    bit-identical, names and kinds equal, the whole `Scene` `==`, and writing the re-read
//!    scene gives the same text again.

#![no_main]

use collidoscope::geometry::Shape;
use collidoscope::scene::{Scene, parse, to_json};
use libfuzzer_sys::fuzz_target;
use std::path::Path;

/// What a file stores of a shape, numbers as bits (so `-0.0` vs `0.0` and NaN count).
#[derive(Debug, PartialEq, Eq)]
struct Stored {
    name: Option<String>,
    kind: &'static str,
    position: [u64; 2],
    angle: u64,
    numbers: Vec<u64>,
}

fn stored(scene: &Scene) -> Vec<Stored> {
    scene
        .shapes
        .iter()
        .map(|s| {
            let pose = s.placed.pose;
            let numbers = match &s.placed.shape {
                Shape::Circle(c) => vec![c.radius().to_bits()],
                Shape::Capsule(c) => vec![
                    c.a().x.to_bits(),
                    c.a().y.to_bits(),
                    c.b().x.to_bits(),
                    c.b().y.to_bits(),
                    c.radius().to_bits(),
                ],
                // A rounded polygon's radius (version 4) first, then its points.
                Shape::Polygon(p) => std::iter::once(p.radius().to_bits())
                    .chain(
                        p.points_as_given()
                            .iter()
                            .flat_map(|q| [q.x.to_bits(), q.y.to_bits()]),
                    )
                    .collect(),
                Shape::Segment(s) => vec![
                    s.a().x.to_bits(),
                    s.a().y.to_bits(),
                    s.b().x.to_bits(),
                    s.b().y.to_bits(),
                ],
                Shape::Chain(c) => std::iter::once(u64::from(c.is_loop()))
                    .chain(
                        c.points()
                            .iter()
                            .flat_map(|q| [q.x.to_bits(), q.y.to_bits()]),
                    )
                    .collect(),
            };
            Stored {
                name: s.name.clone(),
                kind: s.placed.shape.kind().name(),
                position: [pose.position.x.to_bits(), pose.position.y.to_bits()],
                angle: pose.angle().to_bits(),
                numbers,
            }
        })
        .collect()
}

fuzz_target!(|data: &[u8]| {
    let path = Path::new("fuzz.json");
    let Ok(scene) = parse(path, data) else {
        return;
    };
    let text = to_json(&scene);
    let again = match parse(path, text.as_bytes()) {
        Ok(again) => again,
        Err(e) => panic!("to_json output does not parse again: {e}\n--- written ---\n{text}"),
    };
    assert_eq!(
        stored(&scene),
        stored(&again),
        "file numbers changed in a save/load round trip\n--- written ---\n{text}"
    );
    assert!(
        scene == again,
        "the re-read scene is not == the first (derived data differs)\n\
         first: {scene:?}\nagain: {again:?}\n--- written ---\n{text}"
    );
    assert_eq!(
        to_json(&again),
        text,
        "writing the re-read scene gives other text"
    );
});
