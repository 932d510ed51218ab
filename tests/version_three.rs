//! Version 3 of the shape-set file: segments, chains, `gravity` and `precision` read, checked
//! and written back exactly; every refusal docs/format.md lists, word for word.

use collidoscope::geometry::{DVec2, Shape, ShapeKind};
use collidoscope::scene::{self, Precision, Scene};
use std::path::Path;

const FILE: &str = "shapes/ground.json";

fn parse(text: &str) -> Scene {
    scene::parse(Path::new(FILE), text.as_bytes()).unwrap_or_else(|e| panic!("{e}"))
}

fn refuse(text: &str) -> String {
    scene::parse(Path::new(FILE), text.as_bytes())
        .expect_err("the file must be refused")
        .to_string()
}

fn v(version: u64, shapes: &str, rest: &str) -> String {
    format!(
        r#"{{"format": "collidoscope-shapes", "version": {version}, "shapes": [{shapes}]{rest}}}"#
    )
}

const GROUND: &str = r#"{"name": "ground", "kind": "chain", "points": [[5, 0], [4, 0], [3, 0], [2, 0], [1, 0], [0, 0], [-1, 0]]}"#;

#[test]
fn the_contracts_example_loads_and_round_trips_bit_for_bit() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("shapes/ghost-seam.json");
    let scene = scene::load(&path).unwrap();
    assert_eq!(scene.gravity, Some(DVec2::new(0.0, -10.0)));
    let kinds: Vec<ShapeKind> = scene.shapes.iter().map(|s| s.placed.shape.kind()).collect();
    assert_eq!(
        kinds,
        [ShapeKind::Chain, ShapeKind::Segment, ShapeKind::Polygon]
    );
    let Shape::Chain(tiles) = &scene.shapes[0].placed.shape else {
        unreachable!()
    };
    assert!(!tiles.is_loop());
    assert_eq!(tiles.piece_numbers(), 1..5);
    assert_eq!(scene.claims[0].reported.piece, Some(2));
    let text = scene::to_json(&scene);
    assert!(text.contains("\"version\": 3"));
    assert!(text.contains("\"gravity\": [0.0, -10.0]"), "{text}");
    let again = scene::parse(Path::new("again.json"), text.as_bytes()).unwrap();
    assert_eq!(again, scene);
}

#[test]
fn loops_precision_and_awkward_numbers_round_trip() {
    let text = v(
        3,
        r#"{"kind": "chain", "loop": true, "points": [[0.1, 0.2], [1e-300, -0.30000000000000004], [3, 1]]},
           {"kind": "segment", "position": [1, 2], "angle": -0.0, "a": [0, 0], "b": [0.1, 0]}"#,
        r#", "gravity": [0, -9.81], "precision": "f32""#,
    );
    let scene = parse(&text);
    assert_eq!(scene.precision, Some(Precision::F32));
    let Shape::Chain(c) = &scene.shapes[0].placed.shape else {
        unreachable!()
    };
    assert!(c.is_loop());
    assert_eq!(c.piece_numbers(), 0..3);
    let written = scene::to_json(&scene);
    assert!(written.contains("\"loop\":true"), "{written}");
    assert_eq!(parse(&written), scene);
}

