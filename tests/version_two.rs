//! Version 2 of the shape-set file: motion, claims and expectations read, checked and written
//! back exactly; a set without any of them is still saved as version 1.

use collidoscope::geometry::DVec2;
use collidoscope::scene::{self, Body, Scene, ShapeId};
use std::path::Path;

fn parse(text: &str) -> Scene {
    scene::parse(Path::new("v2.json"), text.as_bytes()).expect("the file loads")
}

fn refuse(text: &str) -> String {
    scene::parse(Path::new("v2.json"), text.as_bytes())
        .expect_err("the file must be refused")
        .to_string()
}

const FORMAT_EXAMPLE: &str = r#"{
  "format": "collidoscope-shapes",
  "version": 2,
  "shapes": [
    { "name": "wall", "kind": "polygon", "points": [[-0.1, -2], [0.1, -2], [0.1, 2], [-0.1, 2]] },
    { "name": "ball", "kind": "circle", "position": [-5, 0], "radius": 0.5,
      "body": "dynamic", "velocity": [100, 0], "angular_velocity": 0 }
  ],
  "claims": [
    { "a": 0, "b": 1, "intersecting": true, "depth": 0.2, "normal": [-1, 0] }
  ]
}"#;

fn v2(shapes: &str, rest: &str) -> String {
    format!(r#"{{"format": "collidoscope-shapes", "version": 2, "shapes": [{shapes}]{rest}}}"#)
}

const TWO: &str =
    r#"{"kind": "circle", "radius": 1}, {"kind": "circle", "position": [1.5, 0], "radius": 1}"#;

#[test]
fn the_example_of_the_format_loads() {
    let scene = parse(FORMAT_EXAMPLE);
    let ball = &scene.shapes[1];
    assert_eq!(ball.motion.body, Body::Dynamic);
    assert_eq!(ball.motion.velocity, DVec2::new(100.0, 0.0));
    assert_eq!(scene.shapes[0].motion.body, Body::Static);
    assert_eq!(scene.claims.len(), 1);
    let claim = &scene.claims[0];
    assert_eq!((claim.a, claim.b), (ShapeId(0), ShapeId(1)));
    assert!(claim.reported.intersecting);
    assert_eq!(claim.reported.depth, Some(0.2));
    assert_eq!(claim.reported.normal, Some(DVec2::new(-1.0, 0.0)));
    assert_eq!(scene.expect, None);
}

#[test]
fn version_two_round_trips_bit_for_bit() {
    let text = v2(
        r#"{"kind": "circle", "radius": 0.1, "body": "kinematic", "velocity": [0.1, -0.30000000000000004], "angular_velocity": 1e-300},
           {"kind": "capsule", "a": [0, 0], "b": [1, 0], "radius": 0.2, "body": "dynamic"}"#,
        r#", "claims": [{"a": 1, "b": 0, "intersecting": false, "distance": 0.5, "contacts": []}],
            "expect": [{"a": 0, "b": 1, "intersecting": false, "depth": 0, "normal": null,
                        "distance": 0.7, "closest": [[0.1, 0], [0.8, 0]], "contacts": []}],
            "tolerance": 1e-7"#,
    );
    let scene = parse(&text);
    let written = scene::to_json(&scene);
    assert!(written.contains("\"version\": 2"), "{written}");
    let again = parse(&written);
    assert_eq!(again, scene);
    assert_eq!(scene::to_json(&again), written);
}

#[test]
fn a_set_without_version_two_content_is_saved_as_version_one() {
    let text = v2(
        r#"{"kind": "circle", "radius": 1, "body": "static", "velocity": [0, 0]}"#,
        "",
    );
    let written = scene::to_json(&parse(&text));
    assert!(written.contains("\"version\": 1"), "{written}");
    assert!(!written.contains("body"), "{written}");
}

#[test]
fn a_static_body_that_moves_is_refused() {
    assert_eq!(
        refuse(&v2(
            r#"{"name": "rock", "kind": "circle", "radius": 1, "velocity": [1, 0]}"#,
            ""
        )),
        "v2.json: shape 0 \"rock\" (circle): a static body cannot move, but it has velocity [1, 0] and angular_velocity 0: say \"body\": \"kinematic\" or \"dynamic\", or remove the velocity"
    );
    assert!(
        refuse(&v2(
            r#"{"kind": "circle", "radius": 1, "angular_velocity": 2}"#,
            ""
        ))
        .contains("a static body cannot move")
    );
    assert_eq!(
        refuse(&v2(
            r#"{"kind": "circle", "radius": 1, "body": "frozen"}"#,
            ""
        )),
        "v2.json: shape 0 (circle): \"body\" must be \"static\", \"kinematic\" or \"dynamic\", found \"frozen\""
    );
}

#[test]
fn version_two_keys_in_a_version_one_file_say_which_version_they_need() {
    let v1 = |shapes: &str, rest: &str| {
        format!(r#"{{"format": "collidoscope-shapes", "version": 1, "shapes": [{shapes}]{rest}}}"#)
    };
    assert_eq!(
        refuse(&v1(
            r#"{"kind": "circle", "radius": 1, "body": "dynamic"}"#,
            ""
        )),
        "v2.json: shape 0 (circle): unknown key \"body\" (a version-2 key: this file says \"version\": 1)"
    );
    assert_eq!(
        refuse(&v1("", r#", "claims": []"#)),
        "v2.json: unknown key \"claims\" at the top level (a version-2 key: this file says \"version\": 1)"
    );
}

#[test]
fn bad_claims_name_the_claim_and_the_problem() {
    let cases = [
        (
            r#"[{"a": 0, "b": 1, "intersecting": true, "depth": -1, "normal": [1, 0]}]"#,
            "claim 0 (shapes 0 and 1): \"depth\" must be > 0, found -1",
        ),
        (
            r#"[{"a": 0, "b": 1, "intersecting": true, "depth": 1}]"#,
            "claim 0 (shapes 0 and 1): an intersecting claim needs \"normal\" (unit, from A toward B)",
        ),
        (
            r#"[{"a": 0, "b": 1, "intersecting": true, "depth": 1, "normal": [1, 1]}]"#,
            "claim 0 (shapes 0 and 1): \"normal\" must be a unit vector (from A toward B), found [1, 1] of length 1.4142135623730951",
        ),
        (
            r#"[{"a": 0, "b": 0, "intersecting": false}]"#,
            "claim 0 (shapes 0 and 0): \"a\" and \"b\" are both shape 0: a pair needs two shapes",
        ),
        (
            r#"[{"a": 0, "b": 5, "intersecting": false}]"#,
            "claim 0 (shapes 0 and 5): \"b\" is shape 5, but the file has 2 shapes",
        ),
        (
            r#"[{"a": 0, "b": 1, "intersecting": false, "dpeth": 1}]"#,
            "claim 0 (shapes 0 and 1): unknown key \"dpeth\" (did you mean \"depth\"?)",
        ),
        (
            r#"[{"a": 0, "b": 1}]"#,
            "claim 0 (shapes 0 and 1): missing key \"intersecting\"",
        ),
        (
            r#"{"a": 0}"#,
            "\"claims\" must be an array of claim objects, found an object {\"a\":0}",
        ),
    ];
    for (claims, message) in cases {
        let text = v2(TWO, &format!(r#", "claims": {claims}"#));
        assert_eq!(refuse(&text), format!("v2.json: {message}"), "{claims}");
    }
    // Rounded decimals from a log are fine: the direction is what is compared.
    let text = v2(
        TWO,
        r#", "claims": [{"a": 0, "b": 1, "intersecting": true, "depth": 0.5, "normal": [0.707, 0.707]}]"#,
    );
    assert_eq!(parse(&text).claims.len(), 1);
}

#[test]
fn bad_expectations_and_tolerance_are_refused() {
    let text = v2(
        TWO,
        r#", "expect": [{"a": 0, "b": 1, "intersecting": true, "depth": 0.5}]"#,
    );
    assert_eq!(
        refuse(&text),
        "v2.json: expected result 0 (shapes 0 and 1): missing key \"normal\" (an expected result has every key `query --json` prints)"
    );
    let text = v2(TWO, r#", "tolerance": -1"#);
    assert_eq!(
        refuse(&text),
        "v2.json: \"tolerance\" must be a number >= 0, found -1"
    );
}

#[test]
fn removing_a_shape_drops_the_claims_about_it_and_renumbers_the_rest() {
    let text = v2(
        &format!(r#"{TWO}, {{"kind": "circle", "position": [9, 0], "radius": 1}}"#),
        r#", "claims": [{"a": 0, "b": 1, "intersecting": false}, {"a": 1, "b": 2, "intersecting": false}]"#,
    );
    let mut scene = parse(&text);
    scene.remove(ShapeId(0));
    assert_eq!(scene.claims.len(), 1);
    let written = scene::to_json(&scene);
    assert!(
        written.contains(r#"{"a":0,"b":1,"intersecting":false}"#),
        "{written}"
    );
}
