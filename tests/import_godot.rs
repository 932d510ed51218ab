//! Godot 4 scenes imported (docs/format.md, "Import", "Godot 4 scenes"), on real scenes from
//! Godot's demo projects (tests/levels/godot/SOURCE.md). The expected values are worked out by
//! hand from the scene text: Godot's y-down pixels flipped, angles negated, transforms
//! composed parent first.

use collidoscope::geometry::{DVec2, Shape};
use collidoscope::import::{Convert, Imported, import};
use collidoscope::scene::SceneShape;
use std::path::Path;
use std::process::Command;

const WORLD: &str = "tests/levels/godot/kinematic_character/world.tscn";
const SHAPES: &str = "tests/levels/godot/physics_tests/tests/functional/test_shapes.tscn";
const BUCKET: &str =
    "tests/levels/godot/physics_tests/tests/functional/solver/bodies_in_bucket.tscn";

fn imported(path: &str, skip: bool) -> Imported {
    import(Path::new(path), Convert { scale: 1.0 }, skip).unwrap()
}

fn shape<'a>(set: &'a Imported, name: &str) -> &'a SceneShape {
    set.scene
        .shapes
        .iter()
        .find(|s| s.name.as_deref() == Some(name))
        .unwrap_or_else(|| panic!("no shape {name:?}"))
}

fn close(a: DVec2, b: DVec2) -> bool {
    (a - b).length() <= 1e-9
}

/// A polygon's corners in the world, in order.
fn corners(s: &SceneShape) -> Vec<DVec2> {
    let Shape::Polygon(p) = &s.placed.shape else {
        panic!("{:?} is not a polygon", s.name)
    };
    p.points().iter().map(|q| s.placed.pose.apply(*q)).collect()
}

#[test]
fn the_kinematic_character_world_imports_its_tiles_platforms_and_instanced_player() {
    let world = imported(WORLD, false);
    // The princess is an Area2D: a trigger, said so, and still imported as a shape.
    let notes: Vec<(&str, &str)> = world
        .notes
        .iter()
        .map(|n| (n.place.as_str(), n.what.as_str()))
        .collect();
    // Its four one-way platforms come whole, said so (collidoscope has no one-way shape).
    let one_way = collidoscope::text::GODOT_ONE_WAY_KEPT;
    assert_eq!(
        notes,
        [
            (
                "node \"Princess/Collision\" (CollisionShape2D)",
                "a trigger: its parent is an Area2D, which reports the bodies that enter it and stops none; imported as a solid shape"
            ),
            (
                "node \"OneWay1/CollisionShape2D\" (CollisionShape2D)",
                one_way
            ),
            (
                "node \"OneWay2/CollisionShape2D\" (CollisionShape2D)",
                one_way
            ),
            (
                "node \"OneWay3/CollisionShape2D\" (CollisionShape2D)",
                one_way
            ),
            (
                "node \"OneWay4/CollisionShape2D\" (CollisionShape2D)",
                one_way
            ),
        ]
    );
    assert_eq!(world.notes[0].shape.as_deref(), Some("Princess/Collision"));
    shape(&world, "Princess/Collision");
    let tiles = world
        .scene
        .shapes
        .iter()
        .filter(|s| {
            s.name
                .as_deref()
                .is_some_and(|n| n.starts_with("TileMapLayer["))
        })
        .count();
    assert_eq!(tiles, 288);
    // Cell (0, 0): the 16 px tile's square about the cell's centre (8, 8), y flipped.
    let cell = shape(&world, "TileMapLayer[0,0]/physics_layer_0/polygon_0");
    assert_eq!(cell.placed.pose.position, DVec2::new(8.0, -8.0));
    let mut c = corners(cell);
    c.sort_by(|p, q| p.x.total_cmp(&q.x).then(p.y.total_cmp(&q.y)));
    assert_eq!(
        c,
        [
            DVec2::new(0.0, -16.0),
            DVec2::new(0.0, 0.0),
            DVec2::new(16.0, -16.0),
            DVec2::new(16.0, 0.0)
        ]
    );
    // The player scene, instanced at (233.06, 223.436); its shape sits at (-0.315559,
    // 0.157784) in it: 14 x 14 about (232.744441, 223.593784), y flipped.
    let player = shape(&world, "Player/CollisionShape2D");
    assert!(close(
        player.placed.pose.position,
        DVec2::new(232.744441, -223.593784)
    ));
    // "Platform": position (257, 393), rotation -0.428054 rad (counter-clockwise on Godot's
    // screen), a 64 x 16 RectangleShape2D: collidoscope's angle is +0.428054.
    let platform = shape(&world, "Platform/CollisionShape2D");
    assert_eq!(platform.placed.pose.position, DVec2::new(257.0, -393.0));
    assert_eq!(platform.placed.pose.angle(), 0.428054);
    let (s, c) = 0.428054f64.sin_cos();
    let right_end = DVec2::new(257.0, -393.0) + DVec2::new(32.0 * c, 32.0 * s);
    let far = corners(platform)
        .iter()
        .map(|p| p.distance(right_end))
        .fold(f64::INFINITY, f64::min);
    assert!(
        far > 7.9 && far < 8.1,
        "a corner 8 from the right end's middle: {far}"
    );
}