#[test]
fn a_set_is_saved_in_the_lowest_version_that_holds_it() {
    let mut scene = parse(&v(3, r#"{"kind": "circle", "radius": 1}"#, ""));
    assert_eq!(scene.version_needed(), 1);
    scene.gravity = Some(DVec2::new(0.0, -10.0));
    assert_eq!(scene.version_needed(), 3);
    let segment = parse(&v(
        3,
        r#"{"kind": "segment", "a": [0, 0], "b": [1, 0]}"#,
        "",
    ));
    assert_eq!(segment.version_needed(), 3);
}

/// Every refusal of docs/format.md's version-3 list, word for word.
#[test]
fn every_malformed_segment_or_chain_is_refused_with_its_message() {
    let cases = [
        (
            v(
                3,
                r#"{"name": "ledge", "kind": "chain", "points": [[0, 0], [1, 0], [2, 0]]}"#,
                "",
            ),
            r#"shapes/ground.json: shape 0 "ledge" (chain): an open chain needs at least 4 points (its first and last points are ghost points only), found 3"#,
        ),
        (
            v(
                3,
                r#"{"name": "pen", "kind": "chain", "loop": true, "points": [[0, 0], [1, 0], [1, 1], [0, 1], [0, 0]]}"#,
                "",
            ),
            r#"shapes/ground.json: shape 0 "pen" (chain): points 4 and 0 are the same point [0, 0]: consecutive points must differ (a piece cannot have zero length)"#,
        ),
        (
            v(
                3,
                r#"{"kind": "circle", "radius": 1}, {"name": "floor", "kind": "segment", "a": [1, 2], "b": [1, 2]}"#,
                "",
            ),
            r#"shapes/ground.json: shape 1 "floor" (segment): a and b are the same point [1, 2]: a segment needs two distinct ends"#,
        ),
        (
            v(
                3,
                r#"{"kind": "circle", "radius": 1}, {"name": "floor", "kind": "segment", "a": [0, 0], "b": [1, 0], "radius": 0.1}"#,
                "",
            ),
            r#"shapes/ground.json: shape 1 "floor" (segment): unknown key "radius" (a segment has no radius; a capsule does)"#,
        ),
        (
            v(
                3,
                r#"{"name": "ground", "kind": "chain", "body": "dynamic", "points": [[3, 0], [2, 0], [1, 0], [0, 0]]}"#,
                "",
            ),
            r#"shapes/ground.json: shape 0 "ground" (chain): a chain is static geometry: it cannot have body "dynamic" or move"#,
        ),
        (
            v(
                2,
                r#"{"kind": "circle", "radius": 1}, {"kind": "circle", "radius": 1}, {"name": "plank", "kind": "segment", "a": [0, 0], "b": [1, 0]}"#,
                "",
            ),
            r#"shapes/ground.json: shape 2 "plank" (segment): kind "segment" needs version 3 (this file is version 2)"#,
        ),
        (
            v(
                3,
                &format!(r#"{GROUND}, {{"kind": "circle", "radius": 1}}"#),
                r#", "claims": [{"a": 0, "b": 1, "intersecting": false}]"#,
            ),
            r#"shapes/ground.json: claim 0: shape 0 "ground" (chain) is a chain: say which piece ("piece": 1 to 4)"#,
        ),
        (
            v(
                3,
                &format!(r#"{GROUND}, {{"kind": "circle", "radius": 1}}"#),
                r#", "claims": [{"a": 0, "b": 1, "piece": 9, "intersecting": false}]"#,
            ),
            r#"shapes/ground.json: claim 0: "piece": 9 is not a piece of shape 0 "ground" (chain) (its pieces are 1 to 4)"#,
        ),
    ];
    for (text, message) in cases {
        assert_eq!(refuse(&text), message);
    }
}

#[test]
fn other_refusals_name_the_place_and_the_problem() {
    let cases = [
        (
            v(
                3,
                r#"{"kind": "chain", "loop": "yes", "points": [[0, 0], [1, 0], [1, 1]]}"#,
                "",
            ),
            r#"shape 0 (chain): "loop" must be true or false, found a string "yes""#,
        ),
        (
            v(
                3,
                r#"{"kind": "chain", "loop": true, "points": [[0, 0], [1, 0]]}"#,
                "",
            ),
            "shape 0 (chain): a loop needs at least 3 points, found 2",
        ),
        (
            v(
                3,
                r#"{"kind": "segment", "a": [0, 0], "b": [1, 0], "velocity": [1, 0]}"#,
                "",
            ),
            "shape 0 (segment): a segment is static geometry",
        ),
        (
            v(
                3,
                r#"{"kind": "circle", "radius": 1}"#,
                r#", "precision": "f16""#,
            ),
            r#""precision" must be "f64" or "f32""#,
        ),
        (
            v(
                2,
                r#"{"kind": "circle", "radius": 1}"#,
                r#", "gravity": [0, -10]"#,
            ),
            r#"unknown key "gravity" at the top level (a version-3 key: this file says "version": 2)"#,
        ),
        (
            v(
                3,
                &format!(r#"{GROUND}, {GROUND}"#),
                r#", "claims": [{"a": 0, "b": 1, "piece": 1, "intersecting": false}]"#,
            ),
            "are both chains: two chains never collide",
        ),
        (
            v(
                3,
                r#"{"kind": "circle", "radius": 1}, {"kind": "circle", "radius": 1}"#,
                r#", "claims": [{"a": 0, "b": 1, "piece": 1, "intersecting": false}]"#,
            ),
            r#""piece": 1 is only for a pair with a chain"#,
        ),
        (
            v(5, r#""#, ""),
            "version 5 is not supported: this build reads versions 1 to 4",
        ),
    ];
    for (text, part) in cases {
        let message = refuse(&text);
        assert!(message.contains(part), "{message:?} lacks {part:?}");
    }
}
