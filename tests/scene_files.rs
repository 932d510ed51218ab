//! Shape-set files: exact round trips, atomic saves, and one refusal per kind of bad file,
//! each asserting the message a person would read.

mod common;

use collidoscope::geometry::{ConvexPolygon, Placed, Pose, Shape, Winding};
use collidoscope::scene::{self, Scene, SceneShape};
use common::*;
use proptest::prelude::*;
use std::path::Path;

fn refuse(text: &str) -> String {
    scene::parse(Path::new("shapes/broken.json"), text.as_bytes())
        .expect_err("the file must be refused")
        .to_string()
}

fn document(shapes: &str) -> String {
    format!(r#"{{"format": "collidoscope-shapes", "version": 1, "shapes": [{shapes}]}}"#)
}

#[test]
fn the_example_of_the_format_loads() {
    let text = r#"{
      "format": "collidoscope-shapes",
      "version": 1,
      "shapes": [
        { "name": "player", "kind": "circle",  "position": [2.0, 1.5], "radius": 0.5 },
        { "name": "rail",   "kind": "capsule", "position": [0.0, 0.0], "angle": 0.3,
          "a": [-2.0, 0.0], "b": [2.0, 0.0], "radius": 0.25 },
        { "name": "crate",  "kind": "polygon", "position": [4.0, 0.0], "angle": -0.7,
          "points": [[-1, -1], [1, -1], [1, 1], [-1, 1]] }
      ]
    }"#;
    let scene = scene::parse(Path::new("example.json"), text.as_bytes()).unwrap();
    assert_eq!(scene.shapes.len(), 3);
    assert_eq!(scene.shapes[1].name.as_deref(), Some("rail"));
    assert_eq!(scene.shapes[1].placed.pose.angle(), 0.3);
    assert_eq!(scene.shapes[2].placed.pose.position, v(4.0, 0.0));
}