#[test]
fn every_shape_kind_of_the_physics_tests_comes_through() {
    let set = imported(SHAPES, false);
    // CapsuleShape2D radius 20, height 70: the segment is 70/2 - 20 = 15 either side of the
    // node, along its local y.
    let capsule = shape(&set, "DynamicShapes/RigidBodyCapsule/CollisionShape2D");
    let Shape::Capsule(k) = &capsule.placed.shape else {
        panic!("a capsule")
    };
    assert_eq!(
        (k.a(), k.b(), k.radius()),
        (DVec2::new(0.0, 15.0), DVec2::new(0.0, -15.0), 20.0)
    );
    let sphere = shape(&set, "DynamicShapes/RigidBodySphere/CollisionShape2D");
    assert!(matches!(&sphere.placed.shape, Shape::Circle(c) if c.radius() == 30.0));
    // The concave CollisionPolygon2D: 7 convex pieces, a note saying so.
    let pieces: Vec<&SceneShape> = set
        .scene
        .shapes
        .iter()
        .filter(|s| {
            s.name.as_deref().is_some_and(|n| {
                n.starts_with("DynamicShapes/RigidBodyConcavePolygon/CollisionPolygon2D#")
            })
        })
        .collect();
    assert_eq!(pieces.len(), 7);
    assert_eq!(
        set.notes
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>(),
        [format!(
            "{SHAPES}: node \"DynamicShapes/RigidBodyConcavePolygon/CollisionPolygon2D\" (CollisionPolygon2D): split into 7 convex pieces"
        )]
    );
    // The static scene, instanced through res://, its polygon in segments mode: a closed
    // ring of 12 two-sided segments.
    let ring = set
        .scene
        .shapes
        .iter()
        .filter(|s| matches!(s.placed.shape, Shape::Segment(_)))
        .count();
    assert_eq!(ring, 12);
    assert_eq!(set.scene.version_needed(), 3);
}

#[test]
fn what_collidoscope_cannot_hold_is_refused_by_name_or_skipped_with_a_note() {
    let refused = import(Path::new(BUCKET), Convert { scale: 1.0 }, false).unwrap_err();
    assert_eq!(
        refused.to_string(),
        format!(
            "{BUCKET}: node \"StaticBody2D/CollisionShape2D\" (CollisionShape2D): WorldBoundaryShape2D has no collidoscope kind (pass --skip-unsupported to leave it out)"
        )
    );
    let skipped = imported(BUCKET, true);
    let notes: Vec<String> = skipped.notes.iter().map(ToString::to_string).collect();
    assert_eq!(
        notes[0],
        format!(
            "{BUCKET}: node \"CantileveredBeam/CollisionShape2D\" (CollisionShape2D): skipped: a rectangle of size 0 x 0: nothing to collide with"
        )
    );
    assert_eq!(notes.len(), 4);
}

#[test]
fn a_bad_scene_is_refused_naming_the_file_and_the_place() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path
    };
    let cases = [
        (
            write(
                "old.tscn",
                "[gd_scene load_steps=2 format=2]\n\n[node name=\"A\" type=\"Node2D\"]\n",
            ),
            "a Godot 3 scene (format=2): open and save it in Godot 4 first",
        ),
        (
            write(
                "broken.tscn",
                "[gd_scene format=3]\n\n[node name=\"A\" type=\"Node2D\"]\nposition = Vector2(1, \n",
            ),
            "line 5, column 1: expected a value, found the end of the file",
        ),
        (
            write("binary.scn", "RSRC\u{0}\u{0}"),
            "a binary scene: save the scene as .tscn",
        ),
        (
            write("resource.tscn", "[gd_resource type=\"TileSet\" format=3]\n"),
            "not a Godot scene: the first section is [gd_resource], not [gd_scene ...]",
        ),
        (
            write(
                "loop.tscn",
                "[gd_scene format=3]\n\n[ext_resource type=\"PackedScene\" path=\"loop.tscn\" id=\"1\"]\n\n[node name=\"A\" type=\"Node2D\"]\n\n[node name=\"B\" parent=\".\" instance=ExtResource(\"1\")]\n",
            ),
            "the scene instances itself",
        ),
        (
            write(
                "orphan.tscn",
                "[gd_scene format=3]\n\n[node name=\"A\" type=\"Node2D\"]\n\n[node name=\"B\" type=\"Node2D\" parent=\"Nowhere\"]\n",
            ),
            "line 5: [node]: node \"B\": its parent \"Nowhere\" is not in the scene",
        ),
    ];
    for (path, message) in cases {
        let e = import(&path, Convert { scale: 1.0 }, false)
            .unwrap_err()
            .to_string();
        assert!(e.starts_with(&path.display().to_string()), "{e}");
        assert!(e.contains(message), "{e}\nshould say: {message}");
    }
}