#[test]
fn defaults_apply_and_unnamed_shapes_are_called_by_index() {
    let scene = scene::parse(
        Path::new("a.json"),
        document(r#"{"kind": "circle", "radius": 1}"#).as_bytes(),
    )
    .unwrap();
    let shape = &scene.shapes[0];
    assert_eq!(shape.name, None);
    assert_eq!(shape.placed.pose, Pose::IDENTITY);
    assert_eq!(shape.display_name(0), "#0");
}

#[test]
fn an_empty_shape_list_is_fine() {
    let scene = scene::parse(Path::new("a.json"), document("").as_bytes()).unwrap();
    assert!(scene.shapes.is_empty());
    let again = scene::parse(Path::new("a.json"), scene::to_json(&scene).as_bytes()).unwrap();
    assert_eq!(again, scene);
}

fn arb_scene() -> impl Strategy<Value = Scene> {
    prop::collection::vec((arb_placed(), any::<bool>(), any::<f64>()), 0..12).prop_map(|shapes| {
        Scene::from_shapes(
            shapes
                .into_iter()
                .enumerate()
                .map(|(i, (mut placed, named, jitter))| {
                    // Awkward numbers: every bit of the mantissa in use, and negative zero.
                    if jitter.is_finite() {
                        placed.pose.position.x += jitter.fract() * 1e-7;
                    }
                    if i % 5 == 4 {
                        placed.pose.set_angle(-0.0);
                    }
                    SceneShape::new(named.then(|| format!("shape \"{i}\" é")), placed)
                })
                .collect(),
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// Save then load gives bit-identical numbers, names and windings.
    #[test]
    fn save_then_load_is_exact(scene in arb_scene()) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("round.json");
        scene::save(&scene, &path).unwrap();
        let again = scene::load(&path).unwrap();
        prop_assert_eq!(again.shapes.len(), scene.shapes.len());
        for (x, y) in scene.shapes.iter().zip(&again.shapes) {
            prop_assert_eq!(&x.name, &y.name);
            prop_assert_eq!(x.placed.pose.position.x.to_bits(), y.placed.pose.position.x.to_bits());
            prop_assert_eq!(x.placed.pose.position.y.to_bits(), y.placed.pose.position.y.to_bits());
            prop_assert_eq!(x.placed.pose.angle().to_bits(), y.placed.pose.angle().to_bits());
            prop_assert_eq!(&x.placed.shape, &y.placed.shape);
        }
        // And saving again writes the very same text.
        prop_assert_eq!(scene::to_json(&again), scene::to_json(&scene));
    }
}

#[test]
fn a_clockwise_polygon_is_saved_clockwise() {
    let cw = vec![v(0.0, 0.0), v(0.0, 1.0), v(1.0, 1.0), v(1.0, 0.0)];
    let scene = Scene::from_shapes(vec![SceneShape::named(
        "cw",
        Placed::new(ConvexPolygon::new(cw.clone()).unwrap(), Pose::IDENTITY),
    )]);
    let text = scene::to_json(&scene);
    assert!(
        text.contains("[[0.0,0.0],[0.0,1.0],[1.0,1.0],[1.0,0.0]]"),
        "{text}"
    );
    let again = scene::parse(Path::new("a.json"), text.as_bytes()).unwrap();
    let Shape::Polygon(p) = &again.shapes[0].placed.shape else {
        panic!()
    };
    assert_eq!(p.winding(), Winding::Clockwise);
    assert_eq!(p.points_as_given(), cw);
}

#[test]
fn a_save_writes_one_shape_per_line() {
    let scene = Scene::from_shapes(vec![
        SceneShape::named("a", circle(1.0, v(0.0, 0.0))),
        SceneShape::named("b", circle(2.0, v(1.0, 0.0))),
    ]);
    let text = scene::to_json(&scene);
    assert_eq!(
        text,
        "{\n  \"format\": \"collidoscope-shapes\",\n  \"version\": 1,\n  \"shapes\": [\n    \
         {\"name\":\"a\",\"kind\":\"circle\",\"position\":[0.0,0.0],\"radius\":1.0},\n    \
         {\"name\":\"b\",\"kind\":\"circle\",\"position\":[1.0,0.0],\"radius\":2.0}\n  ]\n}\n"
    );
}

#[test]
fn saving_replaces_the_file_and_leaves_no_temporary() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("scene.json");
    std::fs::write(&path, "old").unwrap();
    let scene = Scene::from_shapes(vec![SceneShape::named("a", circle(1.0, v(0.0, 0.0)))]);
    scene::save(&scene, &path).unwrap();
    assert_eq!(scene::load(&path).unwrap(), scene);
    let names: Vec<_> = names_in(dir.path());
    assert_eq!(names, vec![std::ffi::OsString::from("scene.json")]);
}

#[test]
fn a_failed_save_leaves_the_old_file_intact_and_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("missing-folder").join("scene.json");
    let scene = Scene::default();
    let message = scene::save(&scene, &path).unwrap_err().to_string();
    assert!(
        message.starts_with(&format!("{}: cannot save: ", path.display())),
        "{message}"
    );

    // A folder that cannot be written to (root ignores permissions, so only check when not).
    use std::os::unix::fs::PermissionsExt;
    let locked = dir.path().join("locked");
    std::fs::create_dir(&locked).unwrap();
    let target = locked.join("scene.json");
    std::fs::write(&target, "precious").unwrap();
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o555)).unwrap();
    if std::fs::write(locked.join("probe"), "x").is_err() {
        let message = scene::save(&scene, &target).unwrap_err().to_string();
        assert!(message.contains("cannot save"), "{message}");
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "precious");
    }
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// A failure that happens even as root: the final rename onto a non-empty folder. The folder and
/// its content stay, and no temporary file is left beside it.
#[test]
fn a_save_that_fails_at_the_rename_leaves_everything_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("scene.json");
    std::fs::create_dir(&target).unwrap();
    std::fs::write(target.join("keep"), "precious").unwrap();
    let message = scene::save(&Scene::default(), &target)
        .unwrap_err()
        .to_string();
    assert!(
        message.starts_with(&format!("{}: cannot save: ", target.display())),
        "{message}"
    );
    assert_eq!(
        std::fs::read_to_string(target.join("keep")).unwrap(),
        "precious"
    );
    let names: Vec<_> = names_in(dir.path());
    assert_eq!(names, vec![std::ffi::OsString::from("scene.json")]);
}

#[test]
fn a_missing_file_is_named() {
    let message = scene::load(Path::new("no/such/file.json"))
        .unwrap_err()
        .to_string();
    assert!(
        message.starts_with("no/such/file.json: cannot read the file: "),
        "{message}"
    );
}

// One test per kind of bad file.

#[test]
fn empty_file() {
    assert_eq!(refuse(""), "shapes/broken.json: the file is empty");
    assert_eq!(refuse("  \n"), "shapes/broken.json: the file is empty");
}

#[test]
fn truncated_file() {
    assert_eq!(
        refuse("{\"format\": \"collidoscope-shapes\", \"version\": 1, \"shapes\": [{\"kind\""),
        "shapes/broken.json: line 1, column 66: EOF while parsing an object"
    );
}

#[test]
fn syntax_error_names_line_and_column() {
    assert_eq!(
        refuse("{\n  \"format\": \"collidoscope-shapes\",\n  \"version\": 1\n  \"shapes\": []\n}"),
        "shapes/broken.json: line 4, column 3: expected `,` or `}`"
    );
}

#[test]
fn binary_garbage() {
    let bytes = [0x7b, 0xff, 0xfe, 0x00, 0x12];
    let message = scene::parse(Path::new("shapes/broken.json"), &bytes)
        .unwrap_err()
        .to_string();
    assert_eq!(
        message,
        "shapes/broken.json: not UTF-8 text (a bad byte at offset 1)"
    );
}

#[test]
fn nan_is_not_json() {
    assert_eq!(
        refuse(&document(r#"{"kind": "circle", "radius": NaN}"#)),
        "shapes/broken.json: line 1, column 89: expected value"
    );
}

#[test]
fn a_number_too_large_for_f64() {
    assert_eq!(
        refuse(&document(r#"{"kind": "circle", "radius": 1e400}"#)),
        "shapes/broken.json: line 1, column 93: number out of range"
    );
}

#[test]
fn a_string_for_a_number() {
    assert_eq!(
        refuse(&document(
            r#"{"name": "wheel", "kind": "circle", "radius": "1.5"}"#
        )),
        "shapes/broken.json: shape 0 \"wheel\" (circle): \"radius\" must be a number, found a string \"1.5\""
    );
}

#[test]
fn a_point_with_three_coordinates() {
    assert_eq!(
        refuse(&document(
            r#"{"kind": "circle", "position": [1, 2, 3], "radius": 1}"#
        )),
        "shapes/broken.json: shape 0 (circle): \"position\" must be [x, y] (two numbers), found 3 numbers"
    );
    assert_eq!(
        refuse(&document(
            r#"{"name": "hull", "kind": "polygon", "points": [[0, 0], [1, 0, 5], [0, 1]]}"#
        )),
        "shapes/broken.json: shape 0 \"hull\" (polygon): point 1 must be [x, y] (two numbers), found 3 numbers"
    );
}

#[test]
fn an_unknown_kind() {
    assert_eq!(
        refuse(&document(
            r#"{"name": "t", "kind": "triangle", "points": []}"#
        )),
        "shapes/broken.json: shape 0 \"t\": \"kind\" must be \"circle\", \"capsule\", \"polygon\", \"segment\" or \"chain\", found \"triangle\""
    );
}

#[test]
fn an_unknown_key_is_named_with_the_likely_one() {
    assert_eq!(
        refuse(&document(
            r#"{"kind": "circle", "radius": 1}, {"name": "wall", "kind": "capsule", "a": [0, 0], "b": [1, 0], "raduis": 1}"#
        )),
        "shapes/broken.json: shape 1 \"wall\" (capsule): unknown key \"raduis\" (did you mean \"radius\"?)"
    );
    assert_eq!(
        refuse(r#"{"format": "collidoscope-shapes", "version": 1, "shapes": [], "colour": "red"}"#),
        "shapes/broken.json: unknown key \"colour\" at the top level"
    );
    // A key of another kind is unknown for this one.
    assert_eq!(
        refuse(&document(
            r#"{"kind": "circle", "radius": 1, "points": []}"#
        )),
        "shapes/broken.json: shape 0 (circle): unknown key \"points\""
    );
}

#[test]
fn missing_fields() {
    assert_eq!(
        refuse(&document(r#"{"name": "c", "kind": "circle"}"#)),
        "shapes/broken.json: shape 0 \"c\" (circle): missing key \"radius\""
    );
    assert_eq!(
        refuse(&document(r#"{"name": "c", "radius": 1}"#)),
        "shapes/broken.json: shape 0 \"c\": missing key \"kind\" (\"circle\", \"capsule\", \"polygon\", \"segment\" or \"chain\")"
    );
    assert_eq!(
        refuse(&document(
            r#"{"kind": "capsule", "a": [0, 0], "radius": 1}"#
        )),
        "shapes/broken.json: shape 0 (capsule): missing key \"b\""
    );
    assert_eq!(
        refuse(r#"{"format": "collidoscope-shapes", "version": 1}"#),
        "shapes/broken.json: missing key \"shapes\""
    );
}

#[test]
fn wrong_format_or_version() {
    assert_eq!(
        refuse(r#"{"format": "svg", "version": 1, "shapes": []}"#),
        "shapes/broken.json: \"format\" must be \"collidoscope-shapes\", found a string \"svg\""
    );
    assert_eq!(
        refuse(r#"{"version": 1, "shapes": []}"#),
        "shapes/broken.json: missing key \"format\" (a shape-set file says \"format\": \"collidoscope-shapes\")"
    );
    assert_eq!(
        refuse(r#"{"format": "collidoscope-shapes", "version": 5, "shapes": []}"#),
        "shapes/broken.json: version 5 is not supported: this build reads versions 1 to 4"
    );
    assert_eq!(
        refuse("[1, 2]"),
        "shapes/broken.json: expected a JSON object with \"format\", \"version\" and \"shapes\", found an array [1,2]"
    );
}

#[test]
fn radius_not_positive() {
    assert_eq!(
        refuse(&document(
            r#"{"kind": "circle", "radius": 1}, {"kind": "circle", "radius": 1}, {"name": "wall", "kind": "capsule", "a": [0, 0], "b": [1, 0], "radius": -1}"#
        )),
        "shapes/broken.json: shape 2 \"wall\" (capsule): radius must be > 0, found -1"
    );
    assert_eq!(
        refuse(&document(r#"{"kind": "circle", "radius": 0}"#)),
        "shapes/broken.json: shape 0 (circle): radius must be > 0, found 0"
    );
}

#[test]
fn concave_polygon() {
    assert_eq!(
        refuse(&document(
            r#"{"name": "hull", "kind": "polygon", "points": [[0, 0], [4, 0], [4, 4], [2, 1], [0, 4]]}"#
        )),
        "shapes/broken.json: shape 0 \"hull\" (polygon): not convex at point 3 (turns the other way)"
    );
}

#[test]
fn self_intersecting_polygon() {
    assert_eq!(
        refuse(&document(
            r#"{"name": "bow", "kind": "polygon", "points": [[0, 0], [2, 2], [2, 0], [0, 2]]}"#
        )),
        "shapes/broken.json: shape 0 \"bow\" (polygon): self-intersecting (edge 0 crosses edge 2)"
    );
}

#[test]
fn collinear_polygon() {
    assert_eq!(
        refuse(&document(
            r#"{"kind": "polygon", "points": [[0, 0], [1, 1], [3, 3]]}"#
        )),
        "shapes/broken.json: shape 0 (polygon): zero area (all points are collinear)"
    );
}

#[test]
fn repeated_points() {
    assert_eq!(
        refuse(&document(
            r#"{"kind": "polygon", "points": [[0, 0], [1, 0], [1, 1], [1, 0]]}"#
        )),
        "shapes/broken.json: shape 0 (polygon): point 3 repeats point 1"
    );
}

#[test]
fn fewer_than_three_points() {
    assert_eq!(
        refuse(&document(
            r#"{"kind": "polygon", "points": [[0, 0], [1, 0]]}"#
        )),
        "shapes/broken.json: shape 0 (polygon): a polygon needs at least 3 points, found 2"
    );
}

#[test]
fn a_bad_shape_refuses_the_whole_file() {
    // Shapes 0 and 1 are fine; nothing of the file is returned.
    let text = document(
        r#"{"kind": "circle", "radius": 1}, {"kind": "circle", "radius": 2}, {"kind": "circle", "radius": -2}"#,
    );
    assert!(scene::parse(Path::new("a.json"), text.as_bytes()).is_err());
}

#[test]
fn a_point_on_a_straight_edge_is_allowed() {
    let text = document(r#"{"kind": "polygon", "points": [[0, 0], [1, 0], [2, 0], [1, 1]]}"#);
    assert!(scene::parse(Path::new("a.json"), text.as_bytes()).is_ok());
}

/// A static shape with a velocity of -0.0 (read as itself, so written as itself) makes the file
/// version 2: saved as version 1 it would carry a key version 1 refuses.
#[test]
fn a_negative_zero_velocity_is_saved_in_a_version_that_reads_it_back() {
    let text = r#"{"format": "collidoscope-shapes", "version": 2, "shapes": [
      {"kind": "circle", "radius": 1, "velocity": [-0.0, 0]}]}"#;
    let scene = scene::parse(std::path::Path::new("z.json"), text.as_bytes()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("z.json");
    scene::save(&scene, &path).unwrap();
    let again = scene::load(&path).unwrap_or_else(|e| panic!("{e}"));
    let v = again.shapes[0].motion.velocity;
    assert_eq!((v.x.to_bits(), v.y.to_bits()), ((-0.0f64).to_bits(), 0));
}

/// Issue 40: a polygon and a circle near 1e308 loaded, then `query` said "distance inf,
/// closest (NaN, 1e308)" and `fixture` wrote `null`. A shape that, placed, reaches beyond the
/// largest finite number is refused at load, naming it and the field.
#[test]
fn a_shape_that_overflows_once_placed_is_refused_by_name() {
    let message = refuse(&document(
        r#"{"name": "far", "kind": "polygon", "position": [1.75e308, 0], "points": [[-1e307, -1e307], [1e307, -1e307], [1e307, 1e307], [-1e307, 1e307]]},
           {"name": "ball", "kind": "circle", "position": [1e308, 0], "radius": 1}"#,
    ));
    assert!(
        message.contains("shape 0 \"far\" (polygon)")
            && message.contains("\"position\"")
            && message.contains("reaches beyond the largest finite number"),
        "{message}"
    );
    // Far out but finite once placed: read as it is.
    let text =
        document(r#"{"name": "ball", "kind": "circle", "position": [1e308, 0], "radius": 1}"#);
    scene::parse(Path::new("far.json"), text.as_bytes()).unwrap();
}

/// A number that is not finite is never written as `null` (which the reader then refuses):
/// `save` refuses, naming where, and leaves no file.
#[test]
fn a_scene_with_a_number_that_is_not_finite_is_not_saved() {
    use collidoscope::scene::{Claim, save};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nan.json");
    let mut scene = Scene::from_shapes(vec![
        SceneShape::new(
            None,
            Placed::new(
                collidoscope::geometry::Circle::new(1.0).unwrap(),
                Pose::at(collidoscope::geometry::DVec2::ZERO),
            ),
        ),
        SceneShape::new(
            None,
            Placed::new(
                collidoscope::geometry::Circle::new(1.0).unwrap(),
                Pose::at(collidoscope::geometry::DVec2::X),
            ),
        ),
    ]);
    let (a, b) = (scene.shapes[0].id, scene.shapes[1].id);
    scene.claims.push(Claim::intersecting(
        a,
        b,
        f64::NAN,
        collidoscope::geometry::DVec2::X,
    ));
    let refused = save(&scene, &path).unwrap_err().to_string();
    assert!(
        refused.contains("nan.json")
            && refused.contains("cannot save: claim 0 is not a finite number"),
        "{refused}"
    );
    assert!(!path.exists());
    scene.claims[0].reported.depth = Some(1.0);
    save(&scene, &path).unwrap();
    assert!(collidoscope::scene::load(&path).is_ok());
}

/// An unknown key of 2,000,000 characters in a shape set is named by its first 60 characters
/// and its length, at the top level, in a shape and in a pair (issue 60).
#[test]
fn a_huge_unknown_key_is_named_by_its_start_and_length() {
    let key = "k".repeat(2_000_000);
    let shown = format!("unknown key \"{}\"... (2000000 characters)", "k".repeat(60));
    let circle = r#"{"kind": "circle", "position": [0, 0], "radius": 1}"#;
    let cases = [
        document(circle).replace("\"shapes\"", &format!("\"{key}\": 1, \"shapes\"")),
        document(&circle.replace("\"radius\"", &format!("\"{key}\": 1, \"radius\""))),
    ];
    for text in cases {
        let said = refuse(&text);
        assert!(said.contains(&shown), "{}", &said[..said.len().min(300)]);
        assert!(said.len() < 400, "{} characters", said.len());
    }
    // A short key is quoted whole, and a typo of a known one still suggested.
    assert!(
        refuse(&document(&circle.replace("\"radius\"", "\"raduis\"")))
            .contains("unknown key \"raduis\" (did you mean \"radius\"?)")
    );
}