#[test]
fn the_command_writes_the_set_atomically_and_says_its_notes() {
    let bin = env!("CARGO_BIN_EXE_collidoscope");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("shapes.json");
    let run = Command::new(bin)
        .args(["import", SHAPES, "-o"])
        .arg(&out)
        .args(["--scale", "0.01"])
        .output()
        .unwrap();
    assert_eq!(
        run.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(String::from_utf8_lossy(&run.stderr).contains("split into 7 convex pieces"));
    let scene = collidoscope::scene::load(&out).unwrap();
    let sphere = scene
        .shapes
        .iter()
        .find(|s| s.name.as_deref() == Some("DynamicShapes/RigidBodySphere/CollisionShape2D"))
        .unwrap();
    assert!(matches!(&sphere.placed.shape, Shape::Circle(c) if (c.radius() - 0.3).abs() < 1e-15));
    // Refused: OUT left as it was.
    std::fs::write(&out, "kept").unwrap();
    let refused = Command::new(bin)
        .args(["import", BUCKET, "-o"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(1));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "kept");
    let usage = Command::new(bin)
        .args(["import", SHAPES, "--scale", "0"])
        .output()
        .unwrap();
    assert_eq!(usage.status.code(), Some(2));
    // -o naming the level itself: wrong usage, the level untouched.
    let level = dir.path().join("map.json");
    std::fs::copy(
        "tests/levels/tiled/pytiled/map_tests/template/map.json",
        &level,
    )
    .unwrap();
    let before = std::fs::read(&level).unwrap();
    let itself = Command::new(bin)
        .arg("import")
        .arg(&level)
        .arg("-o")
        .arg(&level)
        .output()
        .unwrap();
    assert_eq!(itself.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&itself.stderr).contains("is the level itself"));
    assert_eq!(std::fs::read(&level).unwrap(), before);
    assert_eq!(
        collidoscope::import::shape_set_path(&level),
        dir.path().join("map.shapes.json")
    );
    // -o naming a file the level reads (its tileset), or any other level: the same.
    let tiles = dir.path().join("tileset.json");
    std::fs::write(
        &tiles,
        r#"{"type": "tileset", "name": "t", "tilewidth": 16, "tileheight": 16}"#,
    )
    .unwrap();
    let tileset = Command::new(bin)
        .arg("import")
        .arg(&level)
        .arg("-o")
        .arg(&tiles)
        .output()
        .unwrap();
    assert_eq!(tileset.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&tileset.stderr).contains("is a level file"));
    assert!(collidoscope::import::is_level_file(&tiles));
    assert!(!collidoscope::import::is_level_file(&out));
}

mod generated {
    //! Scenes generated with random positions, rotations, scales (flips included) and skews,
    //! nested two deep: what import gives agrees with the shapes placed by a transform worked
    //! out here independently (3 x 3 matrices, Godot's formula for a node's transform).

    use collidoscope::geometry::{DVec2, Shape};
    use collidoscope::import::{Convert, import_bytes};
    use proptest::prelude::*;
    use std::path::Path;

    type M = [[f64; 3]; 3];

    fn node(p: DVec2, r: f64, s: DVec2, k: f64) -> M {
        // Godot: x axis (cos r, sin r)·sx, y axis (-sin(r+k), cos(r+k))·sy, origin p.
        [
            [r.cos() * s.x, -(r + k).sin() * s.y, p.x],
            [r.sin() * s.x, (r + k).cos() * s.y, p.y],
            [0.0, 0.0, 1.0],
        ]
    }

    fn mul(a: &M, b: &M) -> M {
        let mut m = [[0.0; 3]; 3];
        for i in 0..3 {
            for j in 0..3 {
                m[i][j] = (0..3).map(|k| a[i][k] * b[k][j]).sum();
            }
        }
        m
    }

    fn apply(m: &M, p: DVec2) -> DVec2 {
        DVec2::new(
            m[0][0] * p.x + m[0][1] * p.y + m[0][2],
            m[1][0] * p.x + m[1][1] * p.y + m[1][2],
        )
    }

    /// Source pixels to collidoscope at scale S.
    fn world(p: DVec2, s: f64) -> DVec2 {
        DVec2::new(s * p.x, -s * p.y)
    }

    #[derive(Clone, Debug)]
    struct Parts {
        position: (f64, f64),
        rotation: f64,
        scale: (f64, f64),
        skew: f64,
    }

    fn parts(uniform: bool) -> impl Strategy<Value = Parts> {
        (
            (-500.0f64..500.0, -500.0f64..500.0),
            -7.0f64..7.0,
            (0.25f64..3.0, 0.25f64..3.0, any::<bool>(), any::<bool>()),
            -0.6f64..0.6,
        )
            .prop_map(move |(position, rotation, (sx, sy, fx, fy), skew)| {
                let (sx, sy, skew) = if uniform {
                    (sx, sx, 0.0)
                } else {
                    (if fx { -sx } else { sx }, if fy { -sy } else { sy }, skew)
                };
                Parts {
                    position,
                    rotation,
                    scale: (sx, sy),
                    skew,
                }
            })
    }

    fn props(p: &Parts) -> String {
        format!(
            "position = Vector2({:?}, {:?})\nrotation = {:?}\nscale = Vector2({:?}, {:?})\nskew = {:?}\n",
            p.position.0, p.position.1, p.rotation, p.scale.0, p.scale.1, p.skew
        )
    }

    fn matrix(p: &Parts) -> M {
        node(
            DVec2::new(p.position.0, p.position.1),
            p.rotation,
            DVec2::new(p.scale.0, p.scale.1),
            p.skew,
        )
    }

    /// The scene: a root at `root`, a body at `body` under it, and under the body a
    /// rectangle, a convex polygon and a segment at `shape` (any transform), and a circle and
    /// a capsule at `round` (rotation and one scale only).
    fn scene(root: &Parts, body: &Parts, shape: &Parts, round: &Parts) -> String {
        format!(
            r#"[gd_scene format=3]

[sub_resource type="RectangleShape2D" id="rect"]
size = Vector2(40, 10)

[sub_resource type="ConvexPolygonShape2D" id="hull"]
points = PackedVector2Array(0, -12, 10, 4, -9, 6)

[sub_resource type="SegmentShape2D" id="seg"]
a = Vector2(-20, 3)
b = Vector2(25, -7)

[sub_resource type="CircleShape2D" id="ball"]
radius = 7.5

[sub_resource type="CapsuleShape2D" id="pill"]
radius = 6.0
height = 30.0

[node name="Root" type="Node2D"]
{root}
[node name="Body" type="StaticBody2D" parent="."]
{body}
[node name="Rect" type="CollisionShape2D" parent="Body"]
shape = SubResource("rect")
{shape}
[node name="Hull" type="CollisionShape2D" parent="Body"]
shape = SubResource("hull")
{shape}
[node name="Seg" type="CollisionShape2D" parent="Body"]
shape = SubResource("seg")
{shape}
[node name="Ball" type="CollisionShape2D" parent="Body"]
shape = SubResource("ball")
{round}
[node name="Pill" type="CollisionShape2D" parent="Body"]
shape = SubResource("pill")
{round}
"#,
            root = props(root),
            body = props(body),
            shape = props(shape),
            round = props(round),
        )
    }

    fn near(a: DVec2, b: DVec2, extent: f64) -> bool {
        (a - b).length() <= 1e-9 * extent.max(1.0)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn imported_shapes_land_where_the_transforms_put_them(
            root in parts(false),
            body in parts(false),
            shape in parts(false),
            round in parts(true),
            (upright_root, upright_body) in (parts(true), parts(true)),
            mirrored in any::<bool>(),
            scale in prop_oneof![Just(1.0), Just(0.01), Just(1.0 / 64.0)],
        ) {
            // The round shapes keep their kind only under rotations and one scale all the way
            // down: the root and body are such too in half the cases.
            let (root, body) = if mirrored { (root, body) } else { (upright_root, upright_body) };
            let text = scene(&root, &body, &shape, &round);
            let set = import_bytes(Path::new("generated.tscn"), text.as_bytes(), Convert { scale }, true)
                .map_err(|e| TestCaseError::fail(e.to_string()))?;
            let up = mul(&matrix(&root), &matrix(&body));
            let extent = 2000.0 * 27.0 * scale;
            let named = |n: &str| set.scene.shapes.iter().find(|s| s.name.as_deref() == Some(n));
            let at = |m: &M, p: (f64, f64)| world(apply(m, DVec2::new(p.0, p.1)), scale);
            let flat = mul(&up, &matrix(&shape));
            // Rectangle and hull: every corner where the transform puts it.
            for (name, corners) in [
                ("Body/Rect", vec![(-20.0, -5.0), (20.0, -5.0), (20.0, 5.0), (-20.0, 5.0)]),
                ("Body/Hull", vec![(0.0, -12.0), (10.0, 4.0), (-9.0, 6.0)]),
            ] {
                let s = named(name).expect(name);
                let Shape::Polygon(p) = &s.placed.shape else { panic!("{name} is a polygon") };
                let got: Vec<DVec2> = p.points().iter().map(|q| s.placed.pose.apply(*q)).collect();
                for c in corners {
                    let want = at(&flat, c);
                    prop_assert!(got.iter().any(|g| near(*g, want, extent)), "{name}: {want} not in {got:?}");
                }
            }
            let s = named("Body/Seg").expect("segment");
            let Shape::Segment(k) = &s.placed.shape else { panic!("a segment") };
            let ends = [s.placed.pose.apply(k.a()), s.placed.pose.apply(k.b())];
            prop_assert!(near(ends[0], at(&flat, (-20.0, 3.0)), extent));
            prop_assert!(near(ends[1], at(&flat, (25.0, -7.0)), extent));
            let round_m = mul(&up, &matrix(&round));
            let scale_of = (round_m[0][0].powi(2) + round_m[1][0].powi(2)).sqrt();
            let ball = named("Body/Ball").expect("ball");
            match &ball.placed.shape {
                Shape::Circle(c) => {
                    prop_assert!(!mirrored || root.skew == 0.0);
                    prop_assert!(near(ball.placed.pose.position, at(&round_m, (0.0, 0.0)), extent));
                    prop_assert!((c.radius() - 7.5 * scale_of * scale).abs() <= 1e-9 * extent);
                }
                // Under a stretch, skew or mirror: the 32 points of the circle, transformed.
                Shape::Polygon(p) => {
                    prop_assert!(mirrored);
                    let got: Vec<DVec2> = p.points().iter().map(|q| ball.placed.pose.apply(*q)).collect();
                    let want = at(&round_m, (7.5, 0.0));
                    prop_assert!(got.iter().any(|g| near(*g, want, extent)), "{want} not in {got:?}");
                }
                other => prop_assert!(false, "{other:?}"),
            }
            if let Some(pill) = named("Body/Pill") {
                let Shape::Capsule(k) = &pill.placed.shape else { panic!("a capsule") };
                let ends = [pill.placed.pose.apply(k.a()), pill.placed.pose.apply(k.b())];
                prop_assert!(near(ends[0], at(&round_m, (0.0, -9.0)), extent));
                prop_assert!(near(ends[1], at(&round_m, (0.0, 9.0)), extent));
                prop_assert!((k.radius() - 6.0 * scale_of * scale).abs() <= 1e-9 * extent);
            } else {
                // Left out (a note): a capsule under a stretch, skew or mirror.
                prop_assert!(mirrored);
                prop_assert!(set.notes.iter().any(|n| n.place.contains("Body/Pill")));
            }
        }
    }
}

#[test]
fn every_per_object_refusal_stops_the_import_or_is_a_note_when_skipped() {
    // Small scenes written for this test, one refusal each (tests/levels/godot/refused).
    let cases = [
        (
            "tilemap",
            "node \"Map\" (TileMap)",
            "a TileMap node (Godot 4.0 to 4.2): open the scene in Godot 4.3 or later, which turns it into TileMapLayer nodes, and save it",
        ),
        (
            "ray",
            "node \"Ray\" (CollisionShape2D)",
            "SeparationRayShape2D has no collidoscope kind",
        ),
        (
            "nosub",
            "node \"Box\" (CollisionShape2D)",
            "SubResource(\"nope\") is missing",
        ),
        (
            "noext",
            "node \"Box\" (CollisionShape2D)",
            "ExtResource(\"1\"): tests/levels/godot/refused/gone.tres: cannot read the file: No such file or directory (os error 2)",
        ),
        (
            "noscene",
            "node \"Player\" (instance)",
            "the scene it instances, \"res://player.tscn\", is missing (tests/levels/godot/refused/player.tscn); the nodes under it are left out with it",
        ),
        (
            "capsule",
            "node \"Pill\" (CollisionShape2D)",
            "a capsule under a non-uniform scale or skew",
        ),
        (
            "convex",
            "node \"Dent\" (CollisionShape2D)",
            "points that are not convex (at point 2)",
        ),
        (
            "bow",
            "node \"Bow\" (CollisionPolygon2D)",
            "self-intersecting polygon (edges 0 and 2 cross)",
        ),
        (
            "hex",
            "node \"Ground\" (TileMapLayer)",
            "the tile set's tiles are not squares (tile_shape other than 0)",
        ),
        (
            "baddata",
            "node \"Ground\" (TileMapLayer)",
            "tile_map_data does not decode (3 bytes: a format 0, then 12 bytes a cell)",
        ),
        (
            "nosource",
            "node \"Ground\" (TileMapLayer)",
            "cell (0,0) uses source 5, which the tile set does not have",
        ),
    ];
    for (file, place, why) in cases {
        let path = format!("tests/levels/godot/refused/{file}.tscn");
        let e = import(Path::new(&path), Convert { scale: 1.0 }, false).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("{path}: {place}: {why} (pass --skip-unsupported to leave it out)")
        );
        let skipped = imported(&path, true);
        let notes: Vec<String> = skipped.notes.iter().map(ToString::to_string).collect();
        assert_eq!(notes, [format!("{path}: {place}: skipped: {why}")]);
        assert!(skipped.scene.shapes.is_empty());
    }
}

/// A scene whose instance's ext_resource path is not a scene file: `"res://"` (the project's
/// folder), a folder, an empty path, a missing file, a device. Each is refused naming the
/// scene, the node and the path as written, or with --skip-unsupported a note, the node and
/// those under it left out. `import ./scene.tscn` with `"res://"` said "./: not a file",
/// naming neither the scene nor the node.
#[test]
fn an_instance_of_a_folder_an_empty_path_or_a_missing_scene_names_the_scene_and_the_node() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("levels")).unwrap();
    let scene = |written: &str| {
        format!(
            "[gd_scene load_steps=2 format=3]\n\n\
             [ext_resource type=\"PackedScene\" path=\"{written}\" id=\"1\"]\n\n\
             [node name=\"Root\" type=\"Node2D\"]\n\n\
             [node name=\"Level\" parent=\".\" instance=ExtResource(\"1\")]\n\
             position = Vector2(5, 5)\n\n\
             [node name=\"Hat\" type=\"CollisionShape2D\" parent=\"Level\"]\n"
        )
    };
    let bin = env!("CARGO_BIN_EXE_collidoscope");
    let mut cases = vec![
        ("res://", "is a folder (./), not a scene"),
        ("res://levels", "is a folder (./levels), not a scene"),
        ("levels/", "is a folder (./levels/), not a scene"),
        ("", "is an empty path"),
        ("res://gone.tscn", "is missing (./gone.tscn)"),
    ];
    if cfg!(unix) {
        cases.push((
            "/dev/null",
            "is not a file (/dev/null: a device, pipe or socket), not a scene",
        ));
    }
    for (written, why) in cases {
        std::fs::write(dir.path().join("scene.tscn"), scene(written)).unwrap();
        let said = format!(
            "./scene.tscn: node \"Level\" (instance): the scene it instances, {written:?}, {why}; the nodes under it are left out with it"
        );
        let run = Command::new(bin)
            .current_dir(dir.path())
            .args(["import", "./scene.tscn"])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(1), "{written:?}: {stderr}");
        assert_eq!(
            stderr.trim_end(),
            format!("{said} (pass --skip-unsupported to leave it out)")
        );
        let run = Command::new(bin)
            .current_dir(dir.path())
            .args(["import", "./scene.tscn", "--skip-unsupported"])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(0), "{written:?}: {stderr}");
        assert_eq!(
            stderr.trim_end(),
            said.replace("(instance): the", "(instance): skipped: the")
        );
    }
}

// Issue 59: the physics platformer of Godot's demo projects (tests/levels/godot/
// physics_platformer/README.md), its bodies, gravity and notes.
const STAGE: &str = "tests/levels/godot/physics_platformer/stage.tscn";
const BODIES: &str = "tests/levels/godot/bodies/bodies.tscn";

/// How many shapes of `set` have each body type: (static, kinematic, dynamic).
fn bodies_of(set: &Imported, prefix: &str) -> (usize, usize, usize) {
    use collidoscope::scene::Body;
    let mut counts = (0, 0, 0);
    for s in &set.scene.shapes {
        if !s.name.as_deref().is_some_and(|n| n.starts_with(prefix)) {
            continue;
        }
        match s.motion.body {
            Body::Static => counts.0 += 1,
            Body::Kinematic => counts.1 += 1,
            Body::Dynamic => counts.2 += 1,
        }
    }
    counts
}

#[test]
fn the_platformers_bodies_keep_their_types() {
    // The player's SeparationRayShape2D has no collidoscope kind: skipped.
    let stage = imported(STAGE, true);
    // RigidBody2D: the player's polygon, 3 circles on each of 11 enemies, the seesaw's plank.
    assert_eq!(bodies_of(&stage, "Player/"), (0, 0, 1));
    assert_eq!(bodies_of(&stage, "Enemies/"), (0, 0, 33));
    for k in 1..=11 {
        assert_eq!(bodies_of(&stage, &format!("Enemies/Enemy{k}/")), (0, 0, 3));
    }
    assert_eq!(bodies_of(&stage, "Props/Seesaw/Plank/"), (0, 0, 1));
    // The seesaw's pillar is a StaticBody2D.
    assert_eq!(bodies_of(&stage, "Props/Seesaw/Pillar/"), (1, 0, 0));
    // CharacterBody2D: the three moving platforms.
    for k in 1..=3 {
        assert_eq!(
            bodies_of(&stage, &format!("Props/MovingPlatform{k}/")),
            (0, 1, 0)
        );
    }
    // The tiles and the coins' Area2Ds stay static; nothing else moves.
    let all = bodies_of(&stage, "");
    assert_eq!((all.1, all.2), (3, 35));
    assert_eq!(bodies_of(&stage, "Coins/"), (42, 0, 0));
    // No body in the stage is given a velocity.
    assert!(
        stage
            .scene
            .shapes
            .iter()
            .all(|s| s.motion.velocity == DVec2::ZERO)
    );
}

#[test]
fn a_bodys_velocity_comes_with_it_flipped_scaled_and_saved() {
    let set = imported(BODIES, false);
    let motion = |name: &str| shape(&set, name).motion;
    use collidoscope::scene::Body;
    // RigidBody2D at (100, 50), linear_velocity (120, -60) px/s, angular_velocity 2 rad/s
    // (clockwise on Godot's screen): y flipped, the turn counter-clockwise negated.
    let centre = motion("Ball/Centre");
    assert_eq!(centre.body, Body::Dynamic);
    assert_eq!(centre.velocity, DVec2::new(120.0, 60.0));
    assert_eq!(centre.angular_velocity, -2.0);
    // A shape 10 px right of the body's origin turns with it: + ω × r = (0, -20).
    let side = motion("Ball/Side");
    assert_eq!(side.body, Body::Dynamic);
    assert!(close(side.velocity, DVec2::new(120.0, 40.0)), "{side:?}");
    // CharacterBody2D: kinematic, its `velocity`.
    let feet = motion("Walker/Feet");
    assert_eq!(
        (feet.body, feet.velocity),
        (Body::Kinematic, DVec2::new(-40.0, 0.0))
    );
    // ... but a segment is static geometry in collidoscope: kept static, said so.
    assert_eq!(motion("Walker/Rail").body, Body::Static);
    assert!(set.notes.iter().any(|n| n.place.contains("Walker/Rail")
        && n.what.contains("static")
        && n.what.contains("CharacterBody2D")));
    // AnimatableBody2D: kinematic, at rest (its animation is not read).
    assert_eq!(motion("Lift/Deck").body, Body::Kinematic);
    assert_eq!(motion("Lift/Deck").velocity, DVec2::ZERO);
    // A frozen RigidBody2D: freeze_mode 1 kinematic, 0 (the default) static; at rest.
    assert_eq!(
        (motion("Crate/Box").body, motion("Crate/Box").velocity),
        (Body::Kinematic, DVec2::ZERO)
    );
    assert_eq!(motion("Block/Box").body, Body::Static);
    // A StaticBody2D's constant_linear_velocity moves what touches it, not the body: a note.
    assert_eq!(motion("Belt/Box").body, Body::Static);
    assert!(
        set.notes
            .iter()
            .any(|n| n.place.contains("Belt/Box") && n.what.contains("constant_linear_velocity"))
    );

    // --scale 0.01: velocities scale as positions do.
    let small = import(Path::new(BODIES), Convert { scale: 0.01 }, false).unwrap();
    let v = small
        .scene
        .shapes
        .iter()
        .find(|s| s.name.as_deref() == Some("Ball/Centre"))
        .unwrap()
        .motion;
    assert!(close(v.velocity, DVec2::new(1.2, 0.6)), "{v:?}");
    assert_eq!(v.angular_velocity, -2.0);

    // Saved and read back: the bodies and velocities survive.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("bodies.json");
    collidoscope::scene::save(&set.scene, &out).unwrap();
    let back = collidoscope::scene::load(&out).unwrap();
    let motions = |s: &collidoscope::scene::Scene| {
        s.shapes
            .iter()
            .map(|s| (s.name.clone(), s.motion))
            .collect::<Vec<_>>()
    };
    assert_eq!(motions(&back), motions(&set.scene));
    assert_eq!(back.gravity, set.scene.gravity);
}

#[test]
fn gravity_is_the_projects_flipped_and_scaled_980_when_it_says_none() {
    let gravity = |path: &str, scale: f64| {
        import(Path::new(path), Convert { scale }, true)
            .unwrap()
            .scene
            .gravity
    };
    // physics_platformer: 2d/default_gravity=900, down on Godot's screen.
    assert_eq!(gravity(STAGE, 1.0), Some(DVec2::new(0.0, -900.0)));
    assert_eq!(gravity(STAGE, 0.01), Some(DVec2::new(0.0, -9.0)));
    // kinematic_character: 500.
    assert_eq!(gravity(WORLD, 1.0), Some(DVec2::new(0.0, -500.0)));
    // physics_tests sets none: Godot's 980 px/s² down.
    assert_eq!(gravity(SHAPES, 1.0), Some(DVec2::new(0.0, -980.0)));
    // No project.godot at all: the same default.
    assert_eq!(
        gravity("tests/levels/godot/room/room.tscn", 1.0),
        Some(DVec2::new(0.0, -980.0))
    );
    // 500 along (0.6, 0.8): (300, 400) px/s², y flipped.
    let g = gravity(BODIES, 0.01).unwrap();
    assert!(close(g, DVec2::new(3.0, -4.0)), "{g}");
    // Gravity is a version-3 key: the set says so.
    let set = imported(STAGE, true);
    assert_eq!(set.scene.version_needed(), 3);
}

#[test]
fn a_bad_gravity_in_project_godot_is_refused_naming_the_file_line_and_key() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("project.godot"),
        "config_version=5\n\n[physics]\n\n2d/default_gravity=\"down\"\n",
    )
    .unwrap();
    let scene = dir.path().join("level.tscn");
    std::fs::copy(BODIES, &scene).unwrap();
    let e = import(&scene, Convert { scale: 1.0 }, false)
        .unwrap_err()
        .to_string();
    assert!(e.contains("project.godot"), "{e}");
    assert!(e.contains("line 5"), "{e}");
    assert!(e.contains("2d/default_gravity"), "{e}");
    // Numbers each finite whose product is not: refused too, never an infinite gravity.
    std::fs::write(
        dir.path().join("project.godot"),
        "[physics]\n2d/default_gravity=1e308\n2d/default_gravity_vector=Vector2(10, 0)\n",
    )
    .unwrap();
    let e = import(&scene, Convert { scale: 1.0 }, false)
        .unwrap_err()
        .to_string();
    assert!(e.contains("line 2") && e.contains("finite"), "{e}");
}

/// godot-demo-projects' OneWayPlatform and the bodies scene's one-way shapes: collidoscope has
/// no one-way shape, so each is imported whole (docs/format.md: `one_way_collision` is not
/// kept) and a note says so, where the flag was dropped silently before.
#[test]
fn a_one_way_platform_is_kept_whole_and_a_note_says_so() {
    use collidoscope::scene::Body;
    let stage = imported(STAGE, true);
    let platform = shape(&stage, "Props/OneWayPlatform/CollisionShape2D");
    assert_eq!(platform.motion.body, Body::Static);
    assert!(
        matches!(platform.placed.shape, Shape::Polygon(_)),
        "{:?}",
        platform.placed.shape
    );
    let said = |set: &Imported, place: &str| {
        set.notes.iter().any(|n| {
            n.place.contains(place)
                && n.what.contains("one_way_collision not kept")
                && n.what.contains("every side")
        })
    };
    assert!(said(&stage, "OneWayPlatform"));
    let set = imported(BODIES, false);
    for place in ["Ledge/Top", "Lift/Deck"] {
        assert!(said(&set, place), "{place}: {:?}", set.notes);
    }
}

#[test]
fn alike_notes_are_one_line_with_the_count_and_the_first_names() {
    let stage = imported(STAGE, true);
    let lines = collidoscope::import::note_lines(&stage.notes);
    let triggers: Vec<&String> = lines.iter().filter(|l| l.contains("trigger")).collect();
    assert_eq!(triggers.len(), 1, "{lines:#?}");
    let line = triggers[0];
    assert!(line.contains("42"), "{line}");
    for first in [
        "Coins/Coin/Collision",
        "Coins/Coin2/Collision",
        "Coins/Coin3/Collision",
    ] {
        assert!(line.contains(first), "{line}");
    }
    assert!(!line.contains("Coins/Coin4/Collision"), "{line}");
    assert!(line.contains("39 more"), "{line}");
    // The rest is not buried: the player's ray and the one-way platform have lines of their
    // own.
    assert!(lines.len() < 10, "{lines:#?}");
    assert!(lines.iter().any(|l| l.contains("SeparationRayShape2D")));
    assert!(lines.iter().any(|l| l.contains("one_way_collision")));
    // Every note is still there, each naming its shape (what the window selects).
    let coin_notes = stage
        .notes
        .iter()
        .filter(|n| n.what.contains("trigger"))
        .count();
    assert_eq!(coin_notes, 42);

    // The command prints the same lines.
    let run = Command::new(env!("CARGO_BIN_EXE_collidoscope"))
        .args(["import", STAGE, "--skip-unsupported"])
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&run.stderr);
    let printed: Vec<&str> = stderr.lines().collect();
    assert_eq!(
        printed,
        lines.iter().map(String::as_str).collect::<Vec<_>>()
    );
}

#[test]
fn a_scene_with_no_shapes_says_why() {
    // physics_tests' main.tscn: a Control menu whose script loads the tests at run time.
    let main = imported("tests/levels/godot/physics_tests/main.tscn", false);
    assert!(main.scene.shapes.is_empty());
    assert_eq!(main.notes.len(), 1, "{:?}", main.notes);
    let why = main.notes[0].to_string();
    assert!(why.contains("no collision shapes"), "{why}");
    assert!(why.contains("CollisionShape2D"), "{why}");
    assert!(why.contains("script"), "{why}");
    assert!(why.contains("\"Main\""), "{why}");
    // The platformer's background: sprites only.
    let bg = imported(
        "tests/levels/godot/physics_platformer/background/parallax_bg.tscn",
        false,
    );
    assert!(bg.scene.shapes.is_empty());
    assert_eq!(bg.notes.len(), 1);
    assert!(bg.notes[0].what.contains("no collision shapes"));
    // The command says it on stderr.
    let run = Command::new(env!("CARGO_BIN_EXE_collidoscope"))
        .args(["import", "tests/levels/godot/physics_tests/main.tscn"])
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&run.stderr).contains("no collision shapes"));
}
